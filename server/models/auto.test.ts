import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelDownload } from '../../core/operator-status';
import { loadConfig } from '../env';
import { Providers, reselectForModel, type ModelSelectors } from '../providers/registry';
import type { EngineInfo } from '../providers/types';
import type { SpeechToText } from '../providers/stt/types';
import type { LiveRecognizerFactory } from '../providers/stt/live/types';
import { autoModelsEnabled, ModelFetcher, wantedUpgrades } from './auto';
import { upgradeSet, type ModelEntry } from './catalogue';

/** A local stand-in for the model host, serving archives built here. */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'auto-models-test-'));
let base = '';
let server: http.Server;
let hanging: net.Server;
let hangingUrl = '';
const hangingSockets = new Set<net.Socket>();
const requests: string[] = [];
const archives = new Map<string, Buffer>();

function makeArchive(folder: string, files: Record<string, string>): Buffer {
  const src = path.join(tmp, 'src', folder);
  fs.mkdirSync(src, { recursive: true });
  for (const [f, body] of Object.entries(files)) fs.writeFileSync(path.join(src, f), body);
  const out = path.join(tmp, `${folder}.tar.bz2`);
  execFileSync('tar', ['-cjf', out, '-C', path.join(tmp, 'src'), folder]);
  return fs.readFileSync(out);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  // Big enough that progress arrives in several pieces (incompressible bytes).
  const weights = createHash('sha512')
    .update('seed')
    .digest('hex')
    .repeat(4000)
    .split('')
    .map((c, i) => String.fromCharCode(33 + ((c.charCodeAt(0) * 7 + i * 13) % 90)))
    .join('');
  archives.set(
    'whisper.tar.bz2',
    makeArchive('sherpa-onnx-whisper-base.en', {
      'base.en-encoder.int8.onnx': weights,
      'base.en-tokens.txt': 'a',
    }),
  );
  archives.set(
    'zipformer.tar.bz2',
    makeArchive('sherpa-onnx-streaming-zipformer-en-20M-2023-02-17', { 'encoder.onnx': 'z' }),
  );
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = archives.get((req.url ?? '').slice(1));
    if (!body) return res.writeHead(404).end('missing');
    res.writeHead(200, { 'content-length': body.length });
    // Sent in pieces, as a real host would.
    let at = 0;
    const step = Math.ceil(body.length / 20);
    const next = () => {
      if (at >= body.length) return res.end();
      res.write(body.subarray(at, at + step));
      at += step;
      setImmediate(next);
    };
    next();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Accepts connections and never answers: a host that does not respond.
  hanging = net.createServer((socket) => {
    hangingSockets.add(socket);
    socket.on('close', () => hangingSockets.delete(socket));
  });
  await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  for (const s of hangingSockets) s.destroy();
  await new Promise<void>((r) => hanging.close(() => r()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const whisperEntry = (over: Partial<ModelEntry> = {}): ModelEntry => ({
  id: 'whisper-base.en',
  capability: 'speech-to-text',
  description: 'test whisper',
  url: 'https://example.invalid/whisper.tar.bz2',
  sha256: sha(archives.get('whisper.tar.bz2')!),
  sizeBytes: archives.get('whisper.tar.bz2')!.length,
  kind: 'tar.bz2',
  target: 'stt',
  creates: 'sherpa-onnx-whisper-base.en',
  approxMb: 1,
  licence: 'MIT',
  upgrade: true,
  ...over,
});

const zipformerEntry = (): ModelEntry => ({
  id: 'streaming-zipformer-en-20M',
  capability: 'streaming-speech-to-text',
  description: 'test zipformer',
  url: 'https://example.invalid/zipformer.tar.bz2',
  sha256: sha(archives.get('zipformer.tar.bz2')!),
  sizeBytes: archives.get('zipformer.tar.bz2')!.length,
  kind: 'tar.bz2',
  target: 'stt',
  creates: 'sherpa-onnx-streaming-zipformer-en-20M-2023-02-17',
  approxMb: 1,
  licence: 'Apache-2.0',
  upgrade: true,
});

function quietLog() {
  const lines: { level: string; msg: string; obj: object }[] = [];
  const at =
    (level: string) =>
    (obj: object, msg = '') =>
      lines.push({ level, msg, obj });
  return { log: { info: at('info'), warn: at('warn'), debug: at('debug') }, lines };
}

describe('AUTO_MODELS', () => {
  it('is on by default, off with AUTO_MODELS=off, in tests and under CI unless asked for', () => {
    expect(autoModelsEnabled({ AUTO_MODELS: 'auto', NODE_ENV: 'production' }).enabled).toBe(true);
    expect(autoModelsEnabled({ AUTO_MODELS: '', NODE_ENV: 'development' }).enabled).toBe(true);
    expect(autoModelsEnabled({ AUTO_MODELS: 'off', NODE_ENV: 'production' }).enabled).toBe(false);
    expect(autoModelsEnabled({ AUTO_MODELS: 'auto', NODE_ENV: 'test' }).enabled).toBe(false);
    expect(autoModelsEnabled({ AUTO_MODELS: 'auto', NODE_ENV: 'production', CI: 'true' }).enabled).toBe(
      false,
    );
    expect(autoModelsEnabled({ AUTO_MODELS: 'auto', NODE_ENV: 'production', CI: 'false' }).enabled).toBe(
      true,
    );
    expect(autoModelsEnabled({ AUTO_MODELS: 'on', NODE_ENV: 'test', CI: '1' }).enabled).toBe(true);
    expect(() => loadConfig({ AUTO_MODELS: 'maybe' })).toThrow(/AUTO_MODELS/);
  });
});

describe('which models are fetched', () => {
  it('leaves out what an explicit engine choice would never use', () => {
    const all = upgradeSet().map((m) => m.id);
    expect(wantedUpgrades({}).entries.map((m) => m.id)).toEqual(all);
    const cloud = wantedUpgrades({ STT_PROVIDER: 'openai', TTS_PROVIDER: 'openai' });
    expect(cloud.entries.map((m) => m.capability)).toEqual(['streaming-speech-to-text']);
    expect(cloud.skipped.map((s) => s.why)).toEqual(['STT_PROVIDER=openai', 'TTS_PROVIDER=openai']);
    expect(
      wantedUpgrades({ VOICE_STREAMING_STT: 'off', TTS_PROVIDER: 'espeak' }).entries.map((m) => m.capability),
    ).toEqual(['speech-to-text']);
    // Asking for a model family keeps its download.
    expect(wantedUpgrades({ STT_PROVIDER: 'whisper' }).entries.map((m) => m.id)).toEqual(all);
  });
});

describe('background model fetch', () => {
  it('goes queued -> downloading -> verifying -> unpacking -> ready with byte progress, and logs about every 10%', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const { log, lines } = quietLog();
    const seen: ModelDownload[] = [];
    const ready: string[] = [];
    const f = new ModelFetcher({
      modelsDir: dir,
      entries: [whisperEntry()],
      baseUrl: base,
      log,
      onChange: (m) => seen.push(m),
      onReady: (e) => {
        ready.push(e.id);
      },
    });
    expect(f.status().models[0]).toMatchObject({ state: 'queued', bytesDone: 0 });
    f.start();
    await f.idle();
    const states = seen.map((m) => m.state).filter((s, i, all) => s !== all[i - 1]);
    expect(states).toEqual(['downloading', 'verifying', 'unpacking', 'ready']);
    const total = archives.get('whisper.tar.bz2')!.length;
    const during = seen.filter((m) => m.state === 'downloading' && m.bytesDone > 0);
    expect(during.length).toBeGreaterThan(3);
    expect(during.at(-1)).toMatchObject({ bytesDone: total, bytesTotal: total });
    expect(f.status().models[0]).toMatchObject({ state: 'ready', bytesDone: total, bytesTotal: total });
    const percents = lines
      .filter((l) => l.msg === 'model download progress')
      .map((l) => (l.obj as { percent: number }).percent);
    expect(percents[0]).toBe(0);
    expect(percents.at(-1)).toBe(100);
    expect(percents.length).toBeLessThanOrEqual(11);
    expect(ready).toEqual(['whisper-base.en']);
    expect(fs.existsSync(path.join(dir, 'stt/sherpa-onnx-whisper-base.en/base.en-tokens.txt'))).toBe(true);
    await f.stop();
  });

  it('a checksum mismatch fails with the reason, deletes the download and installs nothing', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const { log, lines } = quietLog();
    const ready: string[] = [];
    const f = new ModelFetcher({
      modelsDir: dir,
      entries: [whisperEntry({ sha256: '0'.repeat(64) })],
      baseUrl: base,
      log,
      onReady: (e) => {
        ready.push(e.id);
      },
    });
    f.start();
    await f.idle();
    const m = f.status().models[0];
    expect(m.state).toBe('failed');
    expect(m.reason).toMatch(/checksum mismatch/);
    expect(ready).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'stt'))).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    // A failed model is not fetched again in a loop.
    const before = requests.length;
    f.start();
    await f.idle();
    expect(requests.length).toBe(before);
    await f.stop();
  });

  it('gives up on a host that does not answer within the connect timeout, says so once, and waits to retry', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const { log, lines } = quietLog();
    const f = new ModelFetcher({
      modelsDir: dir,
      entries: [whisperEntry(), zipformerEntry()],
      baseUrl: hangingUrl,
      log,
      connectTimeoutMs: 300,
      retryMs: 60_000,
    });
    f.start();
    await f.idle();
    const models = f.status().models;
    expect(models.map((m) => m.state)).toEqual(['queued', 'queued']);
    expect(models[0].reason).toMatch(/no answer within 0.3 s/);
    expect(models[0].nextAttemptAt).toBeTruthy();
    expect(f.status().note).toMatch(/next try at/);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(lines.find((l) => l.level === 'warn')!.msg).toMatch(/cannot be reached/);
    expect(fs.existsSync(path.join(dir, 'stt'))).toBe(false);
    await f.stop();
  });

  it('a refused connection is the same: queued with the reason, nothing installed', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const { log } = quietLog();
    const f = new ModelFetcher({
      modelsDir: dir,
      entries: [whisperEntry()],
      baseUrl: `http://127.0.0.1:${port}`,
      log,
    });
    f.start();
    await f.idle();
    expect(f.status().models[0]).toMatchObject({ state: 'queued' });
    expect(f.status().models[0].reason).toMatch(/could not reach/);
    await f.stop();
  });

  it('reports a model already present as ready without fetching it', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    fs.mkdirSync(path.join(dir, 'stt/sherpa-onnx-whisper-base.en'), { recursive: true });
    const before = requests.length;
    const ready: string[] = [];
    const f = new ModelFetcher({
      modelsDir: dir,
      entries: [whisperEntry()],
      baseUrl: base,
      log: quietLog().log,
      onReady: (e) => {
        ready.push(e.id);
      },
    });
    f.start();
    await f.idle();
    expect(f.status().models[0].state).toBe('ready');
    expect(requests.length).toBe(before);
    expect(ready).toEqual([]);
  });
});

/** Fake engines: "whisper" when its folder is in the models dir, else the embedded one. */
function fakeStt(id: string, closed: string[]): SpeechToText {
  return {
    id,
    label: id,
    transcribe: async () => [{ startMs: 0, endMs: 1, text: id }],
    close: async () => {
      closed.push(id);
    },
  };
}
const info = (capability: EngineInfo['capability'], engine: string): EngineInfo => ({
  capability,
  engine,
  label: engine,
  reason: 'test',
  quality: engine.startsWith('fake:') ? 'enhanced' : 'basic',
  ok: true,
});

describe('hot switch', () => {
  it('new calls get the new engine once a model is ready; a live call keeps the one it started with', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const config = loadConfig({ NODE_ENV: 'test', MODELS_DIR: dir, DATA_DIR: tmp });
    const closed: string[] = [];
    const selections: string[] = [];
    const selectors: ModelSelectors = {
      stt: async (c) => {
        const has = fs.existsSync(path.join(c.modelsDir, 'stt/sherpa-onnx-whisper-base.en'));
        const id = has ? 'fake:whisper-base.en' : 'pocketsphinx';
        selections.push(`stt:${id}`);
        return { engine: fakeStt(id, closed), info: info('speech-to-text', id) };
      },
      tts: async () => {
        throw new Error('not used');
      },
      liveStt: (c, sttEngine) => {
        const has = fs.existsSync(
          path.join(c.modelsDir, 'stt/sherpa-onnx-streaming-zipformer-en-20M-2023-02-17'),
        );
        const id = has
          ? 'fake:zipformer'
          : sttEngine === 'pocketsphinx'
            ? 'pocketsphinx-live'
            : 'utterance-decodes';
        selections.push(`live:${id}`);
        return {
          create: () => null,
          info: info('live-speech-to-text', id),
          close: () => closed.push(id),
        } as LiveRecognizerFactory;
      },
    };
    const providers = new Providers();
    const first = await selectors.stt(config);
    providers.set('stt', first.engine, first.info);
    const live0 = selectors.liveStt(config, 'pocketsphinx');
    providers.set('liveStt', live0, live0.info);
    // A call that started before the download holds its engines.
    const liveCall = { stt: providers.get('stt'), live: providers.get('liveStt') };

    const f = new ModelFetcher({
      modelsDir: dir,
      entries: [whisperEntry(), zipformerEntry()],
      baseUrl: base,
      log: quietLog().log,
      onReady: async (e) => {
        await reselectForModel(providers, config, e.capability, undefined, selectors);
      },
    });
    f.start();
    await f.idle();

    expect(providers.get('stt').id).toBe('fake:whisper-base.en');
    expect(providers.info('stt')).toMatchObject({ engine: 'fake:whisper-base.en', quality: 'enhanced' });
    expect(providers.info('liveStt')?.engine).toBe('fake:zipformer');
    // /api/health reads infos: one entry per capability, updated in place.
    expect(providers.infos.filter((i) => i.capability === 'speech-to-text')).toHaveLength(1);
    expect(await liveCall.stt.transcribe(new Int16Array(10))).toEqual([
      { startMs: 0, endMs: 1, text: 'pocketsphinx' },
    ]);
    expect(liveCall.live.info.engine).toBe('pocketsphinx-live');
    // The old engines are not closed under the live call; they close with the server.
    expect(closed).toEqual([]);
    await providers.close();
    expect(closed.sort()).toEqual(
      [
        'fake:whisper-base.en',
        'fake:zipformer',
        'pocketsphinx',
        'pocketsphinx-live',
        'utterance-decodes',
      ].sort(),
    );
  });

  it('a selection that lands on the engine already serving changes nothing and closes the spare', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: tmp });
    const closed: string[] = [];
    const selectors: ModelSelectors = {
      stt: async () => ({
        engine: fakeStt('pocketsphinx', closed),
        info: info('speech-to-text', 'pocketsphinx'),
      }),
      tts: async () => {
        throw new Error('no voice');
      },
      liveStt: () => ({ create: () => null, info: info('live-speech-to-text', 'pocketsphinx-live') }),
    };
    const providers = new Providers();
    const current = fakeStt('pocketsphinx', []);
    providers.set('stt', current, info('speech-to-text', 'pocketsphinx'));
    providers.set(
      'liveStt',
      selectors.liveStt(config, 'pocketsphinx'),
      info('live-speech-to-text', 'pocketsphinx-live'),
    );
    const replaced: string[] = [];
    providers.onReplace((key) => replaced.push(key));
    expect(await reselectForModel(providers, config, 'speech-to-text', undefined, selectors)).toEqual([]);
    expect(providers.get('stt')).toBe(current);
    expect(closed).toEqual(['pocketsphinx']);
    expect(replaced).toEqual([]);
    // A selector that throws (a voice that fails to load) keeps the current engine.
    expect(await reselectForModel(providers, config, 'text-to-speech', undefined, selectors)).toEqual([]);
  });
});
