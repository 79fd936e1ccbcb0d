/**
 * npm run bench:voices — compares the offline voices Debian packages give (espeak-ng and its
 * variants, Flite's voices, Festival's diphone and HTS voices) on the homeowners' own lines:
 *  - intelligibility: each line is synthesised, resampled to 16 kHz and recognised by the
 *    server's own file recogniser (PocketSphinx); word error rate against the line;
 *  - time to first audio: wall time to synthesise each reply's first sentence (what a call
 *    waits for before the homeowner starts talking), median and 90th percentile;
 *  - the WAVs, for listening (`--out DIR`, default data/bench-voices), named so a listener
 *    can rank them blind (`--blind` writes them under random names with a key file).
 * Voices whose program is not installed are skipped with the reason.
 * `--personas`: the shipped persona voices instead, through the engines a call uses (Flite with
 * each persona's speaker, pitch and rate; espeak-ng as before), each on its own persona's lines.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STAGES } from '../core/stages';
import { readWav, resampleInt16 } from '../server/audio/wav';
import { editDistance, normaliseWords } from '../server/audio/wer';
import { fillFacts, PERSONA_FACTS } from '../server/providers/brain/personas';
import { findPocketSphinx, PocketSphinxStt } from '../server/providers/stt/pocketsphinx';
import { FLITE_VOICES, festivalVoiceCommand, fliteArgs } from '../server/providers/tts/unit-voices';
import { personaVoice } from '../server/providers/brain/personas';
import { EspeakTts } from '../server/providers/tts/espeak';
import { FliteTts } from '../server/providers/tts/flite';
import type { TextToSpeech } from '../server/providers/tts/types';
import type { Stage } from '../core/stages';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const outDir = path.resolve(root, argValue('--out') ?? 'data/bench-voices');
const blind = args.includes('--blind');
const linesPerPersona = Number(argValue('--lines') ?? 6);

function argValue(name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function has(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

interface Candidate {
  id: string;
  family: string;
  available: () => string | null;
  /** Writes a WAV of the text; returns its path. */
  synth: (text: string, file: string) => void;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-voices-'));

function espeak(id: string, voice: string, rate = 170, pitch = 50): Candidate {
  return {
    id,
    family: 'espeak-ng',
    available: () => (has('espeak-ng') ? null : 'espeak-ng is not installed'),
    synth: (text, file) =>
      execFileSync('espeak-ng', ['-v', voice, '-s', String(rate), '-p', String(pitch), '-w', file, text]),
  };
}

function flite(id: string, voice: keyof typeof FLITE_VOICES, pitchShift = 0, rate = 1): Candidate {
  return {
    id,
    family: 'flite',
    available: () => (has('flite') ? null : 'flite is not installed'),
    synth: (text, file) => execFileSync('flite', fliteArgs({ voice, pitchShift, rate }, text, file)),
  };
}

function festival(id: string, voice: string, dir: string): Candidate {
  return {
    id,
    family: 'festival',
    available: () =>
      !has('text2wave')
        ? 'festival is not installed'
        : fs.existsSync(dir)
          ? null
          : `${path.basename(dir)} is not installed`,
    synth: (text, file) => {
      const txt = path.join(tmp, 'line.txt');
      fs.writeFileSync(txt, text);
      execFileSync('text2wave', ['-eval', festivalVoiceCommand(voice), txt, '-o', file]);
    },
  };
}

const FEST = '/usr/share/festival/voices';
const CANDIDATES: Candidate[] = [
  espeak('espeak-ng en-us (m3, today)', 'en-us+m3'),
  espeak('espeak-ng en-us (f3, today)', 'en-us+f3'),
  espeak('espeak-ng en-us (plain)', 'en-us'),
  espeak('espeak-ng en-gb-x-rp', 'en-gb-x-rp'),
  espeak('espeak-ng en-us klatt4', 'en-us+klatt4'),
  flite('flite slt (female)', 'slt'),
  flite('flite rms (male)', 'rms'),
  flite('flite awb (male, Scottish)', 'awb'),
  flite('flite kal16 (male, diphone)', 'kal16'),
  festival('festival slt HTS (female)', 'cmu_us_slt_arctic_hts', `${FEST}/us/cmu_us_slt_arctic_hts`),
  festival('festival kal diphone (male)', 'kal_diphone', `${FEST}/english/kal_diphone`),
  festival('festival ked diphone (male)', 'ked_diphone', `${FEST}/english/ked_diphone`),
];

/** The homeowners' lines: each persona's openings, then its first objections and reactions. */
function homeownerLines(only?: Stage): string[] {
  const lines: string[] = [];
  for (const stage of only ? [only] : STAGES) {
    const f = PERSONA_FACTS[stage];
    const pool = [
      ...f.openings,
      ...Object.values(f.objections).flat(),
      ...f.greeted,
      ...f.agree,
      ...f.pitchReaction,
    ].map((l) => fillFacts(l, f));
    const distinct = [...new Set(pool)].filter((l) => normaliseWords(l).length >= 4);
    lines.push(...distinct.slice(0, linesPerPersona));
  }
  return lines;
}

function firstSentence(text: string): string {
  const m = text.match(/^.*?[.!?](\s|$)/);
  return (m ? m[0] : text).trim();
}

function pcm16k(file: string): Int16Array {
  const { sampleRate, pcm } = readWav(fs.readFileSync(file));
  return sampleRate === 16_000 ? pcm : resampleInt16(pcm, sampleRate, 16_000);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** The engine's audio for a line, as 16 kHz PCM, and the time to its first chunk. */
async function engineLine(tts: TextToSpeech, stage: Stage, text: string) {
  const t0 = performance.now();
  let firstMs = 0;
  const parts: Int16Array[] = [];
  let rate = 16_000;
  for await (const chunk of tts.synthesize(text, { voice: personaVoice(stage) })) {
    if (!parts.length) firstMs = performance.now() - t0;
    parts.push(chunk.pcm);
    rate = chunk.sampleRate;
  }
  const all = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return { pcm: rate === 16_000 ? all : resampleInt16(all, rate, 16_000), firstMs };
}

async function personas() {
  const stt = new PocketSphinxStt();
  console.log('| persona | engine | word error rate | first audio median |');
  console.log('| --- | --- | --- | --- |');
  for (const stage of STAGES) {
    for (const [name, tts] of [
      ['espeak-ng', new EspeakTts()],
      ['flite', new FliteTts()],
    ] as const) {
      let errors = 0;
      let words = 0;
      const first: number[] = [];
      for (const line of homeownerLines(stage)) {
        const { pcm, firstMs } = await engineLine(tts, stage, firstSentence(line));
        first.push(firstMs);
        const heard = (await stt.transcribe(pcm)).map((s) => s.text).join(' ');
        const ref = normaliseWords(firstSentence(line));
        errors += editDistance(ref, normaliseWords(heard));
        words += ref.length;
      }
      console.log(
        `| ${stage} | ${name} | ${((errors / words) * 100).toFixed(1)}% | ${Math.round(pct(first, 50))} ms |`,
      );
    }
  }
}

async function main() {
  if (args.includes('--personas')) return personas();
  if (!findPocketSphinx()) {
    console.log('PocketSphinx is not installed: intelligibility cannot be measured (npm run setup).');
    process.exit(1);
  }
  const stt = new PocketSphinxStt();
  const lines = homeownerLines();
  fs.mkdirSync(outDir, { recursive: true });
  const key: Record<string, string> = {};
  console.log(`${lines.length} homeowner lines, ${CANDIDATES.length} voices; WAVs in ${outDir}\n`);
  console.log('| voice | word error rate | first audio median | p90 | audio per line |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const c of CANDIDATES) {
    const missing = c.available();
    if (missing) {
      console.log(`| ${c.id} | skipped: ${missing} | | | |`);
      continue;
    }
    let errors = 0;
    let words = 0;
    const firstMs: number[] = [];
    let audioSec = 0;
    for (const [i, line] of lines.entries()) {
      const file = path.join(tmp, `${i}.wav`);
      // Time to first audio: the first sentence alone, as a call speaks replies sentence by sentence.
      const t0 = performance.now();
      c.synth(firstSentence(line), path.join(tmp, 'first.wav'));
      firstMs.push(performance.now() - t0);
      c.synth(line, file);
      const pcm = pcm16k(file);
      audioSec += pcm.length / 16_000;
      const heard = (await stt.transcribe(pcm)).map((s) => s.text).join(' ');
      const ref = normaliseWords(line);
      errors += editDistance(ref, normaliseWords(heard));
      words += ref.length;
      if (i < 3) {
        const name = blind
          ? `${crypto.randomBytes(4).toString('hex')}.wav`
          : `${c.id.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}-${i}.wav`;
        fs.copyFileSync(file, path.join(outDir, name));
        key[name] = c.id;
      }
    }
    console.log(
      `| ${c.id} | ${((errors / words) * 100).toFixed(1)}% | ${Math.round(pct(firstMs, 50))} ms | ${Math.round(pct(firstMs, 90))} ms | ${(audioSec / lines.length).toFixed(1)} s |`,
    );
  }
  if (blind) fs.writeFileSync(path.join(outDir, 'key.json'), JSON.stringify(key, null, 2));
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
