import type { Stage } from '@core/stages';
import { VoiceEmitter } from './emitter';
import { partialPrefixes, REALISTIC_TIMING, type ReplayScript, type ReplayTiming } from './replay-script';
import type {
  StartCallOptions,
  StartProgressStage,
  VoiceClient,
  VoiceEventName,
  VoiceListener,
} from './types';

export interface ReplayEngineOptions {
  /** The conversation to play; a function receives the chosen stage. */
  script: ReplayScript | ((stage: Stage) => ReplayScript);
  timing?: Partial<ReplayTiming>;
}

class Cancelled extends Error {}

/**
 * A VoiceClient that plays a scripted conversation through the same events a live call
 * produces (call-start, transcript partials and finals, speech-start/-end, volume levels,
 * call-end). Used by the browser tests and for demos without a microphone.
 */
export class ReplayVoiceClient implements VoiceClient {
  readonly kind = 'replay' as const;
  private readonly emitter = new VoiceEmitter();
  private readonly timing: ReplayTiming;
  private started = false;
  private generation = 0;
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private wakeups = new Set<() => void>();
  private muted = false;

  constructor(private readonly options: ReplayEngineOptions) {
    this.timing = { ...REALISTIC_TIMING, ...options.timing };
  }

  on<K extends VoiceEventName>(event: K, listener: VoiceListener<K>): () => void {
    return this.emitter.on(event, listener);
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
  }

  async start({ stage }: StartCallOptions): Promise<void> {
    if (this.started) {
      const error = { type: 'validation-error', stage: 'initialization', error: 'already-started' };
      this.emitter.emit('error', error);
      throw new Error('A call is already in progress');
    }
    this.started = true;
    const generation = ++this.generation;
    const script =
      typeof this.options.script === 'function' ? this.options.script(stage) : this.options.script;
    const begun = Date.now();
    try {
      for (const s of ['initialization', 'web-call-creation'] as StartProgressStage[]) {
        this.progress(s, 'started');
        this.progress(s, 'completed');
      }
      await this.sleep(this.timing.connectMs, generation);
      if (script.failStartWith !== undefined) {
        this.emitter.emit('call-start-failed', {
          stage: 'daily-call-join',
          error: script.failStartWith,
          totalDuration: Date.now() - begun,
        });
        throw new Error(script.failStartWith);
      }
    } catch (err) {
      this.cleanup();
      if (err instanceof Cancelled) return;
      throw err;
    }
    this.emitter.emit('call-start-success', { totalDuration: Date.now() - begun });
    this.emitter.emit('call-start');
    void this.play(script, generation);
  }

  stop(): void {
    if (!this.started) return;
    this.end();
  }

  private end(): void {
    this.cleanup();
    this.emitter.emit('call-end');
    this.emitter.emit('message', {
      type: 'status-update',
      status: 'ended',
      endedReason: 'customer-ended-call',
    });
  }

  private cleanup(): void {
    this.started = false;
    this.generation++;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const wake of this.wakeups) wake();
    this.wakeups.clear();
  }

  private progress(stage: StartProgressStage, status: 'started' | 'completed' | 'failed') {
    this.emitter.emit('call-start-progress', { stage, status, timestamp: new Date().toISOString() });
  }

  /** Resolves after ms, or rejects with Cancelled once the call has ended. */
  private sleep(ms: number, generation: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (generation !== this.generation) return reject(new Cancelled());
      const wake = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        reject(new Cancelled());
      };
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.wakeups.delete(wake);
        if (generation !== this.generation) reject(new Cancelled());
        else resolve();
      }, ms);
      this.timers.add(timer);
      this.wakeups.add(wake);
    });
  }

  private async play(script: ReplayScript, generation: number): Promise<void> {
    try {
      for (const step of script.steps) {
        if (step.kind === 'pause') await this.sleep(step.ms, generation);
        else if (step.kind === 'hold') await this.hold(generation);
        else if (step.kind === 'drop') {
          this.cleanup();
          this.emitter.emit('error', { type: 'daily-error', error: {} });
          this.emitter.emit('call-end');
          return;
        } else await this.speak(step.kind === 'say', step.role, step.text, generation);
      }
      await this.sleep(this.timing.turnGapMs, generation);
      // The homeowner ends the call once the script is done.
      this.end();
    } catch (err) {
      if (!(err instanceof Cancelled)) {
        this.cleanup();
        this.emitter.emit('error', err);
        this.emitter.emit('call-end');
      }
    }
  }

  /** Waits until the call ends (cleanup() rejects it with Cancelled). */
  private hold(generation: number): Promise<void> {
    return new Promise((_resolve, reject) => {
      if (generation !== this.generation) return reject(new Cancelled());
      this.wakeups.add(() => reject(new Cancelled()));
    });
  }

  private async speak(finalise: boolean, role: 'user' | 'assistant', text: string, generation: number) {
    const { wordMs, wordsPerPartial, turnGapMs, volumeIntervalMs } = this.timing;
    const isAssistant = role === 'assistant';
    if (role === 'user' && this.muted) return;
    if (isAssistant) this.emitter.emit('speech-start');
    let tick = 0;
    const level = () => {
      // A deterministic, speech-like envelope between 0.25 and 0.85.
      tick++;
      return 0.55 + 0.3 * Math.sin(tick * 1.7) * Math.cos(tick * 0.45);
    };
    const volumeTimer = isAssistant
      ? setInterval(() => this.emitter.emit('volume-level', level()), volumeIntervalMs)
      : undefined;
    try {
      for (const partial of partialPrefixes(text, wordsPerPartial)) {
        await this.sleep(wordMs * wordsPerPartial, generation);
        this.transcript(role, 'partial', partial);
        if (!isAssistant) this.emitter.emit('mic-level', level());
      }
      await this.sleep(wordMs * wordsPerPartial, generation);
      if (finalise) this.transcript(role, 'final', text);
      else this.transcript(role, 'partial', text);
    } finally {
      if (volumeTimer) clearInterval(volumeTimer);
      if (isAssistant) {
        this.emitter.emit('volume-level', 0);
        this.emitter.emit('speech-end');
      }
    }
    await this.sleep(turnGapMs, generation);
  }

  private transcript(role: 'user' | 'assistant', transcriptType: 'partial' | 'final', transcript: string) {
    this.emitter.emit('message', { type: 'transcript', role, transcriptType, transcript });
  }
}
