import type { RecognitionSupport } from '../../device-speech';

/**
 * The parts of the Web Speech API the device engine uses. `SpeechRecognition` is not in
 * TypeScript's DOM library (and is `webkitSpeechRecognition` in Safari and older Chrome).
 */
export interface RecognitionAlternative {
  transcript: string;
}
export interface RecognitionResult {
  readonly isFinal: boolean;
  readonly length: number;
  [index: number]: RecognitionAlternative;
}
export interface RecognitionResultEvent {
  readonly resultIndex: number;
  readonly results: { readonly length: number; [index: number]: RecognitionResult };
}
export interface RecognitionErrorEvent {
  readonly error: string;
  readonly message?: string;
}

export interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  processLocally?: boolean;
  onresult: ((e: RecognitionResultEvent) => void) | null;
  onerror: ((e: RecognitionErrorEvent) => void) | null;
  onend: (() => void) | null;
  onspeechstart: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

export type AvailabilityStatus = 'available' | 'downloadable' | 'downloading' | 'unavailable';
export interface RecognitionOptions {
  langs: string[];
  processLocally?: boolean;
}

export interface SpeechRecognitionCtor {
  new (): SpeechRecognitionLike;
  available?(options: RecognitionOptions): Promise<AvailabilityStatus>;
  install?(options: RecognitionOptions): Promise<boolean>;
}

export const RECOGNITION_LANG = 'en-US';

export function recognitionCtor(scope: object = globalThis): SpeechRecognitionCtor | null {
  const w = scope as {
    SpeechRecognition?: SpeechRecognitionCtor;
    webkitSpeechRecognition?: SpeechRecognitionCtor;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/**
 * What the browser can do for English recognition. Only `available({processLocally: true})`
 * proves that audio stays on the device; a recogniser without it (Safari, older Chrome) may
 * send audio to its vendor, so it counts as `cloud`.
 */
export async function probeRecognition(ctor: SpeechRecognitionCtor | null): Promise<RecognitionSupport> {
  if (!ctor) return 'none';
  if (typeof ctor.available !== 'function') return 'cloud';
  try {
    const status = await ctor.available({ langs: [RECOGNITION_LANG], processLocally: true });
    if (status === 'available') return 'on-device';
    if (status === 'downloadable' || status === 'downloading') {
      return typeof ctor.install === 'function' ? 'installable' : 'cloud';
    }
    return 'cloud';
  } catch {
    return 'cloud';
  }
}

/** How often install progress is checked. */
const INSTALL_POLL_MS = 500;

/**
 * Downloads the on-device English pack (the rep said yes), reporting the seconds so far while
 * the browser says it is downloading. Resolves true once recognition is available on the device.
 */
export async function installLanguagePack(
  ctor: SpeechRecognitionCtor,
  onProgress: (elapsedSec: number) => void,
): Promise<boolean> {
  if (typeof ctor.install !== 'function') return false;
  const started = Date.now();
  onProgress(0);
  const timer = setInterval(() => onProgress(Math.round((Date.now() - started) / 1000)), INSTALL_POLL_MS);
  try {
    const ok = await ctor.install({ langs: [RECOGNITION_LANG], processLocally: true });
    if (!ok) return false;
    return (await probeRecognition(ctor)) === 'on-device';
  } catch {
    return false;
  } finally {
    clearInterval(timer);
  }
}

/**
 * The device's voices. Chrome fills the list asynchronously: wait for `voiceschanged` briefly.
 */
export async function loadVoices(
  synth: SpeechSynthesis | undefined,
  waitMs = 1500,
): Promise<SpeechSynthesisVoice[]> {
  if (!synth) return [];
  const now = synth.getVoices();
  if (now.length > 0) return now;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      synth.removeEventListener('voiceschanged', done);
      resolve(synth.getVoices());
    };
    const timer = setTimeout(done, waitMs);
    synth.addEventListener('voiceschanged', done);
  });
}
