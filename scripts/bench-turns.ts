/**
 * npm run bench:turns — false cut-ins and end-of-turn waits of the live-call listener, measured
 * on the recorded speech in ../shared/fixtures/audio.
 *
 * Each clip is one rep utterance, pauses and all (commas, lists, breaths between clauses). It is
 * streamed through the call's real listener (`server/voice/listener.ts`: Silero voice detection,
 * turn-taking, the warm PocketSphinx decoder's live captions) 32 ms window by window, with
 * 0.3 s of silence before and 1.5 s after, like an open microphone. Every end of turn before the
 * clip's last speech is a **false cut-in**: the homeowner would have started to answer while
 * the rep had more to say. The end of turn after the last speech gives the **wait**: silence
 * between the rep's last speech and the turn ending, the part of the reply latency turn-taking
 * decides.
 *
 * The stream runs faster than real time and each live caption is awaited before the next window
 * (the warm decoder answers in 5-50 ms, under two windows), so the counts depend on the audio
 * and the code, not on how busy the machine is.
 *
 *   npm run bench:turns              the listener as configured
 *   npm run bench:turns -- --verbose  every turn of every clip, with its words
 *   BENCH_SEARCH=light npm run bench:turns   the lighter live search a busy server gives new calls
 */
import fs from 'node:fs';
import path from 'node:path';
import { sharedDir } from '../server/test-support/harness';
import { readWav, resampleInt16, rms } from '../server/audio/wav';
import { editDistance, normaliseWords } from '../server/audio/wer';
import { selectVad } from '../server/providers/vad';
import { VAD_WINDOW, VAD_WINDOW_MS } from '../server/providers/vad/types';
import { selectLiveRecognizer } from '../server/providers/stt/live';
import type { LiveRecognizer } from '../server/providers/stt/live/types';
import { PocketSphinxStt } from '../server/providers/stt/pocketsphinx';
import { DecodeQueue } from '../server/voice/decode-queue';
import { Listener, type RepTurn } from '../server/voice/listener';
import type { TurnTakingOptions } from '../server/turns/turn-taking';
import { processUsage } from './lib/bench';
import { PitchTracker } from '../server/turns/pitch';

/** Pitch contours the listener reads (each a few ms of the server's main thread). */
let contoursRead = 0;
const readContour = PitchTracker.prototype.contour;
PitchTracker.prototype.contour = function (this: PitchTracker) {
  contoursRead++;
  return readContour.call(this);
};

const FIXTURES = path.join(sharedDir, 'fixtures/audio');
const LEAD_MS = 300;
const TAIL_MS = 1500;
const verbose = process.argv.includes('--verbose');
const LIGHT = process.env.BENCH_SEARCH === 'light';

interface Clip {
  name: string;
  pcm: Int16Array;
  /** What the clip says (its reference transcript). */
  reference: string;
}

function loadClips(): Clip[] {
  const clips: Clip[] = [];
  for (const dir of fs.readdirSync(FIXTURES).sort()) {
    const full = path.join(FIXTURES, dir);
    if (!fs.statSync(full).isDirectory()) continue;
    for (const file of fs.readdirSync(full).sort()) {
      if (!file.endsWith('.wav')) continue;
      const buf = fs.readFileSync(path.join(full, file));
      // Two-channel files hold two speakers at once: not one rep's utterance.
      if (buf.readUInt16LE(22) !== 1) continue;
      // The mu-law copy is the same recording as its linear twin.
      if (file.includes('mulaw')) continue;
      const { sampleRate, pcm } = readWav(buf);
      const reference = fs.readFileSync(path.join(full, file.replace(/\.wav$/, '.txt')), 'utf8');
      clips.push({ name: `${dir}/${file}`, pcm: resampleInt16(pcm, sampleRate, 16_000), reference });
    }
  }
  return clips;
}

/** A live recogniser whose captions the bench can wait for, so the stream may run ahead of real time. */
class AwaitedRecognizer implements LiveRecognizer {
  readonly pending = new Set<Promise<unknown>>();
  timeouts = 0;
  /** Samples sent to the decoder and captions asked of it (the work the listener gives it). */
  static written = 0;
  static captions = 0;
  /** Captions the decoder did not answer in time (a busy machine): they make the run load-dependent. */
  static timeouts = 0;
  constructor(private readonly inner: LiveRecognizer) {}
  get id() {
    return this.inner.id;
  }
  get alive() {
    return this.inner.alive;
  }
  begin() {
    this.inner.begin();
  }
  write(pcm: Int16Array) {
    AwaitedRecognizer.written += pcm.length;
    this.inner.write(pcm);
  }
  partial(timeoutMs: number) {
    AwaitedRecognizer.captions++;
    const p = this.inner.partial(timeoutMs).then((text) => {
      if (text === null) {
        this.timeouts++;
        AwaitedRecognizer.timeouts++;
      }
      return text;
    });
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
    return p;
  }
  end(timeoutMs: number) {
    return this.inner.end(timeoutMs);
  }
  close() {
    this.inner.close();
  }
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
    // Let the listener's own continuations on the caption run.
    await new Promise((r) => setImmediate(r));
  }
}

interface ClipResult {
  clip: string;
  speechMs: number;
  cutIns: { atMs: number; words: string }[];
  /** Silence from the last speech to the end of the final turn; null when it never ended. */
  finalWaitMs: number | null;
  /** The same, from where the voice ended by bench:voice's measure. */
  finalWaitFromVoiceMs: number | null;
  forcedEnds: number;
  /** Word errors of all the clip's turns together against its reference, and its words. */
  errors: number;
  refWords: number;
}

interface Setup {
  vad: ReturnType<typeof selectVad>;
  live: ReturnType<typeof selectLiveRecognizer>;
  stt: PocketSphinxStt;
  decodeQueue: DecodeQueue;
  decoderPids: Set<number>;
}

async function runClip(
  setup: Setup,
  clip: Clip,
  turnTaking?: Partial<TurnTakingOptions>,
): Promise<ClipResult> {
  const lead = new Int16Array((LEAD_MS / 1000) * 16_000);
  const tail = new Int16Array((TAIL_MS / 1000) * 16_000);
  const stream = new Int16Array(lead.length + clip.pcm.length + tail.length);
  stream.set(clip.pcm, lead.length);
  // A busy server gives new calls the light search (BENCH_SEARCH=light measures those calls).
  const inner = setup.live.create(LIGHT ? { activeCalls: Number.MAX_SAFE_INTEGER } : undefined);
  const pid = (inner as { pid?: number } | null)?.pid;
  if (pid) setup.decoderPids.add(pid);
  const recogniser = inner ? new AwaitedRecognizer(inner) : null;
  const turns: { endMs: number; waitedStreamMs: number; turn: RepTurn }[] = [];
  let position = 0;
  let lastSpeechMs = 0;
  let speechMs = 0;
  const vadProbe = setup.vad.create();
  const listener = new Listener(
    {
      vad: setup.vad,
      stt: setup.stt,
      decodeQueue: setup.decodeQueue,
      createStream: () => recogniser,
      turnTaking,
    },
    {
      send: () => undefined,
      assistantSpeaking: () => false,
      speechStarted: () => undefined,
      bargeIn: () => undefined,
      turn: (turn) => turns.push({ endMs: position, waitedStreamMs: position - lastSpeechMs, turn }),
      fail: (code, message) => {
        throw new Error(`${code}: ${message}`);
      },
    },
  );
  try {
    for (let at = 0; at + VAD_WINDOW <= stream.length; at += VAD_WINDOW) {
      const window = stream.subarray(at, at + VAD_WINDOW);
      position = ((at + VAD_WINDOW) / 16_000) * 1000;
      // Where the voice detector hears speech (a second detector, so the listener's own is untouched).
      if (vadProbe.isSpeech(Float32Array.from(window, (s) => s / 32768))) {
        lastSpeechMs = position;
        speechMs += VAD_WINDOW_MS;
      }
      listener.push(window);
      await recogniser?.settle();
    }
    const words = await Promise.all(turns.map((t) => t.turn.words().catch(() => null)));
    const cutIns = turns
      .map((t, i) => ({ t, words: words[i]?.text ?? '' }))
      .filter(({ t }) => t.endMs < lastSpeechMs);
    // Ended mid-speech: the 20 s cap on an utterance, not a pause taken for the end of the turn.
    const forced = cutIns.filter(({ t }) => t.waitedStreamMs < VAD_WINDOW_MS * 2);
    const final = turns.find((t) => t.endMs >= lastSpeechMs);
    if (verbose) {
      turns.forEach((t, i) =>
        console.log(
          `  ${clip.name} turn ends at ${t.endMs.toFixed(0)} ms (last speech ${lastSpeechMs.toFixed(0)}) after ${t.waitedStreamMs.toFixed(0)} ms of silence: "${words[i]?.text ?? ''}"`,
        ),
      );
    }
    return {
      clip: clip.name,
      speechMs,
      cutIns: cutIns
        .filter((c) => !forced.includes(c))
        .map(({ t, words: w }) => ({ atMs: t.endMs, words: w })),
      finalWaitMs: final ? final.endMs - lastSpeechMs : null,
      finalWaitFromVoiceMs: final ? final.endMs - voiceEndMs(clip.pcm, lead.length) : null,
      forcedEnds: forced.length,
      ...wordErrors(clip.reference, words.map((w) => w?.text ?? '').join(' ')),
    };
  } finally {
    listener.close();
    vadProbe.close();
  }
}

/** What the rep was heard saying, as the homeowner and the coach get it, against what was said. */
function wordErrors(reference: string, heard: string): { errors: number; refWords: number } {
  const ref = normaliseWords(reference);
  return { errors: editDistance(ref, normaliseWords(heard)), refWords: ref.length };
}

/**
 * Where the voice ends in the stream by the measure `npm run bench:voice` takes latency from:
 * the last 20 ms frame above 0.02 RMS. (The voice detector lets go 40-230 ms after it.)
 */
function voiceEndMs(pcm: Int16Array, leadSamples: number): number {
  for (let i = pcm.length - 320; i >= 0; i -= 320)
    if (rms(pcm.subarray(i, i + 320)) > 0.02) return ((leadSamples + i + 320) / 16_000) * 1000;
  return (leadSamples / 16_000) * 1000;
}

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export async function measureTurns(label: string, turnTaking?: Partial<TurnTakingOptions>) {
  const modelsDir = process.env.MODELS_DIR ?? path.join(sharedDir, 'models');
  const setup: Setup = {
    vad: selectVad(modelsDir),
    live: selectLiveRecognizer({ modelsDir, sttEngine: 'pocketsphinx', mode: 'auto', idleDecoders: 1 }),
    stt: new PocketSphinxStt(),
    decodeQueue: new DecodeQueue(1),
    decoderPids: new Set(),
  };
  const clips = loadClips();
  const results: ClipResult[] = [];
  // The warm decoder's own CPU (one process, reused clip after clip), read before it is closed.
  const cpuOf = (pid: number) => {
    try {
      return processUsage(pid).cpuSec;
    } catch {
      return 0; // Exited (a decoder that died is replaced by a new one).
    }
  };
  const decoderCpu = () => [...setup.decoderPids].reduce((n, pid) => n + cpuOf(pid), 0);
  let decoderCpuSec = 0;
  try {
    for (const clip of clips) {
      const before = decoderCpu();
      results.push(await runClip(setup, clip, turnTaking));
      // A decoder started during the clip counts from zero: all of its CPU is this clip's.
      decoderCpuSec += decoderCpu() - before;
    }
  } finally {
    setup.live.close?.();
  }
  const cutIns = results.reduce((n, r) => n + r.cutIns.length, 0);
  const waits = results.flatMap((r) => (r.finalWaitMs === null ? [] : [r.finalWaitMs]));
  const fromVoice = results.flatMap((r) => (r.finalWaitFromVoiceMs === null ? [] : [r.finalWaitFromVoiceMs]));
  const speechSec = results.reduce((n, r) => n + r.speechMs, 0) / 1000;
  const decodedSec = AwaitedRecognizer.written / 16_000;
  console.log(
    `\n${label}: ${results.length} clips, ${speechSec.toFixed(0)} s of speech (${setup.vad.info.engine} voice detection, ${setup.live.info.engine} captions)`,
  );
  for (const r of results) {
    const cut = r.cutIns.length
      ? r.cutIns.map((c) => `${(c.atMs / 1000).toFixed(1)} s "${c.words}"`).join('; ')
      : '';
    console.log(
      `  ${r.clip.padEnd(72)} cut-ins ${String(r.cutIns.length).padStart(2)}  final wait ${r.finalWaitMs === null ? '-' : r.finalWaitMs.toFixed(0)} ms (${r.finalWaitFromVoiceMs === null ? '-' : r.finalWaitFromVoiceMs.toFixed(0)} from the voice end)${r.forcedEnds ? `  (${r.forcedEnds} ended by the 20 s cap)` : ''}${cut ? `  ${cut}` : ''}`,
    );
  }
  const summary = {
    label,
    clips: results.length,
    cutIns,
    clipsWithCutIns: results.filter((r) => r.cutIns.length).length,
    waitP50: percentile(waits, 50),
    waitP95: percentile(waits, 95),
    waitMean: waits.reduce((a, b) => a + b, 0) / Math.max(1, waits.length),
    fromVoiceP50: percentile(fromVoice, 50),
    fromVoiceP95: percentile(fromVoice, 95),
    fromVoiceMean: fromVoice.reduce((a, b) => a + b, 0) / Math.max(1, fromVoice.length),
    unended: results.filter((r) => r.finalWaitMs === null).length,
    decodedSec,
    captions: AwaitedRecognizer.captions,
    contoursRead,
    decoderCpuSec,
    wer:
      (100 * results.reduce((n, r) => n + r.errors, 0)) /
      Math.max(
        1,
        results.reduce((n, r) => n + r.refWords, 0),
      ),
  };
  console.log(
    `  => false cut-ins ${summary.cutIns} (in ${summary.clipsWithCutIns} clips); wait after the last speech p50 ${summary.waitP50.toFixed(0)} ms, p95 ${summary.waitP95.toFixed(0)} ms, mean ${summary.waitMean.toFixed(0)} ms${summary.unended ? `; ${summary.unended} clips never ended` : ''}` +
      `\n  => wait after the voice ended (last 20 ms above 0.02 RMS, as bench:voice measures) p50 ${summary.fromVoiceP50.toFixed(0)} ms, p95 ${summary.fromVoiceP95.toFixed(0)} ms, mean ${summary.fromVoiceMean.toFixed(0)} ms` +
      `\n  => the warm decoder heard ${decodedSec.toFixed(1)} s of audio, answered ${summary.captions} caption requests (${AwaitedRecognizer.timeouts} too late to count; ${summary.contoursRead} pitch contours read) and used ${decoderCpuSec.toFixed(2)} CPU-s (${(decoderCpuSec / Math.max(1, speechSec)).toFixed(3)} per second of speech)` +
      `\n  => the rep's words as the call heard them (all turns of a clip): ${summary.wer.toFixed(1)}% word errors against the references`,
  );
  return summary;
}

async function main() {
  // BENCH_TURN_TAKING='{"completeEndOfTurnMs":300}' tries other waits (server/turns/turn-taking.ts).
  const overrides = JSON.parse(process.env.BENCH_TURN_TAKING ?? '{}') as Partial<TurnTakingOptions>;
  const label = Object.keys(overrides).length
    ? `listener with ${JSON.stringify(overrides)}`
    : 'listener as configured';
  const rows = [await measureTurns(label, overrides)];
  console.log(
    '\n| turn-taking | clips | false cut-ins | clips with cut-ins | wait after last speech p50 ms | p95 ms | mean ms | WER % |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.label} | ${r.clips} | ${r.cutIns} | ${r.clipsWithCutIns} | ${r.waitP50.toFixed(0)} | ${r.waitP95.toFixed(0)} | ${r.waitMean.toFixed(0)} | ${r.wer.toFixed(1)} |`,
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
