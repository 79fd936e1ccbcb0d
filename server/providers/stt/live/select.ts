import type { LiveRecognizerFactory } from './types';
import { SherpaOnlineEngine, findStreamingModels } from './sherpa-online';
import { cpuCores } from '../../../machine';
import { builtHelper } from '../../../native-helpers';
import { pocketSphinxModelDir } from '../pocketsphinx';
import { LIGHT_SEARCH_ARGS, LIVE_SEARCH_ARGS, SphinxLiveRecognizer } from './sphinx-live';
import { DecoderGate } from './decoder-gate';

export interface LiveSelectOptions {
  modelsDir: string;
  /** The engine serving speech-to-text (`pocketsphinx`, `sherpa-onnx:...`, `openai`). */
  sttEngine: string;
  /** VOICE_STREAMING_STT: `auto` picks the best available, `off` always decodes clips. */
  mode: 'auto' | 'off';
  sphinxLivePath?: string;
  pocketSphinxModelDir?: string;
  /** Calls started while this many are live get PocketSphinx's lighter search (default 2 per core). */
  lightSearchFrom?: number;
  /** Finished calls' decoders kept warm for the next calls (default 2 per core; 0 = none). */
  idleDecoders?: number;
  /** Decoders working at once, the rest waiting by urgency (decoder-gate.ts; default 1 per core). */
  decoderSlots?: number;
}

/**
 * Warm decoders for the next calls: those of finished calls, and spares started in the
 * background before they are needed. A new decoder costs a process start and about 0.25 s of
 * CPU to load the language model (and 90 MB); twenty calls starting within two seconds on two
 * cores made every call's first turns wait behind those loads. A reused decoder has also
 * adapted its cepstral mean to real audio, which helps the first words of the next call.
 */
class DecoderPool {
  private readonly idle: SphinxLiveRecognizer[] = [];
  /** Spares wanted, by search (the next calls' loads decide which search each gets). */
  private wanted: string[][] = [];
  /**
   * Most spares asked for at once: finished calls' decoders are kept up to this many, so a
   * busy hour keeps its decoders (memory is bounded by the busiest moment, within the cap).
   */
  private keep = 0;
  private warming = false;
  private closed = false;

  constructor(
    private readonly binary: string,
    private readonly modelDir: string,
    private readonly minIdle: number,
    private readonly searchFor: (activeCalls: number) => string[],
    private readonly gate: DecoderGate,
  ) {}

  private spawn(searchArgs: string[]): SphinxLiveRecognizer {
    return new SphinxLiveRecognizer(this.binary, this.modelDir, searchArgs, this.gate);
  }

  take(activeCalls: number): SphinxLiveRecognizer {
    const searchArgs = this.searchFor(activeCalls);
    const at = this.idle.findIndex((r) => r.alive && r.searchArgs === searchArgs);
    const r = at >= 0 ? this.idle.splice(at, 1)[0] : this.spawn(searchArgs);
    r.onRelease = (done) => {
      if (this.closed || !done.alive || this.idle.length >= Math.max(this.minIdle, this.keep)) return false;
      this.idle.push(done);
      return true;
    };
    return r;
  }

  /** Spares for the `spares` calls that may follow `activeCalls`, started one at a time. */
  warm(spares: number, activeCalls: number): void {
    if (this.closed) return;
    this.wanted = Array.from({ length: spares }, (_, i) => this.searchFor(activeCalls + i));
    this.keep = Math.max(this.keep, spares);
    if (this.warming) return;
    this.warming = true;
    const next = () => {
      const missing = this.closed ? undefined : this.missing();
      if (!missing) {
        this.warming = false;
        return;
      }
      try {
        this.idle.push(this.spawn(missing));
      } catch {
        this.warming = false;
        return;
      }
      // Spaced out: each load takes a core for a quarter of a second, which live calls share.
      setTimeout(next, SPARE_EVERY_MS).unref();
    };
    setTimeout(next, 0).unref();
  }

  /** The search of a wanted spare that no idle decoder covers yet, if any. */
  private missing(): string[] | undefined {
    const have = new Map<string[], number>();
    for (const r of this.idle) if (r.alive) have.set(r.searchArgs, (have.get(r.searchArgs) ?? 0) + 1);
    for (const args of this.wanted) {
      const n = have.get(args) ?? 0;
      if (n === 0) return args;
      have.set(args, n - 1);
    }
    return undefined;
  }

  get size(): number {
    return this.idle.length;
  }

  close(): void {
    this.closed = true;
    this.wanted = [];
    for (const r of this.idle.splice(0)) r.close();
  }
}

/** Between two spare decoders started in the background. */
const SPARE_EVERY_MS = 150;

const NAME = 'live-speech-to-text' as const;

function clipDecodes(reason: string, upgradeHint?: string): LiveRecognizerFactory {
  return {
    create: () => null,
    info: {
      capability: NAME,
      engine: 'utterance-decodes',
      label: 'Each utterance decoded when it ends',
      reason,
      quality: 'basic',
      ...(upgradeHint ? { upgradeHint } : {}),
      ok: true,
    },
  };
}

/**
 * Chooses the live-call recogniser: a streaming Zipformer when one is under MODELS_DIR/stt
 * (any speech-to-text engine), else the warm PocketSphinx decoder when PocketSphinx is the
 * speech engine, else none (each utterance is decoded by the speech-to-text engine at the end
 * of the turn, and captions by decodes of the growing utterance).
 */
export function selectLiveRecognizer(opts: LiveSelectOptions): LiveRecognizerFactory {
  if (opts.mode === 'off') return clipDecodes('VOICE_STREAMING_STT=off');
  const failures: string[] = [];
  for (const model of findStreamingModels(opts.modelsDir)) {
    try {
      const engine = SherpaOnlineEngine.load(model);
      return {
        create: () => engine.createRecognizer(),
        info: {
          capability: NAME,
          engine: engine.id,
          label: engine.label,
          reason: `streaming model found at ${model.dir}`,
          quality: 'enhanced',
          ok: true,
        },
      };
    } catch (err) {
      failures.push(`${model.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const failed = failures.length ? `; streaming model failed to load (${failures.join('; ')})` : '';
  if (opts.sttEngine !== 'pocketsphinx') {
    return clipDecodes(
      `${opts.sttEngine} decodes each utterance${failed}`,
      'Run npm run models -- streaming-zipformer-en-20M for live captions from a streaming model.',
    );
  }
  const binary = builtHelper('sphinx-live', opts.sphinxLivePath);
  const modelDir = pocketSphinxModelDir(opts.pocketSphinxModelDir);
  if (!binary || !modelDir) {
    return clipDecodes(
      `${!binary ? 'build/sphinx-live is not built' : 'the PocketSphinx model is missing'}${failed}`,
      'Run npm run setup to build the live PocketSphinx decoder (faster replies, live captions).',
    );
  }
  const cores = cpuCores();
  const lightFrom = opts.lightSearchFrom ?? 2 * cores;
  const pool = new DecoderPool(
    binary,
    modelDir,
    opts.idleDecoders ?? 2 * cores,
    (activeCalls) => (activeCalls >= lightFrom ? LIGHT_SEARCH_ARGS : LIVE_SEARCH_ARGS),
    new DecoderGate(opts.decoderSlots ?? cores),
  );
  return {
    create: (load) => pool.take(load?.activeCalls ?? 0),
    close: () => pool.close(),
    idleDecoders: () => pool.size,
    warm: (spares, activeCalls) => pool.warm(spares, activeCalls),
    info: {
      capability: NAME,
      engine: 'pocketsphinx-live',
      label: 'Live PocketSphinx decoder',
      reason: `${binary} with the model in ${modelDir}${failed}`,
      quality: 'basic',
      ok: true,
    },
  };
}
