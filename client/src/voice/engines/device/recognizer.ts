import { microphoneErrorMessage } from '../../wrapper';
import { RECOGNITION_LANG, type SpeechRecognitionCtor, type SpeechRecognitionLike } from './web-speech';

export interface RecognizerHandlers {
  /** A result's text changed; `key` identifies the result across updates. */
  onResult(key: string, text: string, isFinal: boolean): void;
  /** Recognition cannot go on; the message is for the rep. */
  onFatal(message: string): void;
}

/** Network errors in a row before online recognition gives up. */
const MAX_NETWORK_ERRORS = 3;
const RESTART_DELAY_MS = 50;

/**
 * Continuous recognition with interim results, restarted whenever the browser ends a session
 * (after silence, `no-speech`, or its own time limit) until stopped.
 */
export class Recognizer {
  private rec: SpeechRecognitionLike | null = null;
  private active = false;
  private session = 0;
  private networkErrors = 0;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ctor: SpeechRecognitionCtor,
    private readonly processLocally: boolean,
    private readonly handlers: RecognizerHandlers,
  ) {}

  start(): void {
    if (this.active) return;
    this.active = true;
    this.open();
  }

  stop(): void {
    this.active = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const rec = this.rec;
    this.rec = null;
    if (rec) {
      rec.onresult = rec.onerror = rec.onend = rec.onspeechstart = null;
      try {
        rec.abort();
      } catch {
        // Already ended.
      }
    }
  }

  private open(): void {
    const rec = new this.ctor();
    rec.lang = RECOGNITION_LANG;
    rec.continuous = true;
    rec.interimResults = true;
    rec.maxAlternatives = 1;
    if (this.processLocally) rec.processLocally = true;
    const session = ++this.session;
    rec.onresult = (e) => {
      this.networkErrors = 0;
      for (let i = e.resultIndex; i < e.results.length; i++) {
        const r = e.results[i];
        const text = r?.[0]?.transcript ?? '';
        this.handlers.onResult(`${session}:${i}`, text, r.isFinal);
      }
    };
    rec.onerror = (e) => this.onError(e.error);
    rec.onend = () => {
      if (!this.active || this.rec !== rec) return;
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (this.active) this.open();
      }, RESTART_DELAY_MS);
    };
    this.rec = rec;
    try {
      rec.start();
    } catch (err) {
      this.fail(err instanceof Error && err.message ? err.message : 'Speech recognition could not start.');
    }
  }

  private onError(code: string): void {
    switch (code) {
      case 'no-speech':
      case 'aborted':
        // A quiet stretch: the session ends and is restarted.
        return;
      case 'network':
        if (++this.networkErrors >= MAX_NETWORK_ERRORS)
          this.fail(
            "Your browser's online speech recognition cannot be reached. Check your internet connection, then press start to try again.",
          );
        return;
      case 'not-allowed':
      case 'service-not-allowed':
        this.fail(microphoneErrorMessage({ name: 'NotAllowedError' }));
        return;
      case 'audio-capture':
        this.fail(microphoneErrorMessage({ name: 'NotFoundError' }));
        return;
      case 'language-not-supported':
        this.fail('English speech recognition is not ready on this device yet. Press start to try again.');
        return;
      default:
        this.fail('Speech recognition stopped unexpectedly. Press start to try again.');
    }
  }

  private fail(message: string): void {
    this.stop();
    this.handlers.onFatal(message);
  }
}
