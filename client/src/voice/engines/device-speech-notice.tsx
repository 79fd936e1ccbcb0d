import { useSyncExternalStore } from 'react';
import { Loader2 } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { deviceSpeechStore } from './device/speech-prompt';

/**
 * Where the call's speech happens, in one plain line ("Using your device's speech"), and the
 * device engine's questions: downloading the on-device English pack (with its progress), and
 * the browser's online recognition, which sends the rep's voice to the browser's maker.
 */
export function DeviceSpeechNotice({ idle = true }: { idle?: boolean }) {
  const view = useSyncExternalStore(deviceSpeechStore.subscribe, deviceSpeechStore.get);
  const { question, installingSec, notice, cloudInUse } = view;

  // Offers wait until the call is over: nothing the rep has to answer shows while one starts or runs.
  if (question && idle) {
    const text =
      question.kind === 'install'
        ? 'For your next call: your browser can recognise your speech right on this device, more accurately than this site can, after a one-time download of its English speech pack. Your voice stays on your device. Download it now?'
        : `For your next call: your browser can recognise your speech more accurately than this site can, but only by sending your voice to ${question.vendor} while you practise. Nothing is sent unless you allow it. Use your browser's online recognition?`;
    return (
      <section
        aria-label="Speech recognition choice"
        className="w-full max-w-md space-y-3 rounded-md border border-sky-200 bg-sky-50 p-4 text-sm text-sky-950"
      >
        <p>{text}</p>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => void deviceSpeechStore.answer(true)}>
            {question.kind === 'install' ? 'Download' : 'Use online recognition'}
          </Button>
          <Button size="sm" variant="outline" onClick={() => void deviceSpeechStore.answer(false)}>
            {question.kind === 'install' ? 'Not now' : "Use this site's recognition"}
          </Button>
        </div>
      </section>
    );
  }
  if (installingSec !== null) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Loader2 className="size-4 animate-spin" aria-hidden="true" />
        Downloading the English speech pack… {installingSec} s
      </p>
    );
  }
  if (!notice) return null;
  return (
    <p className="text-center text-xs text-slate-500" data-testid="device-speech-notice">
      {notice}
      {cloudInUse && (
        <>
          {' · '}
          <button
            type="button"
            className="underline underline-offset-2 hover:text-slate-700"
            onClick={() => {
              deviceSpeechStore.remember({ cloud: 'declined' });
              deviceSpeechStore.update({
                cloudInUse: false,
                notice: "Your next call uses this site's own speech recognition",
              });
            }}
          >
            Stop using online recognition
          </button>
        </>
      )}
    </p>
  );
}
