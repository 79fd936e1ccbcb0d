import type { Answer, RepChoices } from '../../device-speech';
import { installLanguagePack, recognitionCtor } from './web-speech';

/**
 * What the page shows about device speech (the one-line notice, an offer for the rep, the
 * language-pack download) and the rep's remembered answers. The device engine writes it; the
 * notice component (../device-speech-notice.tsx) renders it. Kept apart from the engine so the
 * page's bundle does not load the engine to show the notice.
 *
 * A call never waits on a question: when better recognition needs the rep's yes (a download,
 * or the browser vendor's online service), the call starts on the server's speech and the
 * offer is shown once the call is over; the answer applies from the next call.
 */
export type SpeechQuestion = { kind: 'install' } | { kind: 'cloud'; vendor: string };

export interface DeviceSpeechView {
  /** Which engines carry the call, in plain words ("Using your device's speech"). */
  notice: string | null;
  /** The rep chose the browser's online recognition: they can take it back. */
  cloudInUse: boolean;
  /** An upgrade the rep may accept or refuse between calls (never while one is starting). */
  question: SpeechQuestion | null;
  /** Seconds since the English pack download started, while it runs. */
  installingSec: number | null;
}

const EMPTY: DeviceSpeechView = { notice: null, cloudInUse: false, question: null, installingSec: null };
const CHOICES_KEY = 'doorstep.deviceSpeech';

class DeviceSpeechStore {
  private view: DeviceSpeechView = EMPTY;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = (): DeviceSpeechView => this.view;

  update(patch: Partial<DeviceSpeechView>): void {
    this.view = { ...this.view, ...patch };
    for (const l of [...this.listeners]) l();
  }

  /** A new call: the last call's notice goes; a download under way keeps its progress. */
  reset(): void {
    this.view = { ...EMPTY, installingSec: this.view.installingSec };
    for (const l of [...this.listeners]) l();
  }

  /** Offers an upgrade; the page shows it between calls, and nothing waits on the answer. */
  offer(question: SpeechQuestion): void {
    this.update({ question });
  }

  /**
   * The rep's answer to the offer, remembered. Yes to the download starts it now, in the
   * background, with its progress on the page; the next call listens on the device once it is in.
   */
  async answer(yes: boolean): Promise<void> {
    const question = this.view.question;
    if (!question) return;
    this.update({ question: null });
    if (question.kind === 'cloud') {
      this.remember({ cloud: yes ? 'accepted' : 'declined' });
      if (yes) this.update({ notice: "Your next call uses your browser's online speech recognition" });
      return;
    }
    this.remember({ install: yes ? 'accepted' : 'declined' });
    const ctor = recognitionCtor();
    if (!yes || !ctor) return;
    const ok = await installLanguagePack(ctor, (sec) => this.update({ installingSec: sec }));
    this.update({
      installingSec: null,
      notice: ok
        ? "English speech pack ready: your next call uses your device's speech"
        : "The English speech pack could not be downloaded; calls use this site's speech",
    });
    if (!ok) this.remember({ install: 'declined' });
  }

  choices(): RepChoices {
    const fallback: RepChoices = { install: 'unasked', cloud: 'unasked' };
    try {
      const raw = JSON.parse(localStorage.getItem(CHOICES_KEY) ?? '{}') as Partial<Record<string, unknown>>;
      const ok = (v: unknown): v is Answer => v === 'unasked' || v === 'accepted' || v === 'declined';
      return {
        install: ok(raw.install) ? raw.install : 'unasked',
        cloud: ok(raw.cloud) ? raw.cloud : 'unasked',
      };
    } catch {
      return fallback;
    }
  }

  remember(patch: Partial<RepChoices>): void {
    try {
      localStorage.setItem(CHOICES_KEY, JSON.stringify({ ...this.choices(), ...patch }));
    } catch {
      // Storage refused (private mode): the question comes again next time.
    }
  }
}

export const deviceSpeechStore = new DeviceSpeechStore();
