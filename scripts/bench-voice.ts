/**
 * npm run bench:voice — live role-play calls against the real server (a separate process).
 * Each simulated rep streams recorded utterances from ../shared/fixtures/audio into
 * /api/voice in real time (20 ms frames, silence in between, like an open microphone), waits
 * for the homeowner to finish answering, and speaks again. Prints, per concurrency level:
 * end of rep speech -> first homeowner audio (p50/p95), where that time goes (end-of-turn
 * wait, recogniser, first synthesised audio), recogniser real-time factor, playback gaps a
 * 120 ms jitter buffer would hear, and the server's memory and CPU (its whole process tree).
 *
 * BENCH_LEVELS=1,5,20  BENCH_TURNS=7  (defaults: each call speaks each of the seven recordings once)
 * `--text` measures text calls instead (the device engine's load): scripts/bench-voice-text.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sharedDir } from '../server/test-support/harness';
import { VoiceCallClient } from '../server/test-support/call-client';
import { readWav, resampleInt16, rms } from '../server/audio/wav';
import { editDistance, normaliseWords } from '../server/audio/wer';
import { PocketSphinxStt } from '../server/providers/stt/pocketsphinx';
import {
  createSession,
  fmt,
  loadNow,
  machine,
  measured,
  numberList,
  percentile,
  printTable,
  ProcessCpuSplit,
  sleep,
  treeUsage,
  withBenchServer,
} from './lib/bench';

const LEVELS = numberList('BENCH_LEVELS', '1,5,20');
/**
 * Turns per call. Each call starts at a different recording and speaks them in order, so with
 * one turn per recording every level hears the same mix: with five, a single call heard only the
 * first five, two or three of which end on a level pitch (the long wait), and its median turned
 * on how one of them was read.
 */
const TURNS = Number(process.env.BENCH_TURNS ?? 7);
const FRAME = 320;
const JITTER_MS = 120;
const REPLY_TIMEOUT_MS = 20_000;

const UTTERANCES = [
  'azure_misc/whatstheweatherlike.wav',
  'pocketsphinx_misc/goforward.wav',
  'cards_pocketsphinx/cards_005.wav',
  'librivox_pocketsphinx/sense_and_sensibility_01_austen_64kb-0880.wav',
  'ljspeech_lhotse/LJ002-0020.wav',
  'cards_pocketsphinx/cards_002.wav',
  'librivox_pocketsphinx/sense_and_sensibility_01_austen_64kb-0930.wav',
];

interface Clip {
  name: string;
  pcm: Int16Array;
  /** What the clip says (the fixture's reference transcript), to score the rep's words. */
  words: string[];
  /** Last sample of speech (20 ms frames above the noise), where "end of rep speech" is measured. */
  speechEnd: number;
}

function loadClip(rel: string): Clip {
  const { sampleRate, pcm } = readWav(fs.readFileSync(path.join(sharedDir, 'fixtures/audio', rel)));
  const at16k = resampleInt16(pcm, sampleRate, 16_000);
  let speechEnd = at16k.length;
  for (let i = at16k.length - FRAME; i >= 0; i -= FRAME) {
    if (rms(at16k.subarray(i, i + FRAME)) > 0.02) {
      speechEnd = i + FRAME;
      break;
    }
  }
  const reference = fs.readFileSync(
    path.join(sharedDir, 'fixtures/audio', rel.replace(/\.wav$/, '.txt')),
    'utf8',
  );
  return { name: rel, pcm: at16k, speechEnd, words: normaliseWords(reference) };
}

interface TurnResult {
  latencyMs: number;
  endOfTurnWaitMs: number;
  sttMs: number;
  ttsFirstAudioMs: number;
  /** Server: turn handed to the homeowner -> its first text. */
  brainFirstTextMs: number;
  /** Server: end of rep speech -> first audio chunk sent (the rest of the latency is transport). */
  serverMs: number;
  underruns: number;
  /** Homeowner replies heard in this turn: 2 when it answered a cut of the turn, then the whole. */
  replies: number;
  /** A reply began before the rep had finished the utterance (the turn was ended too early). */
  cutIn: boolean;
  recognised: string;
  /** Word errors in the rep's final words against what the clip says, and the clip's words. */
  errors: number;
  refWords: number;
}

/** Counts moments a 120 ms jitter buffer would run dry while a reply's audio arrives. */
function underrunsOf(chunks: { at: number; ms: number }[]): number {
  if (!chunks.length) return 0;
  let queueEnd = chunks[0].at + JITTER_MS;
  let gaps = 0;
  for (const c of chunks) {
    if (c.at > queueEnd + 5) {
      gaps++;
      queueEnd = c.at + JITTER_MS;
    }
    queueEnd += c.ms;
  }
  return gaps;
}

async function runCall(
  baseUrl: string,
  clips: Clip[],
  offset: number,
  startDelayMs: number,
  callSeconds: { total: number; audio: number },
): Promise<TurnResult[]> {
  await sleep(startDelayMs);
  const connectedAt = Date.now();
  const stage = ['General', 'Windows', 'HVAC', 'Roofing', 'Flooring'][offset % 5];
  const session = await createSession(baseUrl, stage);
  const call = await VoiceCallClient.connect(baseUrl);
  call.start({ stage, sessionId: session.id });
  await call.waitForEvent('ready');

  // The microphone: one frame every 20 ms, speech when queued, silence otherwise.
  const queue: { pcm: Int16Array<ArrayBufferLike>; onSpeechEnd?: number; mark?: (wall: number) => void }[] =
    [];
  let micOn = true;
  const silence = new Int16Array(FRAME);
  const mic = (async () => {
    const t0 = Date.now();
    let frames = 0;
    while (micOn && !call.closed) {
      let frame: Int16Array<ArrayBufferLike> = silence;
      const head = queue[0];
      if (head) {
        const pos = (head as { pos?: number }).pos ?? 0;
        frame = head.pcm.subarray(pos, pos + FRAME);
        (head as { pos?: number }).pos = pos + FRAME;
        if (head.onSpeechEnd !== undefined && pos + FRAME >= head.onSpeechEnd && head.mark) {
          head.mark(Date.now());
          head.mark = undefined;
        }
        if (pos + FRAME >= head.pcm.length) queue.shift();
      }
      const buf = Buffer.alloc(FRAME * 2);
      for (let i = 0; i < frame.length; i++) buf.writeInt16LE(frame[i], i * 2);
      call.sendRaw(buf);
      frames++;
      const wait = t0 + frames * 20 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();

  const results: TurnResult[] = [];
  try {
    // Let the homeowner finish the opening line first.
    await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
      timeoutMs: REPLY_TIMEOUT_MS,
    });
    for (let t = 0; t < TURNS; t++) {
      const clip = clips[(offset + t) % clips.length];
      const from = call.received.length;
      let speechEndWall = 0;
      queue.push({ pcm: clip.pcm, onSpeechEnd: clip.speechEnd, mark: (w) => (speechEndWall = w) });
      callSeconds.audio += clip.pcm.length / 16_000;
      const userFinal = await call
        .waitForEvent('transcript', (e) => e.role === 'user' && e.transcriptType === 'final', {
          from,
          timeoutMs: REPLY_TIMEOUT_MS,
        })
        .catch(() => null);
      if (!userFinal) continue;
      const userAt = call.received.findIndex((r, i) => i >= from && 'event' in r && r.event === userFinal);
      const firstAudio = await call.waitFor((r) => 'audio' in r, {
        from: userAt,
        timeoutMs: REPLY_TIMEOUT_MS,
      });
      await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
        from: userAt,
        timeoutMs: REPLY_TIMEOUT_MS,
      });
      const replyItems = call.received.slice(userAt);
      let rate = 22_050;
      for (const r of call.received.slice(0, userAt))
        if ('event' in r && r.event.type === 'audio-format') rate = r.event.sampleRate;
      // Each homeowner reply starts the page's jitter buffer afresh (a reply to an earlier cut of
      // the turn, then the reply to the whole turn, are two replies, not one with a gap).
      let reply = 0;
      const chunks = replyItems.flatMap((r) => {
        if ('event' in r && r.event.type === 'speech-start' && r.event.role === 'assistant') reply++;
        return 'audio' in r ? [{ at: r.at, ms: (r.audio.length / rate) * 1000, reply }] : [];
      });
      const replies = [...new Set(chunks.map((c) => c.reply))];
      const metrics = replyItems.find((r) => 'event' in r && r.event.type === 'turn-metrics');
      const m = metrics && 'event' in metrics && metrics.event.type === 'turn-metrics' ? metrics.event : null;
      results.push({
        // The reply to the whole turn: the last one (an earlier one answered a cut of it).
        latencyMs: (chunks.find((c) => c.reply === reply)?.at ?? firstAudio.at) - speechEndWall,
        cutIn: firstAudio.at < speechEndWall,
        endOfTurnWaitMs: m?.endOfTurnWaitMs ?? NaN,
        sttMs: m?.sttMs ?? NaN,
        ttsFirstAudioMs: m?.ttsFirstAudioMs ?? NaN,
        brainFirstTextMs: m?.brainFirstTextMs ?? NaN,
        serverMs: m?.speechEndToAudioMs ?? NaN,
        underruns: replies.reduce((sum, n) => sum + underrunsOf(chunks.filter((c) => c.reply === n)), 0),
        replies: replies.length,
        recognised: userFinal.transcript,
        errors: editDistance(clip.words, normaliseWords(userFinal.transcript)),
        refWords: clip.words.length,
      });
      if (process.env.BENCH_VERBOSE) {
        console.log(JSON.stringify(results[results.length - 1]), clip.name);
        // Where a gap fell: each chunk's arrival (ms after the first) and length.
        if (results[results.length - 1].underruns)
          console.log('  chunks', chunks.map((c) => `${c.at - chunks[0].at}+${Math.round(c.ms)}`).join(' '));
      }
      // A short pause before the rep speaks again.
      await new Promise((r) => setTimeout(r, 400));
    }
  } finally {
    micOn = false;
    await mic;
    call.stop();
    await call.waitForEvent('ended', () => true, { timeoutMs: 5000 }).catch(() => undefined);
    call.close();
    callSeconds.total += (Date.now() - connectedAt) / 1000;
  }
  return results;
}

async function recogniserRtf(clips: Clip[]): Promise<{ rtf: number; sample: string } | null> {
  try {
    const stt = new PocketSphinxStt();
    let audioMs = 0;
    let workMs = 0;
    let sample = '';
    for (const clip of clips) {
      const t0 = performance.now();
      const segs = await stt.transcribe(clip.pcm);
      workMs += performance.now() - t0;
      audioMs += (clip.pcm.length / 16_000) * 1000;
      if (!sample) sample = segs.map((s) => s.text).join(' ');
    }
    return { rtf: workMs / audioMs, sample };
  } catch (err) {
    console.log(`(recogniser RTF skipped: ${err instanceof Error ? err.message : String(err)})`);
    return null;
  }
}

/** CPU seconds per program, per call-second, per turn and per second of rep audio streamed. */
function cpuSplit(
  byName: Map<string, number>,
  turns: number,
  calls: { total: number; audio: number },
  wallSec: number,
): string {
  const callSec = calls.total;
  const audioSec = calls.audio;
  const parts = [...byName]
    .filter(([, cpu]) => cpu > 0)
    .sort((a, b) => b[1] - a[1])
    .map(
      ([name, cpu]) =>
        `${name} ${cpu.toFixed(1)} CPU-s (${((cpu / wallSec) * 100).toFixed(0)}% of a core, ` +
        `${(cpu / callSec).toFixed(3)} per call-second, ${((cpu / Math.max(1, turns)) * 1000).toFixed(0)} ms per turn, ` +
        `${(cpu / Math.max(1, audioSec)).toFixed(3)} per second of rep audio)`,
    );
  return `${parts.join('; ')}; ${callSec.toFixed(0)} call-seconds, ${audioSec.toFixed(0)} s of rep audio streamed, ${turns} turns answered`;
}

async function main() {
  const clips = UTTERANCES.map(loadClip);
  console.log(`Voice benchmark on ${machine()}`);
  const rtf = await recogniserRtf(clips);
  if (rtf)
    console.log(
      `Recogniser (PocketSphinx, one process per clip incl. model load): RTF ${rtf.rtf.toFixed(2)}`,
    );

  // Measure every level asked for, whatever this machine's default call cap is.
  const env = { MAX_LIVE_CALLS: String(Math.max(...LEVELS, 1)) };
  const rows: (string | number)[][] = [];
  await withBenchServer('doorstep-bench-voice-', env, async (server) => {
    for (const level of LEVELS) {
      const split = new ProcessCpuSplit(server.pid!);
      const splitTimer = setInterval(() => split.sample(), 300);
      const callSeconds = { total: 0, audio: 0 };
      const run = await measured(
        () => treeUsage(server.pid!),
        () =>
          Promise.all(
            Array.from({ length: level }, (_, i) =>
              runCall(server.url, clips, i, Math.round((i / level) * 2000), callSeconds).catch((err) => {
                console.log(`call ${i} failed: ${err instanceof Error ? err.message : String(err)}`);
                return [] as TurnResult[];
              }),
            ),
          ),
      );
      clearInterval(splitTimer);
      split.sample();
      const { wallSec, peakRss } = run;
      const turns = run.result.flat();
      const lat = turns.map((t) => t.latencyMs);
      const p = (pick: (t: TurnResult) => number, at: number) => fmt(percentile(turns.map(pick), at));
      const cpuPct = (run.cpuSec / wallSec) * 100;
      const underruns = turns.reduce((n, t) => n + t.underruns, 0);
      // How well the rep was heard at this load (the search a busy server gives new calls is lighter).
      const errors = turns.reduce((n, t) => n + t.errors, 0);
      const refWords = turns.reduce((n, t) => n + t.refWords, 0);
      const wer = ((100 * errors) / Math.max(1, refWords)).toFixed(1);
      const expected = level * TURNS;
      rows.push([
        level,
        `${turns.length}/${expected}`,
        fmt(percentile(lat, 50)),
        fmt(percentile(lat, 95)),
        p((t) => t.endOfTurnWaitMs, 50),
        p((t) => t.sttMs, 50),
        p((t) => t.sttMs, 95),
        p((t) => t.ttsFirstAudioMs, 50),
        underruns,
        wer,
        fmt(cpuPct),
        fmt(peakRss),
        loadNow(),
      ]);
      console.log(
        `\n${level} concurrent call(s): ${turns.length}/${expected} turns answered in ${wallSec.toFixed(0)} s` +
          `\n  end of rep speech -> first homeowner audio: p50 ${fmt(percentile(lat, 50))} ms, p95 ${fmt(percentile(lat, 95))} ms` +
          `\n  of which end-of-turn wait p50 ${p((t) => t.endOfTurnWaitMs, 50)} ms, recogniser after end of turn p50 ${p((t) => t.sttMs, 50)} / p95 ${p((t) => t.sttMs, 95)} ms, first synthesised audio p50 ${p((t) => t.ttsFirstAudioMs, 50)} ms` +
          `\n  server side (end of rep speech -> first chunk sent) p50 ${p((t) => t.serverMs, 50)} / p95 ${p((t) => t.serverMs, 95)} ms, homeowner first text p50 ${p((t) => t.brainFirstTextMs, 50)} / p95 ${p((t) => t.brainFirstTextMs, 95)} ms` +
          `\n  CPU by program: ${cpuSplit(split.byName(), turns.length, callSeconds, wallSec)}` +
          `\n  playback gaps (120 ms jitter buffer): ${underruns}; turns answered before the rep finished: ${turns.filter((t) => t.cutIn).length}` +
          `\n  the rep's words as the homeowner heard them: ${wer}% word errors against the clips' transcripts` +
          `\n  server CPU ${fmt(cpuPct)}% of one core (process tree), peak RSS ${fmt(peakRss)} MB, machine load ${loadNow()}` +
          (level === 1
            ? `\n  recognised e.g.: ${turns
                .map((t) => `"${t.recognised}"`)
                .slice(0, 3)
                .join(', ')}`
            : ''),
      );
    }
  });
  printTable(
    [
      'calls',
      'turns',
      'p50 ms',
      'p95 ms',
      'end-of-turn wait p50',
      'STT after EOT p50',
      'STT p95',
      'first TTS audio p50',
      'gaps',
      'WER %',
      'server CPU %',
      'peak RSS MB',
      'load',
    ],
    rows,
  );
}

// `--text`: calls with the speech in the browser (scripts/bench-voice-text.ts).
const run = process.argv.includes('--text') ? () => import('./bench-voice-text').then((m) => m.main()) : main;
run().catch((err) => {
  console.error(err);
  process.exit(1);
});
