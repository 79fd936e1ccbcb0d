import type { Config } from '../env';
import type { Database } from '../db/client';
import { HttpError } from '../errors';
import type { EngineInfo } from './types';
import type { SpeechToText } from './stt/types';
import type { TextToSpeech } from './tts/types';
import type { PersonaBrain } from './brain/types';
import type { Coach } from './coach/types';
import type { Mailer } from './mailer/types';
import type { FileStore } from './storage/types';
import { selectSpeechToText } from './stt';
import { selectTextToSpeech } from './tts';
import { selectPersonaBrain } from './brain';
import { selectPooledCoach } from './coach/pooled';
import { selectMailer } from './mailer';
import { selectFileStore } from './storage';
import { selectVad, type VadFactory } from './vad';
import { selectLiveSpeechToText, type LiveRecognizerFactory } from './stt/live';
import { selectSpeakerEngine, type SpeakerEngine } from './speaker';

export interface ProviderMap {
  stt: SpeechToText;
  tts: TextToSpeech;
  brain: PersonaBrain;
  coach: Coach;
  mailer: Mailer;
  storage: FileStore;
  /** Live calls: voice activity detection and the warm recogniser (docs/voice.md). */
  vad: VadFactory;
  liveStt: LiveRecognizerFactory;
  /** Recordings: how the two voices of a one-channel file are told apart (docs/providers.md). */
  speakers: SpeakerEngine;
}

const CAPABILITY: Record<keyof ProviderMap, EngineInfo['capability']> = {
  stt: 'speech-to-text',
  tts: 'text-to-speech',
  brain: 'homeowner',
  coach: 'coach',
  mailer: 'email',
  storage: 'storage',
  vad: 'voice-activity',
  liveStt: 'live-speech-to-text',
  speakers: 'speaker-attribution',
};

/** The engines serving each capability, chosen once at boot and reported by /api/health. */
export class Providers {
  private readonly engines = new Map<keyof ProviderMap, ProviderMap[keyof ProviderMap]>();
  readonly infos: EngineInfo[] = [];
  /** Engines replaced while running: live calls may still hold them, so they close only at shutdown. */
  private readonly retired: unknown[] = [];
  private readonly replaceListeners: ((key: keyof ProviderMap, engine: unknown) => void)[] = [];

  set<K extends keyof ProviderMap>(key: K, engine: ProviderMap[K], info: EngineInfo) {
    this.engines.set(key, engine);
    this.infos.push(info);
  }

  /**
   * Swaps the engine serving a capability (a model finished downloading): what asks for it from
   * now on gets the new one, while a live call or job that already holds the old one keeps it.
   */
  replace<K extends keyof ProviderMap>(key: K, engine: ProviderMap[K], info: EngineInfo) {
    const old = this.engines.get(key);
    if (old) this.retired.push(old);
    this.engines.set(key, engine);
    const at = this.infos.findIndex((i) => i.capability === CAPABILITY[key]);
    if (at >= 0) this.infos[at] = info;
    else this.infos.push(info);
    for (const fn of this.replaceListeners) fn(key, engine);
  }

  /** Called after each replace (instrumentation wraps the new engine). */
  onReplace(fn: (key: keyof ProviderMap, engine: unknown) => void): void {
    this.replaceListeners.push(fn);
  }

  has(key: keyof ProviderMap): boolean {
    return this.engines.has(key);
  }

  info(key: keyof ProviderMap): EngineInfo | undefined {
    return this.infos.find((i) => i.capability === CAPABILITY[key]);
  }

  /** The engine, or a 503 that says what to install or set. */
  get<K extends keyof ProviderMap>(key: K): ProviderMap[K] {
    const engine = this.engines.get(key);
    if (!engine) {
      const info = this.info(key);
      throw new HttpError(
        503,
        'engine_unavailable',
        info?.reason ?? `No ${CAPABILITY[key]} engine is available`,
      );
    }
    return engine as ProviderMap[K];
  }

  async close(): Promise<void> {
    for (const e of [...this.engines.values(), ...this.retired.splice(0)]) {
      const c = (e as { close?: () => Promise<void> }).close;
      if (c)
        await Promise.resolve()
          .then(() => c.call(e))
          .catch(() => undefined);
    }
  }
}

type Log = { info: (o: object, m?: string) => void; warn: (o: object, m?: string) => void };

export async function createProviders(config: Config, database: Database, log?: Log): Promise<Providers> {
  const providers = new Providers();
  const attempt = async <K extends keyof ProviderMap>(
    key: K,
    select: () =>
      Promise<{ engine: ProviderMap[K]; info: EngineInfo }> | { engine: ProviderMap[K]; info: EngineInfo },
  ) => {
    try {
      const { engine, info } = await select();
      providers.set(key, engine, info);
      log?.info({ capability: info.capability, engine: info.engine, reason: info.reason }, 'engine selected');
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      providers.infos.push({
        capability: CAPABILITY[key],
        engine: 'none',
        label: 'Unavailable',
        reason,
        quality: 'basic',
        ok: false,
      });
      log?.warn({ capability: CAPABILITY[key], reason }, 'no engine available');
    }
  };
  await attempt('storage', () => selectFileStore(config));
  // Coaching is CPU work: it runs on worker threads (server/providers/coach/pooled.ts).
  await attempt('coach', () => selectPooledCoach(config));
  await attempt('mailer', () => selectMailer(config, database));
  await attempt('stt', () => selectSpeechToText(config));
  await attempt('tts', () => selectTextToSpeech(config));
  await attempt('brain', () => selectPersonaBrain(config));
  await attempt('vad', () => {
    const engine = selectVad(config.modelsDir, config.VAD_PROVIDER);
    return { engine, info: engine.info };
  });
  await attempt('liveStt', () => {
    const engine = selectLiveSpeechToText(config, providers.has('stt') ? providers.get('stt').id : 'none');
    return { engine, info: engine.info };
  });
  await attempt('speakers', () => selectSpeakerEngine(config.modelsDir));
  return providers;
}

/** How each model-backed capability is chosen again once a model is ready (tests pass fakes). */
export interface ModelSelectors {
  stt: (config: Config) => Promise<{ engine: SpeechToText; info: EngineInfo }>;
  tts: (config: Config) => Promise<{ engine: TextToSpeech; info: EngineInfo }>;
  liveStt: (config: Config, sttEngine: string) => LiveRecognizerFactory;
}

export const DEFAULT_MODEL_SELECTORS: ModelSelectors = {
  stt: selectSpeechToText,
  tts: selectTextToSpeech,
  liveStt: selectLiveSpeechToText,
};

/** Which engines a newly installed model of a capability can change. */
const RESELECT: Record<string, ('stt' | 'tts' | 'liveStt')[]> = {
  'speech-to-text': ['stt', 'liveStt'],
  'streaming-speech-to-text': ['liveStt'],
  'text-to-speech': ['tts'],
};

async function closeQuietly(engine: unknown): Promise<void> {
  const c = (engine as { close?: () => unknown }).close;
  if (c) await Promise.resolve(c.call(engine)).catch(() => undefined);
}

/**
 * Hot switch: runs the selection again for the engines a new model of `capability` can serve and
 * puts a different winner in place (new calls and jobs use it; live ones keep theirs). A selection
 * that lands on the engine already serving leaves it alone. Returns the capabilities switched.
 */
export async function reselectForModel(
  providers: Providers,
  config: Config,
  capability: string,
  log?: Log,
  selectors: ModelSelectors = DEFAULT_MODEL_SELECTORS,
): Promise<string[]> {
  const switched: string[] = [];
  for (const key of RESELECT[capability] ?? []) {
    const before = providers.info(key);
    try {
      const { engine, info } =
        key === 'liveStt'
          ? (() => {
              const factory = selectors.liveStt(
                config,
                providers.has('stt') ? providers.get('stt').id : 'none',
              );
              return { engine: factory, info: factory.info };
            })()
          : await selectors[key](config);
      if (before?.ok && before.engine === info.engine) {
        await closeQuietly(engine);
        continue;
      }
      providers.replace(key, engine as ProviderMap[typeof key], info);
      switched.push(info.capability);
      log?.info(
        { capability: info.capability, engine: info.engine, previous: before?.engine, reason: info.reason },
        'engine switched: new calls and jobs use it',
      );
    } catch (err) {
      log?.warn(
        { capability: CAPABILITY[key], err: err instanceof Error ? err.message : String(err) },
        'engine re-selection failed; the current engine stays',
      );
    }
  }
  return switched;
}
