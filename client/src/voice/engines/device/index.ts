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
import { installLanguagePack, loadVoices, probeRecognition, recognitionCtor } from './web-speech';

/**
 * `createVoiceClient('device')`: decides which halves of the call the device can carry (asking
 * the rep first where a download or the browser vendor's online recognition would be involved),
 * says so on the page, and returns the device engine, or our server engine when the device
 * has nothing to offer.
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
  let choices = store.choices();
  let plan = planSpeech({ operator, page, probe, choices });

  if (plan.ask === 'install' && ctor) {
    const yes = await store.ask({ kind: 'install' });
    store.remember({ install: yes ? 'accepted' : 'declined' });
    if (yes) {
      const ok = await installLanguagePack(ctor, (sec) => store.update({ installingSec: sec }));
      store.update({ installingSec: null });
      if (!ok) probe.recognition = 'none';
    }
    choices = store.choices();
    plan = planSpeech({ operator, page, probe, choices });
  }
  if (plan.ask === 'cloud') {
    const yes = await store.ask({ kind: 'cloud', vendor: recognitionVendor(navigator.userAgent) });
    store.remember({ cloud: yes ? 'accepted' : 'declined' });
    choices = store.choices();
    plan = planSpeech({ operator, page, probe, choices });
  }

  store.update({ notice: describePlan(plan), cloudInUse: plan.listen === 'cloud' });
  if (!usesDevice(plan)) return new WrappedVoiceClient(new LocalVoiceDriver());
  return new WrappedVoiceClient(new DeviceVoiceDriver({ plan, recognition: ctor, synth }));
}
