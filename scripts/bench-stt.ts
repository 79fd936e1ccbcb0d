/**
 * npm run bench:stt — for each speech-to-text engine available here: word error rate and
 * real-time factor over ../shared/fixtures/audio, then a 5-minute call through the whole
 * pipeline (decode -> engine -> who said what) with wall time and peak memory. `--8k` scores the
 * fixtures resampled to 8 kHz (telephone band) instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/env';
import { decodeToMono } from '../server/audio/decode';
import { transcribeFile } from '../server/transcription/pipeline';
import { concatAudio, convertAudio } from '../server/audio/test-audio';
import { normaliseWords, editDistance } from '../server/audio/wer';
import { OpenAiStt } from '../server/providers/stt/openai';
import { findPocketSphinx, PocketSphinxStt } from '../server/providers/stt/pocketsphinx';
import { findSherpaSttModels, SherpaOnnxStt } from '../server/providers/stt/sherpa-onnx';
import type { SpeechToText } from '../server/providers/stt/types';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const fixturesDir = path.resolve(root, '../shared/fixtures/audio');

interface Fixture {
  name: string;
  file: string;
  reference: string;
}

function fixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const dir of fs.readdirSync(fixturesDir).sort()) {
    const full = path.join(fixturesDir, dir);
    if (!fs.statSync(full).isDirectory()) continue;
    for (const f of fs.readdirSync(full).sort()) {
      if (!/\.(wav|mp3|flac)$/.test(f)) continue;
      const ref = path.join(full, f.replace(/\.\w+$/, '.txt'));
      if (fs.existsSync(ref))
        out.push({ name: `${dir}/${f}`, file: path.join(full, f), reference: fs.readFileSync(ref, 'utf8') });
    }
  }
  return out;
}

async function engines(): Promise<SpeechToText[]> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const list: SpeechToText[] = [];
  if (findPocketSphinx()) list.push(new PocketSphinxStt());
  for (const model of findSherpaSttModels(config.modelsDir)) {
    try {
      list.push(await SherpaOnnxStt.load(model));
    } catch (err) {
      console.log(`skipped ${model.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const baseUrl = config.STT_BASE_URL;
  if (baseUrl)
    list.push(new OpenAiStt({ baseUrl, apiKey: config.STT_API_KEY, model: config.STT_MODEL ?? 'whisper-1' }));
  return list;
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

async function main() {
  const list = await engines();
  if (!list.length) {
    console.log(
      'No speech-to-text engine is available: install pocketsphinx (npm run setup) or run npm run models.',
    );
    process.exit(1);
  }
  const fx = fixtures();
  console.log(
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), load ${os.loadavg()[0].toFixed(1)}`,
  );
  const callOnly = process.argv.includes('--call-only');
  const fixturesOnly = process.argv.includes('--fixtures-only');
  for (const stt of list) {
    console.log(`\n## ${stt.label}\n`);
    if (!callOnly) await fixtureTable(stt, fx);
    if (!fixturesOnly) await fiveMinuteCall(stt, fx);
    await stt.close?.();
  }
}

async function fixtureTable(stt: SpeechToText, fx: Fixture[]) {
  const narrowband = process.argv.includes('--8k')
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-stt-8k-'))
    : null;
  try {
    console.log('| fixture | seconds | WER | RTF |\n| --- | ---: | ---: | ---: |');
    let errors = 0;
    let words = 0;
    let audioMs = 0;
    let engineMs = 0;
    for (const f of fx) {
      // --8k: the same clip resampled to 8 kHz (telephone band).
      const file = narrowband
        ? convertAudio(f.file, path.join(narrowband, `${f.name.replace(/\W+/g, '_')}.wav`), [
            ...['-ar', '8000', '-ac', '1'],
          ])
        : f.file;
      const pcm = await decodeToMono(file);
      const t0 = performance.now();
      const segs = await stt.transcribe(pcm, narrowband ? { sourceSampleRate: 8000 } : {});
      const dt = performance.now() - t0;
      const ref = normaliseWords(f.reference);
      const hyp = normaliseWords(segs.map((s) => s.text).join(' '));
      const e = editDistance(ref, hyp);
      const ms = (pcm.length / 16000) * 1000;
      errors += e;
      words += ref.length;
      audioMs += ms;
      engineMs += dt;
      console.log(
        `| ${f.name} | ${(ms / 1000).toFixed(1)} | ${((e / Math.max(1, ref.length)) * 100).toFixed(0)}% | ${(dt / ms).toFixed(2)} |`,
      );
    }
    console.log(
      `| **all (word-weighted)** | ${(audioMs / 1000).toFixed(0)} | **${((errors / words) * 100).toFixed(1)}%** | **${(engineMs / audioMs).toFixed(2)}** |`,
    );
  } finally {
    if (narrowband) fs.rmSync(narrowband, { recursive: true, force: true });
  }
}

/** A 5-minute call: fixtures joined end to end (with pauses) until 300 s, through the whole pipeline. */
async function fiveMinuteCall(stt: SpeechToText, fx: Fixture[]) {
  {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-stt-'));
    try {
      const mono = fx.filter((f) => !/stereo|flac/.test(f.name)).map((f) => f.file);
      const parts: string[] = [];
      let total = 0;
      for (let i = 0; total < 300; i++) {
        const f = fx.find((x) => x.file === mono[i % mono.length])!;
        parts.push(f.file);
        total += (await decodeToMono(f.file)).length / 16000 + 0.8;
      }
      const call = concatAudio(parts, path.join(tmp, 'call.wav'), 0.8);
      let peak = process.memoryUsage().rss;
      const startRss = peak;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      const t0 = performance.now();
      const result = await transcribeFile(call, stt);
      const wall = performance.now() - t0;
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      console.log(
        `\n5-minute call (${(result.durationMs / 1000).toFixed(0)} s, ${parts.length} clips): ${(wall / 1000).toFixed(1)} s wall ` +
          `(RTF ${(wall / result.durationMs).toFixed(2)}), ${result.transcript.length} turns, attribution ${result.attribution}; ` +
          `server process RSS ${mb(startRss)} -> peak ${mb(peak)}`,
      );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
}

void main();
