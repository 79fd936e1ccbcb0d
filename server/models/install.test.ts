import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSherpaSttModels } from '../providers/stt/sherpa-onnx';
import { isPinned, MODEL_CATALOGUE, modelUrl, upgradeSet, type ModelEntry } from './catalogue';
import { installModel, isInstalled, MARKER, ModelDownloadError, partFile, redirectAllowed } from './install';

/** A local stand-in for the release host, serving archives built here. */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'models-test-'));
let base = '';
let server: http.Server;
const requests: string[] = [];
const ranges: string[] = [];
let archive: Buffer;
let archiveSha = '';
/** An archive whose top folder is a symbolic link to a folder outside the models folder. */
let linked: Buffer;
/** An archive with two names for one file (a hard link). */
let hardlinked: Buffer;
const outside = path.join(tmp, 'outside');
const port = () => (server.address() as AddressInfo).port;
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  const src = path.join(tmp, 'src', 'sherpa-onnx-whisper-tiny.en');
  fs.mkdirSync(src, { recursive: true });
  for (const f of ['tiny.en-encoder.int8.onnx', 'tiny.en-decoder.int8.onnx', 'tiny.en-tokens.txt']) {
    fs.writeFileSync(path.join(src, f), `fake ${f}`);
  }
  execFileSync('tar', [
    '-cjf',
    path.join(tmp, 'whisper.tar.bz2'),
    '-C',
    path.join(tmp, 'src'),
    'sherpa-onnx-whisper-tiny.en',
  ]);
  archive = fs.readFileSync(path.join(tmp, 'whisper.tar.bz2'));
  archiveSha = createHash('sha256').update(archive).digest('hex');

  fs.mkdirSync(outside);
  const linkSrc = path.join(tmp, 'link-src');
  fs.mkdirSync(linkSrc);
  fs.symlinkSync(outside, path.join(linkSrc, 'sherpa-onnx-whisper-tiny.en'));
  execFileSync('tar', [
    '-cjf',
    path.join(tmp, 'linked.tar.bz2'),
    '-C',
    linkSrc,
    'sherpa-onnx-whisper-tiny.en',
  ]);
  linked = fs.readFileSync(path.join(tmp, 'linked.tar.bz2'));

  const hardSrc = path.join(tmp, 'hard-src', 'sherpa-onnx-whisper-tiny.en');
  fs.mkdirSync(hardSrc, { recursive: true });
  fs.writeFileSync(path.join(hardSrc, 'tiny.en-tokens.txt'), 'tokens');
  fs.linkSync(path.join(hardSrc, 'tiny.en-tokens.txt'), path.join(hardSrc, 'second-name.txt'));
  execFileSync('tar', [
    '-cjf',
    path.join(tmp, 'hardlinked.tar.bz2'),
    '-C',
    path.join(tmp, 'hard-src'),
    'sherpa-onnx-whisper-tiny.en',
  ]);
  hardlinked = fs.readFileSync(path.join(tmp, 'hardlinked.tar.bz2'));
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/whisper.tar.bz2')
      return res.writeHead(200, { 'content-length': archive.length }).end(archive);
    if (req.url === '/redirect') return res.writeHead(302, { location: '/whisper.tar.bz2' }).end();
    if (req.url === '/redirect-http')
      return res.writeHead(302, { location: `http://localhost:${port()}/whisper.tar.bz2` }).end();
    if (req.url === '/chunked/whisper.tar.bz2') {
      // No length, and far more bytes than the pinned size.
      res.writeHead(200);
      let sent = 0;
      const more = () => {
        if (sent > 50 * archive.length || res.destroyed) return res.end();
        sent += archive.length;
        if (res.write(archive)) setImmediate(more);
        else res.once('drain', more);
      };
      return more();
    }
    if (req.url === '/linked.tar.bz2')
      return res.writeHead(200, { 'content-length': linked.length }).end(linked);
    if (req.url === '/hardlinked.tar.bz2')
      return res.writeHead(200, { 'content-length': hardlinked.length }).end(hardlinked);
    if (req.url === '/vad.onnx') return res.writeHead(200).end('vad-bytes');
    if (req.url === '/cut/whisper.tar.bz2') {
      // The first request is cut off halfway; a Range request gets the rest.
      ranges.push(req.headers.range ?? '');
      const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      if (m) {
        const from = Number(m[1]);
        return res
          .writeHead(206, {
            'content-length': archive.length - from,
            'content-range': `bytes ${from}-${archive.length - 1}/${archive.length}`,
          })
          .end(archive.subarray(from));
      }
      res.writeHead(200, { 'content-length': archive.length });
      res.write(archive.subarray(0, Math.floor(archive.length / 2)));
      setTimeout(() => res.destroy(), 50);
      return;
    }
    res.writeHead(404).end('missing');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const whisper = (over: Partial<ModelEntry> = {}): ModelEntry => ({
  id: 'whisper-tiny.en',
  capability: 'speech-to-text',
  description: 'test',
  url: `${base}/whisper.tar.bz2`,
  kind: 'tar.bz2',
  target: 'stt',
  creates: 'sherpa-onnx-whisper-tiny.en',
  approxMb: 1,
  licence: 'test',
  ...over,
});

describe('model downloads', () => {
  it('verifies the checksum, unpacks into the layout the engine finds, and skips it next time', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const r = await installModel(
      dir,
      whisper({ sha256: archiveSha, sizeBytes: archive.length, url: `${base}/redirect` }),
    );
    expect(r.status).toBe('installed');
    expect(r.sha256).toBe(archiveSha);
    const found = findSherpaSttModels(dir);
    expect(found.map((m) => [m.kind, m.name])).toEqual([['whisper', 'sherpa-onnx-whisper-tiny.en']]);
    expect(found[0].files.encoder).toMatch(/tiny\.en-encoder\.int8\.onnx$/);
    const before = requests.length;
    expect((await installModel(dir, whisper({ sha256: archiveSha, sizeBytes: archive.length }))).status).toBe(
      'present',
    );
    expect(requests.length).toBe(before);
    expect(fs.existsSync(path.join(dir, '.partial'))).toBe(false);
  });

  it('refuses a checksum mismatch and leaves nothing installed', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const wrong = 'f'.repeat(64);
    await expect(installModel(dir, whisper({ sha256: wrong, sizeBytes: archive.length }))).rejects.toThrow(
      /checksum mismatch/,
    );
    expect(isInstalled(dir, whisper())).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f !== 'stt')).toEqual([]);
  });

  it('reports a missing file clearly', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const err = await installModel(
      dir,
      whisper({ url: `${base}/nope.tar.bz2`, sha256: archiveSha, sizeBytes: archive.length }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect(err.message).toMatch(/answered 404/);
  });

  it('saves single files under their folder and name', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const sha = createHash('sha256').update('vad-bytes').digest('hex');
    const entry: ModelEntry = {
      id: 'vad',
      capability: 'voice-activity',
      description: 'test',
      url: `${base}/vad.onnx`,
      sha256: sha,
      sizeBytes: 'vad-bytes'.length,
      kind: 'file',
      target: 'silero-vad',
      fileName: 'silero_vad_v5.1.2.onnx',
      approxMb: 1,
      licence: 'test',
    };
    await installModel(dir, entry);
    expect(fs.readFileSync(path.join(dir, 'silero-vad/silero_vad_v5.1.2.onnx'), 'utf8')).toBe('vad-bytes');
  });

  it('resumes an interrupted download from its part file and never installs the half', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const entry = whisper({ sha256: archiveSha, sizeBytes: archive.length });
    const opts = { baseUrl: `${base}/cut` };
    const err = await installModel(dir, entry, opts).catch((e) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect([err.message, err.transient]).toEqual([expect.any(String), true]);
    expect(isInstalled(dir, entry)).toBe(false);
    expect(findSherpaSttModels(dir)).toEqual([]);
    const half = fs.statSync(partFile(dir, entry)).size;
    expect(half).toBeGreaterThan(0);
    expect(half).toBeLessThan(archive.length);
    const r = await installModel(dir, entry, opts);
    expect(r.status).toBe('installed');
    expect(r.sha256).toBe(archiveSha);
    expect(ranges.at(-1)).toBe(`bytes=${half}-`);
    expect(fs.existsSync(path.join(dir, '.partial'))).toBe(false);
    expect(findSherpaSttModels(dir).map((m) => m.name)).toEqual(['sherpa-onnx-whisper-tiny.en']);
  });

  it('refuses a host offering another size than the pinned one before downloading it', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const err = await installModel(dir, whisper({ sha256: archiveSha, sizeBytes: archive.length + 1 })).catch(
      (e) => e,
    );
    expect(err.message).toMatch(/not the pinned/);
    expect(err.transient).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('checks the disk space first and downloads nothing when it is short', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const before = requests.length;
    const err = await installModel(dir, whisper({ sizeBytes: 50_000_000, sha256: archiveSha }), {
      freeBytes: () => 10_000_000,
    }).catch((e) => e);
    expect(err.message).toMatch(/not enough disk space/);
    expect(requests.length).toBe(before);
  });

  it('rewrites catalogue URLs to MODELS_BASE_URL by the release file name', () => {
    const e = MODEL_CATALOGUE.find((m) => m.id === 'whisper-base.en')!;
    expect(modelUrl(e)).toBe(e.url);
    expect(modelUrl(e, 'http://127.0.0.1:9/mirror/')).toBe(
      'http://127.0.0.1:9/mirror/sherpa-onnx-whisper-base.en.tar.bz2',
    );
  });

  it('the upgrade set is a recogniser for uploads, a streaming one for calls and a multi-voice model, all pinned', () => {
    const set = upgradeSet();
    expect(set.map((m) => m.capability).sort()).toEqual([
      'speech-to-text',
      'streaming-speech-to-text',
      'text-to-speech',
    ]);
    for (const m of set) {
      expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(m.sizeBytes).toBeGreaterThan(1_000_000);
      expect(m.licence).toBeTruthy();
    }
    // Entries marked for the upgrade set without a checksum are never fetched automatically.
    expect(upgradeSet([{ ...set[0], sha256: undefined }])).toEqual([]);
  });

  it('the catalogue has unique ids, https sources and well-formed pinned checksums', () => {
    const ids = MODEL_CATALOGUE.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of MODEL_CATALOGUE) {
      expect(m.url.startsWith('https://')).toBe(true);
      if (m.sha256) expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
      if (m.kind === 'tar.bz2') expect(m.creates).toBeTruthy();
      // What a plain `npm run models` or the background fetch installs is pinned, size included.
      if (m.default || m.upgrade) expect(isPinned(m), m.id).toBe(true);
    }
    // The pinned Silero checksum is the one of the copy in ../shared.
    const silero = MODEL_CATALOGUE.find((m) => m.id === 'silero-vad')!;
    const shared = path.resolve(__dirname, '../../../shared/models/silero-vad/silero_vad_v5.1.2.onnx');
    if (fs.existsSync(shared)) {
      expect(createHash('sha256').update(fs.readFileSync(shared)).digest('hex')).toBe(silero.sha256);
    }
  });

  it('refuses an entry with no pinned checksum and size, before any request, unless the operator pins it', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const before = requests.length;
    const err = await installModel(dir, whisper()).catch((e) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect(err.message).toMatch(/no pinned checksum and size.*--sha256=<hex> --bytes=<size>/);
    expect(requests.length).toBe(before);
    const r = await installModel(dir, whisper(), { pin: { sha256: archiveSha, sizeBytes: archive.length } });
    expect(r.status).toBe('installed');
  });

  it('stops a reply without a length once it passes the pinned size, and keeps none of it', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const entry = whisper({ sha256: archiveSha, sizeBytes: archive.length });
    const err = await installModel(dir, entry, { baseUrl: `${base}/chunked` }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect(err.message).toMatch(/more than the pinned \d+ bytes/);
    expect(fs.existsSync(partFile(dir, entry))).toBe(false);
    expect(isInstalled(dir, entry)).toBe(false);
  });

  it('follows redirects only to https (or within the origin it was given)', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const err = await installModel(
      dir,
      whisper({ sha256: archiveSha, sizeBytes: archive.length, url: `${base}/redirect-http` }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect(err.message).toMatch(/not https/);
    expect(isInstalled(dir, whisper())).toBe(false);
    expect(redirectAllowed('https://github.com/a', 'https://objects.example/b')).toBe(true);
    expect(redirectAllowed('https://github.com/a', 'http://objects.example/b')).toBe(false);
    expect(redirectAllowed('http://127.0.0.1:9/a', 'http://127.0.0.1:9/b')).toBe(true);
    expect(redirectAllowed('https://github.com/a', 'file:///etc/passwd')).toBe(false);
  });

  it('refuses an archive whose folder is a symbolic link, writing nothing outside the models folder', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const entry = whisper({ url: `${base}/linked.tar.bz2`, sha256: sha(linked), sizeBytes: linked.length });
    const err = await installModel(dir, entry).catch((e) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect(err.message).toMatch(/holds a link .*symbolic link/);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(outside, MARKER))).toBe(false);
    expect(isInstalled(dir, entry)).toBe(false);
  });

  it('refuses an archive with a hard link', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
    const entry = whisper({
      url: `${base}/hardlinked.tar.bz2`,
      sha256: sha(hardlinked),
      sizeBytes: hardlinked.length,
    });
    const err = await installModel(dir, entry).catch((e) => e);
    expect(err.message).toMatch(/hard link/);
    expect(isInstalled(dir, entry)).toBe(false);
  });
});
