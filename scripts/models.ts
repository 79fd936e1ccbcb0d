/**
 * npm run models [-- --list | --all | <id> ...]
 * Downloads the optional engine models into MODELS_DIR (default DATA_DIR/models), checking
 * SHA-256 where the catalogue pins it, and unpacking archives into the folder layout the
 * engines look in (stt/<name>/, tts/<name>/, silero-vad/).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';

export interface ModelEntry {
  id: string;
  /** Which engine uses it. */
  capability: 'speech-to-text' | 'streaming-speech-to-text' | 'voice-activity' | 'text-to-speech';
  description: string;
  url: string;
  /** Pinned SHA-256 of the downloaded file. Without one, the hash is printed and recorded on first download. */
  sha256?: string;
  /** 'tar.bz2' archives unpack into `target`; 'file' is saved as `target/<fileName>`. */
  kind: 'tar.bz2' | 'file';
  /** Folder under MODELS_DIR. */
  target: string;
  /** For kind 'file': the name it is saved under. */
  fileName?: string;
  /** A folder the archive creates under target; its presence means installed. */
  creates?: string;
  approxMb: number;
  /** Installed by a plain `npm run models`. */
  default?: boolean;
}

const SHERPA = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';

/** The catalogue. Add an entry to offer another model; engines find it by folder layout. */
export const MODEL_CATALOGUE: ModelEntry[] = [
  {
    id: 'whisper-tiny.en',
    capability: 'speech-to-text',
    description: 'Whisper tiny.en (English, fast, much better than PocketSphinx)',
    url: `${SHERPA}/asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2`,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-whisper-tiny.en',
    approxMb: 110,
    default: true,
  },
  {
    id: 'whisper-base.en',
    capability: 'speech-to-text',
    description: 'Whisper base.en (English, more accurate, ~2x slower than tiny)',
    url: `${SHERPA}/asr-models/sherpa-onnx-whisper-base.en.tar.bz2`,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-whisper-base.en',
    approxMb: 200,
  },
  {
    id: 'parakeet-tdt-0.6b-v2',
    capability: 'speech-to-text',
    description: 'NVIDIA Parakeet TDT 0.6B v2, int8 (English, most accurate, word timings)',
    url: `${SHERPA}/asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2`,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8',
    approxMb: 480,
  },
  {
    id: 'moonshine-tiny',
    capability: 'speech-to-text',
    description: 'Moonshine tiny, int8 (English, small and quick)',
    url: `${SHERPA}/asr-models/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-moonshine-tiny-en-int8',
    approxMb: 100,
  },
  {
    id: 'moonshine-base',
    capability: 'speech-to-text',
    description: 'Moonshine base, int8 (English)',
    url: `${SHERPA}/asr-models/sherpa-onnx-moonshine-base-en-int8.tar.bz2`,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-moonshine-base-en-int8',
    approxMb: 210,
  },
  {
    id: 'streaming-zipformer-en-20M',
    capability: 'streaming-speech-to-text',
    description: 'Streaming Zipformer 20M (English live partial transcripts)',
    url: `${SHERPA}/asr-models/sherpa-onnx-streaming-zipformer-en-20M-2023-02-17.tar.bz2`,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-streaming-zipformer-en-20M-2023-02-17',
    approxMb: 120,
  },
  {
    id: 'silero-vad',
    capability: 'voice-activity',
    description: 'Silero VAD v5.1.2 (voice activity detection for live calls)',
    url: 'https://github.com/snakers4/silero-vad/raw/v5.1.2/src/silero_vad/data/silero_vad.onnx',
    sha256: '2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f',
    kind: 'file',
    target: 'silero-vad',
    fileName: 'silero_vad_v5.1.2.onnx',
    approxMb: 2,
    default: true,
  },
  {
    id: 'piper-en_US-amy-low',
    capability: 'text-to-speech',
    description: 'Piper voice en_US amy (low), homeowner voice',
    url: `${SHERPA}/tts-models/vits-piper-en_US-amy-low.tar.bz2`,
    kind: 'tar.bz2',
    target: 'tts',
    creates: 'vits-piper-en_US-amy-low',
    approxMb: 65,
    default: true,
  },
  {
    id: 'kokoro-en-v0_19',
    capability: 'text-to-speech',
    description: 'Kokoro en v0.19 (natural English voices, larger)',
    url: `${SHERPA}/tts-models/kokoro-en-v0_19.tar.bz2`,
    kind: 'tar.bz2',
    target: 'tts',
    creates: 'kokoro-en-v0_19',
    approxMb: 330,
  },
];

const MARKER = '.doorstep-model.json';

export class ModelDownloadError extends Error {}

function installedPath(modelsDir: string, entry: ModelEntry): string {
  return entry.kind === 'file'
    ? path.join(modelsDir, entry.target, entry.fileName ?? path.basename(new URL(entry.url).pathname))
    : path.join(modelsDir, entry.target, entry.creates ?? entry.id);
}

export function isInstalled(modelsDir: string, entry: ModelEntry): boolean {
  return fs.existsSync(installedPath(modelsDir, entry));
}

/** Streams a URL to a file while hashing it; returns the hex SHA-256. */
export async function downloadWithHash(
  url: string,
  file: string,
  onBytes?: (bytes: number, total: number | null) => void,
): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'follow' });
  } catch (err) {
    throw new ModelDownloadError(
      `Could not reach ${url}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (!res.ok || !res.body) throw new ModelDownloadError(`Download failed: ${url} answered ${res.status}`);
  const total = Number(res.headers.get('content-length')) || null;
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      bytes += chunk.length;
      onBytes?.(bytes, total);
      cb(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(res.body as any), tap, fs.createWriteStream(file));
  return hash.digest('hex');
}

/**
 * Downloads, verifies and installs one entry. Work happens in a temp folder inside
 * MODELS_DIR and is moved into place only after the checksum matches, so a failed or
 * interrupted download never leaves a half-installed model the engines would try to load.
 */
export async function installModel(
  modelsDir: string,
  entry: ModelEntry,
  log: (line: string) => void = () => undefined,
): Promise<{ status: 'installed' | 'present'; sha256?: string; path: string }> {
  const finalPath = installedPath(modelsDir, entry);
  if (fs.existsSync(finalPath)) return { status: 'present', path: finalPath };
  const work = path.join(modelsDir, '.partial', `${entry.id}-${process.pid}-${Date.now()}`);
  await fsp.mkdir(work, { recursive: true });
  try {
    const download = path.join(work, 'download');
    let lastPct = -10;
    const sha256 = await downloadWithHash(entry.url, download, (bytes, total) => {
      const pct = total ? Math.floor((bytes / total) * 100) : -1;
      if (pct >= lastPct + 10) {
        lastPct = pct;
        log(`  ${entry.id}: ${pct}%`);
      }
    });
    if (entry.sha256 && sha256 !== entry.sha256.toLowerCase()) {
      throw new ModelDownloadError(
        `Checksum mismatch for ${entry.id}: expected ${entry.sha256}, got ${sha256}. Nothing was installed.`,
      );
    }
    if (!entry.sha256) log(`  ${entry.id}: no pinned checksum; downloaded file has sha256 ${sha256}`);
    const targetDir = path.join(modelsDir, entry.target);
    await fsp.mkdir(targetDir, { recursive: true });
    if (entry.kind === 'file') {
      await fsp.rename(download, finalPath);
    } else {
      const unpacked = path.join(work, 'unpacked');
      await fsp.mkdir(unpacked);
      try {
        execFileSync('tar', ['-xjf', download, '-C', unpacked], { stdio: 'pipe' });
      } catch (err) {
        const msg = (err as { stderr?: Buffer }).stderr?.toString().trim();
        throw new ModelDownloadError(
          `Could not unpack ${entry.id} (needs tar and bzip2): ${msg || String(err)}`,
        );
      }
      const made = entry.creates ?? entry.id;
      const produced = path.join(unpacked, made);
      if (!fs.existsSync(produced)) {
        throw new ModelDownloadError(`The ${entry.id} archive did not contain the folder ${made}/`);
      }
      await fsp.writeFile(
        path.join(produced, MARKER),
        JSON.stringify(
          { id: entry.id, url: entry.url, sha256, installedAt: new Date().toISOString() },
          null,
          2,
        ),
      );
      await fsp.rename(produced, finalPath);
    }
    return { status: 'installed', sha256, path: finalPath };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
    await fsp.rmdir(path.join(modelsDir, '.partial')).catch(() => undefined);
  }
}

function modelsDirFromEnv(): string {
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  return path.resolve(process.env.MODELS_DIR ?? path.join(dataDir, 'models'));
}

async function main(argv: string[]) {
  const modelsDir = modelsDirFromEnv();
  if (argv.includes('--list') || argv.includes('-h') || argv.includes('--help')) {
    console.log(`Models folder: ${modelsDir}\n`);
    for (const m of MODEL_CATALOGUE) {
      const state = isInstalled(modelsDir, m) ? 'installed' : m.default ? 'default' : '';
      console.log(
        `${m.id.padEnd(30)} ${String(m.approxMb).padStart(4)} MB  ${state.padEnd(9)}  ${m.description}`,
      );
    }
    console.log(
      '\nnpm run models            installs the defaults\nnpm run models -- --all   installs everything\nnpm run models -- <id>... installs the named models',
    );
    return;
  }
  const ids = argv.filter((a) => !a.startsWith('-'));
  const unknown = ids.filter((id) => !MODEL_CATALOGUE.some((m) => m.id === id));
  if (unknown.length) {
    console.error(`Unknown model id(s): ${unknown.join(', ')}. See npm run models -- --list`);
    process.exit(2);
  }
  const chosen = argv.includes('--all')
    ? MODEL_CATALOGUE
    : ids.length
      ? MODEL_CATALOGUE.filter((m) => ids.includes(m.id))
      : MODEL_CATALOGUE.filter((m) => m.default);
  let failed = 0;
  for (const entry of chosen) {
    console.log(`${entry.id} (~${entry.approxMb} MB) -> ${path.join(modelsDir, entry.target)}`);
    try {
      const r = await installModel(modelsDir, entry, (l) => console.log(l));
      console.log(r.status === 'present' ? '  already installed' : `  installed (sha256 ${r.sha256})`);
    } catch (err) {
      failed++;
      console.error(`  failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  console.log(failed ? `${failed} model(s) failed.` : 'Done. Restart the server to use the new engines.');
  if (failed) process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  void main(process.argv.slice(2));
}
