import type { VoiceEngineContext } from '../../engine-registry';
import {
  describePlan,
  deviceSpeechConfig,
  isLocalEnglishVoice,
  planSpeech,
  recognitionVendor,
  usesDevice,
  type SpeechProbe,
} from '../../device-speech';
import type { VoiceClient } from '../../types';
import { WrappedVoiceClient } from '../../wrapper';
import { LocalVoiceDriver } from '../local/local-engine';
import { DeviceVoiceDriver } from './device-engine';
import { deviceSpeechStore } from './speech-prompt';
import { loadVoices, probeRecognition, recognitionCtor } from './web-speech';

/**
 * `createVoiceClient('device')`: decides which halves of the call the device can carry, says so
 * on the page, and returns the device engine, or our server engine when the device has nothing
 * to offer. Where a download or the browser vendor's online recognition would be involved, the
 * rep is offered it after this call; this one starts at once without it.
 */
export async function createEngine(ctx: VoiceEngineContext): Promise<VoiceClient> {
  const store = deviceSpeechStore;
  store.reset();
  const operator = deviceSpeechConfig(ctx.config?.deviceSpeech);
  const page = ctx.params.get('voice') === 'device' ? 'device' : null;
  const ctor = recognitionCtor();
  const synth = typeof speechSynthesis === 'undefined' ? null : speechSynthesis;
  const voices = await loadVoices(synth ?? undefined);
  const probe: SpeechProbe = {
    recognition: await probeRecognition(ctor),
    // Any installed English voice; the persona's is picked when the call starts.
    localVoice: voices.some(isLocalEnglishVoice),
  };
  const choices = store.choices();
  const plan = planSpeech({ operator, page, probe, choices });
  // A question never holds up the call: it starts on the server's recognition (the plan
  // without the rep's yes) and the offer waits for the call to end (speech-prompt.ts).
  if (plan.ask === 'install' && ctor) store.offer({ kind: 'install' });
  else if (plan.ask === 'cloud')
    store.offer({ kind: 'cloud', vendor: recognitionVendor(navigator.userAgent) });

  store.update({ notice: describePlan(plan), cloudInUse: plan.listen === 'cloud' });
  if (!usesDevice(plan)) return new WrappedVoiceClient(new LocalVoiceDriver());
  return new WrappedVoiceClient(new DeviceVoiceDriver({ plan, recognition: ctor, synth }));
}
