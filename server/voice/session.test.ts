import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../core/transcript';
import { FakeBrain } from '../providers/brain/fake';
import type { SpeechToText } from '../providers/stt/types';
import { FakeTts } from '../providers/tts/fake';
import { DecodeQueue } from './decode-queue';
import type { ServerEvent } from './protocol';
import { VoiceSession } from './session';
import { FakeLiveRecognizer } from '../providers/stt/live/fake';
import { fakeVadFactory } from '../providers/vad/fake';

/** No one speaks in these calls, so the recogniser must never be asked. */
const unusedStt: SpeechToText = {
  id: 'unused',
  label: 'unused',
  transcribe: () => Promise.reject(new Error('no speech was sent')),
};

/** Fake voice detection, voice and homeowner (these tests are about the call), and a recogniser that must not be asked. */
function offlineDeps() {
  return {
    stt: unusedStt,
    tts: new FakeTts(),
    brain: new FakeBrain(),
    vad: fakeVadFactory(),
    decodeQueue: new DecodeQueue(),
    engines: [],
  };
}

function call(maxCallMs: number) {
  const events: ServerEvent[] = [];
  const saved: { id: string; transcript: TranscriptEntry[]; durationSec: number }[] = [];
  let closed: string | null = null;
  const session = new VoiceSession(
    {
      sendJson: (e) => events.push(e),
      sendAudio: () => undefined,
      close: (_code, reason) => {
        closed = reason;
      },
    },
    {
      ...offlineDeps(),
      maxCallMs,
      seed: 4,
      saveTranscript: async (id, transcript, durationSec) => {
        saved.push({ id, transcript, durationSec });
      },
    },
  );
  return { session, events, saved, closed: () => closed };
}

const SESSION = '11111111-1111-4111-8111-111111111111';

describe('voice session limits', () => {
  it('ends the call at the cap on its own, keeping what was said', async () => {
    const c = call(500);
    await c.session.handleText(
      JSON.stringify({ type: 'start', stage: 'HVAC', sampleRate: 16_000, sessionId: SESSION }),
    );
    const deadline = Date.now() + 10_000;
    while (!c.session.isEnded && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(c.events.at(-1)).toEqual({ type: 'ended', reason: 'max-duration' });
    expect(c.closed()).toBe('max-duration');
    expect(c.saved).toHaveLength(1);
    expect(c.saved[0].id).toBe(SESSION);
    // The opening line was cut by the cap: only its played words are kept.
    expect(c.saved[0].transcript.every((e) => e.role === 'assistant')).toBe(true);
  });

  it('saves on a dropped socket and ignores anything after', async () => {
    const c = call(60_000);
    await c.session.handleText(
      JSON.stringify({ type: 'start', stage: 'General', sampleRate: 16_000, sessionId: SESSION }),
    );
    // Part of the opening line has played when the connection goes.
    await new Promise((r) => setTimeout(r, 1500));
    await c.session.handleClose();
    expect(c.session.isEnded).toBe(true);
    expect(c.saved).toHaveLength(1);
    const said = c.saved[0].transcript[0];
    expect(said.role).toBe('assistant');
    expect(said.transcript.length).toBeGreaterThan(0);
    c.session.handleBinary(Buffer.alloc(640));
    await c.session.handleText('{"type":"stop"}');
    expect(c.events.some((e) => e.type === 'error')).toBe(false);
  });
});

/** A loud tone the voice detector takes for speech. */
function tone(ms: number): Buffer {
  const n = Math.round((ms / 1000) * 16_000);
  const buf = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++)
    buf.writeInt16LE(Math.round(Math.sin(i / 3) * 12_000 * (1 + (i % 7) / 10)), i * 2);
  return buf;
}

describe('voice session with a warm recogniser', () => {
  it('opens an utterance at speech start, captions from it, and ends it at the end of the turn', async () => {
    const events: ServerEvent[] = [];
    const live = new FakeLiveRecognizer();
    const latencies: number[] = [];
    const session = new VoiceSession(
      { sendJson: (e) => events.push(e), sendAudio: () => undefined, close: () => undefined },
      {
        ...offlineDeps(),
        createStream: () => live,
        onTurnLatency: (ms) => latencies.push(ms),
        seed: 2,
      },
    );
    await session.handleText(JSON.stringify({ type: 'start', stage: 'HVAC', sampleRate: 16_000 }));
    // Wait for the opening line to finish so the rep's speech is a turn, not a barge-in.
    const waitFor = async (pred: () => boolean, ms = 15_000) => {
      const deadline = Date.now() + ms;
      while (!pred() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(pred()).toBe(true);
    };
    await waitFor(() =>
      events.some((e) => e.type === 'transcript' && e.role === 'assistant' && e.transcriptType === 'final'),
    );
    // 300 ms of quiet, 1.2 s of "speech", 1 s of quiet, in 20 ms frames at real-time pace.
    const frames = [Buffer.alloc(9600), tone(1200), Buffer.alloc(32_000)];
    for (const audio of frames) {
      for (let i = 0; i < audio.length; i += 640) {
        session.handleBinary(audio.subarray(i, i + 640));
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    await waitFor(() =>
      events.some((e) => e.type === 'transcript' && e.role === 'user' && e.transcriptType === 'final'),
    );
    expect(live.calls[0]).toBe('begin');
    expect(live.calls.filter((c) => c === 'begin')).toHaveLength(1);
    expect(live.calls.filter((c) => c === 'end')).toHaveLength(1);
    expect(live.calls).toContain('partial');
    // The pre-roll and the utterance went in, the silence before it did not.
    expect(live.written).toBeGreaterThan(1.2 * 16_000);
    expect(live.written).toBeLessThan(2.7 * 16_000);
    const user = events.filter((e) => e.type === 'transcript' && e.role === 'user');
    expect(user).toContainEqual({
      type: 'transcript',
      role: 'user',
      transcriptType: 'partial',
      transcript: 'how old is',
    });
    expect(user.at(-1)).toEqual({
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: 'how old is your furnace',
    });
    // The homeowner answers, and the turn's latency is reported once.
    await waitFor(() => latencies.length === 1);
    await session.handleText('{"type":"stop"}');
    expect(live.alive).toBe(false);
  });
});

describe('voice session start timeout', () => {
  it('ends a socket that never starts with start-timeout', async () => {
    const events: ServerEvent[] = [];
    let closed = '';
    const session = new VoiceSession(
      {
        sendJson: (e) => events.push(e),
        sendAudio: () => undefined,
        close: (_c, reason) => {
          closed = reason;
        },
      },
      { ...offlineDeps(), startTimeoutMs: 30 },
    );
    const deadline = Date.now() + 5000;
    while (!session.isEnded && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(events[0]).toMatchObject({ type: 'error', code: 'start-timeout' });
    expect(closed).toBe('error');
  });

  it('a started call is not timed out', async () => {
    const events: ServerEvent[] = [];
    const session = new VoiceSession(
      { sendJson: (e) => events.push(e), sendAudio: () => undefined, close: () => undefined },
      { ...offlineDeps(), startTimeoutMs: 30 },
    );
    await session.handleText(
      JSON.stringify({ type: 'start', stage: 'General', input: 'text', output: 'text' }),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(session.isEnded).toBe(false);
    expect(events.some((e) => e.type === 'error')).toBe(false);
    await session.handleClose();
  });
});
