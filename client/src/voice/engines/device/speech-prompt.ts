import type { Answer, RepChoices } from '../../device-speech';

/**
 * What the page shows about device speech (the one-line notice, a question for the rep, the
 * language-pack download) and the rep's remembered answers. The device engine writes it; the
 * notice component (../device-speech-notice.tsx) renders it. Kept apart from the engine so the
 * page's bundle does not load the engine to show the notice.
 */
export type SpeechQuestion = { kind: 'install' } | { kind: 'cloud'; vendor: string };

export interface DeviceSpeechView {
  /** Which engines carry the call, in plain words ("Using your device's speech"). */
  notice: string | null;
  /** The rep chose the browser's online recognition: they can take it back. */
  cloudInUse: boolean;
  question: SpeechQuestion | null;
  /** Seconds since the English pack download started, while it runs. */
  installingSec: number | null;
}

const EMPTY: DeviceSpeechView = { notice: null, cloudInUse: false, question: null, installingSec: null };
const CHOICES_KEY = 'doorstep.deviceSpeech';

class DeviceSpeechStore {
  private view: DeviceSpeechView = EMPTY;
  private readonly listeners = new Set<() => void>();
  private pendingAnswer: ((yes: boolean) => void) | null = null;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = (): DeviceSpeechView => this.view;

  update(patch: Partial<DeviceSpeechView>): void {
    this.view = { ...this.view, ...patch };
    for (const l of [...this.listeners]) l();
  }

  reset(): void {
    this.pendingAnswer?.(false);
    this.pendingAnswer = null;
    this.view = EMPTY;
    for (const l of [...this.listeners]) l();
  }

  /** Shows a question and resolves with the rep's answer. */
  ask(question: SpeechQuestion): Promise<boolean> {
    this.pendingAnswer?.(false);
    return new Promise((resolve) => {
      this.pendingAnswer = (yes) => {
        this.pendingAnswer = null;
        this.update({ question: null });
        resolve(yes);
      };
      this.update({ question });
    });
  }

  answer(yes: boolean): void {
    this.pendingAnswer?.(yes);
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
