/**
 * The background fetch of the recommended upgrade set at start (AUTO_MODELS, docs/providers.md):
 * one model at a time, never blocking start-up or failing it. When the hosts cannot be reached
 * it says so once and tries again later with a growing pause; each model that becomes ready is
 * handed to `onReady`, which switches engines for new calls and jobs.
 */
import fs from 'node:fs';
import { upgradeSet, type ModelEntry } from './catalogue';
import { installModel, isInstalled, ModelDownloadError, type InstallStep } from './install';
import type { ModelDownload, ModelDownloadState } from '../../core/operator-status';

type Log = {
  info: (o: object, m?: string) => void;
  warn: (o: object, m?: string) => void;
  debug?: (o: object, m?: string) => void;
};

export interface AutoModelsOptions {
  modelsDir: string;
  /** Default: the catalogue's upgrade set. */
  entries?: ModelEntry[];
  /** MODELS_BASE_URL (tests, private mirrors). */
  baseUrl?: string;
  log: Log;
  /** A model is installed and ready: switch engines. */
  onReady?: (entry: ModelEntry) => void | Promise<void>;
  connectTimeoutMs?: number;
  /** First pause after a round that could not reach the host; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  freeBytes?: (dir: string) => number | null;
  /** Every change of a model's state or progress (tests, live displays). */
  onChange?: (model: ModelDownload) => void;
}

export interface AutoModelsStatus {
  enabled: boolean;
  /** Why it is off, or what it is waiting for. */
  note?: string;
  models: ModelDownload[];
}

/** Whether the upgrade set is fetched at start: AUTO_MODELS, default on except in tests and CI. */
export function autoModelsEnabled(config: { AUTO_MODELS: string; NODE_ENV: string; CI?: string }): {
  enabled: boolean;
  why: string;
} {
  const v = config.AUTO_MODELS;
  if (v === 'off') return { enabled: false, why: 'AUTO_MODELS=off' };
  if (v === 'on') return { enabled: true, why: 'AUTO_MODELS=on' };
  if (config.NODE_ENV === 'test') return { enabled: false, why: 'off in tests (AUTO_MODELS=on turns it on)' };
  const ci = (config.CI ?? '').toLowerCase();
  if (ci && ci !== 'false' && ci !== '0') {
    return { enabled: false, why: 'off under CI (AUTO_MODELS=on turns it on)' };
  }
  return { enabled: true, why: 'default' };
}

/**
 * The upgrade set minus what the configuration would never use: a speech or voice engine chosen
 * explicitly elsewhere (STT_PROVIDER / TTS_PROVIDER), or live streaming turned off.
 */
export function wantedUpgrades(
  config: { STT_PROVIDER?: string; TTS_PROVIDER?: string; VOICE_STREAMING_STT?: string },
  entries: ModelEntry[] = upgradeSet(),
): { entries: ModelEntry[]; skipped: { id: string; why: string }[] } {
  const stt = config.STT_PROVIDER?.toLowerCase();
  const tts = config.TTS_PROVIDER?.toLowerCase();
  const skip = (e: ModelEntry): string | null => {
    if (e.capability === 'speech-to-text' && (stt === 'openai' || stt === 'pocketsphinx'))
      return `STT_PROVIDER=${stt}`;
    if (e.capability === 'text-to-speech' && (tts === 'openai' || tts === 'espeak' || tts === 'espeak-ng'))
      return `TTS_PROVIDER=${tts}`;
    if (e.capability === 'streaming-speech-to-text' && config.VOICE_STREAMING_STT === 'off')
      return 'VOICE_STREAMING_STT=off';
    return null;
  };
  const skipped: { id: string; why: string }[] = [];
  const kept = entries.filter((e) => {
    const why = skip(e);
    if (why) skipped.push({ id: e.id, why });
    return !why;
  });
  return { entries: kept, skipped };
}

export class ModelFetcher {
  private readonly entries: ModelEntry[];
  private readonly state = new Map<string, ModelDownload>();
  private readonly presentAtStart = new Set<string>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private retryMs: number;
  private unreachableSaid = false;
  private note: string | undefined;

  constructor(private readonly opts: AutoModelsOptions) {
    this.entries = opts.entries ?? upgradeSet();
    this.retryMs = opts.retryMs ?? 5 * 60_000;
    for (const e of this.entries) {
      const ready = isInstalled(opts.modelsDir, e);
      if (ready) this.presentAtStart.add(e.id);
      this.state.set(e.id, {
        id: e.id,
        capability: e.capability,
        description: e.description,
        licence: e.licence,
        state: ready ? 'ready' : 'queued',
        bytesDone: ready ? (e.sizeBytes ?? 0) : 0,
        bytesTotal: e.sizeBytes ?? null,
      });
    }
  }

  /** Starts in the background; returns at once. */
  start(): void {
    if (this.running || this.abort.signal.aborted) return;
    this.running = this.round().finally(() => {
      this.running = null;
    });
  }

  status(): AutoModelsStatus {
    return {
      enabled: true,
      ...(this.note ? { note: this.note } : {}),
      models: this.entries.map((e) => ({ ...this.state.get(e.id)! })),
    };
  }

  /** Resolves when the current round (if any) has finished. */
  async idle(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private set(id: string, patch: Partial<ModelDownload>) {
    const cur = this.state.get(id)!;
    const next = { ...cur, ...patch };
    if (patch.state && patch.state !== 'failed' && patch.state !== 'queued') delete next.reason;
    this.state.set(id, next);
    this.opts.onChange?.({ ...next });
  }

  private async round(): Promise<void> {
    const { log } = this.opts;
    let unreachable: ModelDownloadError | null = null;
    for (const entry of this.entries) {
      if (this.abort.signal.aborted) return;
      const s = this.state.get(entry.id)!;
      if (s.state === 'ready' || s.state === 'failed') continue;
      if (unreachable) {
        this.set(entry.id, { state: 'queued', reason: unreachable.message });
        continue;
      }
      const outcome = await this.fetchOne(entry);
      if (outcome instanceof ModelDownloadError) unreachable = outcome;
    }
    if (this.abort.signal.aborted) return;
    const pending = [...this.state.values()].some((s) => s.state === 'queued');
    if (!pending) {
      this.note = undefined;
      return;
    }
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.opts.maxRetryMs ?? 6 * 3600_000);
    const at = new Date(Date.now() + wait).toISOString();
    this.note = `next try at ${at}`;
    for (const s of [...this.state.values()]) if (s.state === 'queued') this.set(s.id, { nextAttemptAt: at });
    if (unreachable && !this.unreachableSaid) {
      // Said once; later rounds that fail the same way stay quiet.
      this.unreachableSaid = true;
      log.warn(
        { reason: unreachable.message, retryInSeconds: Math.round(wait / 1000) },
        'optional model downloads: the model host cannot be reached; the built-in engines serve, trying again later',
      );
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.start();
    }, wait);
    this.timer.unref();
  }

  /** Returns the error when the host could not be reached (the rest of the round waits). */
  private async fetchOne(entry: ModelEntry): Promise<ModelDownloadError | null> {
    const { log, modelsDir } = this.opts;
    let lastTenth = -1;
    try {
      fs.mkdirSync(modelsDir, { recursive: true });
      const r = await installModel(modelsDir, entry, {
        baseUrl: this.opts.baseUrl,
        connectTimeoutMs: this.opts.connectTimeoutMs ?? 5000,
        signal: this.abort.signal,
        freeBytes: this.opts.freeBytes,
        log: (line) => log.info({ model: entry.id }, line),
        onStep: (step: InstallStep) => {
          this.set(entry.id, { state: step as ModelDownloadState, nextAttemptAt: undefined });
          if (step === 'downloading')
            log.info({ model: entry.id, approxMb: entry.approxMb }, 'model download started');
        },
        onProgress: (done, total) => {
          this.set(entry.id, { bytesDone: done, bytesTotal: total ?? entry.sizeBytes ?? null });
          const t = total ?? entry.sizeBytes;
          if (!t) return;
          const tenth = Math.floor((done / t) * 10);
          if (tenth > lastTenth) {
            lastTenth = tenth;
            log.info(
              { model: entry.id, percent: tenth * 10, bytesDone: done, bytesTotal: t },
              'model download progress',
            );
          }
        },
      });
      this.set(entry.id, { state: 'ready', nextAttemptAt: undefined });
      log.info({ model: entry.id, path: r.path }, 'model ready');
      this.retryMs = this.opts.retryMs ?? 5 * 60_000;
      this.unreachableSaid = false;
      if (!this.presentAtStart.has(entry.id) && this.opts.onReady) {
        try {
          await this.opts.onReady(entry);
        } catch (err) {
          log.warn(
            { model: entry.id, err: err instanceof Error ? err.message : String(err) },
            'engine switch failed',
          );
        }
      }
      return null;
    } catch (err) {
      if (this.abort.signal.aborted) {
        this.set(entry.id, { state: 'queued', reason: 'stopped with the server' });
        return null;
      }
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof ModelDownloadError && err.transient) {
        this.set(entry.id, { state: 'queued', reason: message });
        log.debug?.({ model: entry.id, reason: message }, 'model download will be tried again');
        return err.busy ? null : err;
      }
      this.set(entry.id, { state: 'failed', reason: message });
      log.warn({ model: entry.id, reason: message }, 'model download failed; the current engine stays');
      return null;
    }
  }
}
