import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { spawnTied } from '../../child-process';
import { WorkerPool } from '../../workers/pool';
import { SPEAKER_SAMPLE_RATE, type SpeakerEmbedder } from './types';

const require = createRequire(import.meta.url);

/** Better models first: TitaNet small (English, the catalogue's), then WeSpeaker/3D-Speaker CAM++. */
const PREFERENCE = ['titanet', 'cam++', 'campplus', 'eres2net', 'resnet'];

/** Smaller than this, an .onnx file is a placeholder or a cut-off download. */
const MIN_ONNX_BYTES = 64 * 1024;

export interface SpeakerModel {
  /** The file name without .onnx. */
  name: string;
  file: string;
}

/** Speaker-embedding models: `.onnx` files directly under MODELS_DIR/speaker/, best first. */
export function findSpeakerModels(modelsDir: string): SpeakerModel[] {
  const root = path.join(modelsDir, 'speaker');
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) return [];
  const rank = (name: string) => {
    const i = PREFERENCE.findIndex((p) => name.toLowerCase().includes(p));
    return i === -1 ? PREFERENCE.length : i;
  };
  return fs
    .readdirSync(root)
    .filter((f) => f.endsWith('.onnx') && fs.statSync(path.join(root, f)).isFile())
    .map((f) => ({ name: f.replace(/\.onnx$/, ''), file: path.join(root, f) }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

/**
 * Loads the model and embeds two seconds of a synthetic voice, printing the vector's size. Run in
 * a child process: sherpa-onnx ends the process it runs in (abort or segmentation fault) when the
 * file is not an ONNX model or lacks the speaker metadata, so the server must never be that
 * process. The calls are those of extractor.ts.
 */
const CHECK_SCRIPT = `
const [lib, model, rate] = process.argv.slice(1);
const sherpa = require(lib);
const x = new sherpa.SpeakerEmbeddingExtractor({ model, numThreads: 1, debug: 0, provider: 'cpu' });
const n = 2 * Number(rate);
const samples = new Float32Array(n);
let seed = 1;
for (let i = 0; i < n; i++) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  let v = 0;
  for (let h = 1; h <= 8; h++) v += Math.sin((2 * Math.PI * 140 * h * i) / Number(rate)) / h;
  samples[i] = 0.1 * v * (0.6 + 0.4 * Math.sin((2 * Math.PI * 3 * i) / Number(rate))) + 0.002 * (seed / 2147483648 - 0.5);
}
const s = x.createStream();
s.acceptWaveform({ samples, sampleRate: Number(rate) });
s.inputFinished();
if (!x.isReady(s)) { process.stdout.write(JSON.stringify({ error: 'the model gave no embedding for 2 s of audio' })); process.exit(0); }
const e = Array.from(x.compute(s, false));
const norm = Math.sqrt(e.reduce((a, v) => a + v * v, 0));
process.stdout.write(JSON.stringify({ dim: x.dim, length: e.length, finite: e.every(Number.isFinite), norm }));
`;

const CHECK_TIMEOUT_MS = 60_000;

export type SpeakerModelCheck = { ok: true; dim: number } | { ok: false; reason: string };

const checks = new Map<string, Promise<SpeakerModelCheck>>();

/**
 * Whether a speaker model loads and gives a usable vector, tried in a child process (see
 * CHECK_SCRIPT). Remembered per file, size and modification time.
 */
export function checkSpeakerModel(file: string): Promise<SpeakerModelCheck> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return Promise.resolve({ ok: false, reason: `${file} does not exist` });
  }
  if (stat.size < MIN_ONNX_BYTES) {
    return Promise.resolve({
      ok: false,
      reason: `${file} looks incomplete or damaged (${stat.size} bytes)`,
    });
  }
  const key = `${file}:${stat.size}:${stat.mtimeMs}`;
  let check = checks.get(key);
  if (!check) {
    check = runCheck(file);
    checks.set(key, check);
  }
  return check;
}

function runCheck(file: string): Promise<SpeakerModelCheck> {
  return new Promise((resolve) => {
    let lib: string;
    try {
      lib = require.resolve('sherpa-onnx-node');
    } catch {
      resolve({ ok: false, reason: 'the sherpa-onnx-node package is not installed' });
      return;
    }
    const env = { ...process.env };
    // The check is plain JavaScript: no loader the server may have been started with.
    delete env.NODE_OPTIONS;
    const child = spawnTied(process.execPath, ['-e', CHECK_SCRIPT, lib, file, String(SPEAKER_SAMPLE_RATE)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHECK_TIMEOUT_MS);
    const failed = (why: string) => resolve({ ok: false, reason: `the speaker model ${file} ${why}` });
    child.on('error', (e) => {
      clearTimeout(timer);
      failed(`could not be checked: ${e.message}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const said = lastMeaningfulLine(err);
      if (code !== 0) {
        const how = signal ? `the loader stopped with ${signal}` : `the loader exited with code ${code}`;
        return failed(`failed to load (${how}${said ? `: ${said}` : ''})`);
      }
      let result: { dim?: number; length?: number; finite?: boolean; norm?: number; error?: string };
      try {
        result = JSON.parse(out);
      } catch {
        return failed(`gave no answer${said ? ` (${said})` : ''}`);
      }
      if (result.error) return failed(result.error);
      if (!result.dim || result.length !== result.dim || !result.finite || !(result.norm! > 0)) {
        return failed(`gave an unusable vector (size ${result.length}, expected ${result.dim})`);
      }
      resolve({ ok: true, dim: result.dim });
    });
  });
}

function lastMeaningfulLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const what = lines.find((l) => l.startsWith('what():')) ?? lines[lines.length - 1] ?? '';
  return what.replace(/^what\(\):\s*/, '').slice(0, 300);
}

/**
 * A checked speaker model, run on a worker thread of its own: computing an embedding is CPU work
 * for every span of speech (its cost per second of audio is not measured yet), which would
 * otherwise stall every request and live call sharing the event loop. One thread, so the
 * model is loaded once; it starts on the first recording.
 */
export class SherpaSpeakerEmbedder implements SpeakerEmbedder {
  readonly id: string;
  readonly label: string;
  private readonly pool: WorkerPool<{ samples: Float32Array }, Float32Array | null>;

  constructor(readonly model: SpeakerModel) {
    this.id = `sherpa-onnx:${model.name}`;
    this.label = `Speaker embeddings (${model.name})`;
    this.pool = new WorkerPool({
      file: new URL('./worker.ts', import.meta.url),
      workerData: { model: model.file },
      size: 1,
      // Each recording keeps at most a few spans in flight (server/transcription/speaker-spans.ts).
      maxQueue: 64,
      what: 'speaker',
    });
  }

  embed(samples: Float32Array, opts: { signal?: AbortSignal } = {}): Promise<Float32Array | null> {
    return this.pool.run({ samples }, opts);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
