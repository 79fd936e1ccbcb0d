import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../core/transcript';
import { scriptedBrain } from '../providers/brain/scripted';
import type { SpeechToText } from '../providers/stt/types';
import { EspeakTts } from '../providers/tts/espeak';
import { DecodeQueue } from './decode-queue';
import type { ServerEvent } from './protocol';
import { VoiceSession } from './session';
import { selectVad } from './vad';

/** No one speaks in these calls, so the recogniser must never be asked. */
const unusedStt: SpeechToText = {
  id: 'unused',
  label: 'unused',
  transcribe: () => Promise.reject(new Error('no speech was sent')),
};

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
      stt: unusedStt,
      tts: new EspeakTts(),
      brain: scriptedBrain,
      vad: selectVad('/nonexistent', 'energy'),
      decodeQueue: new DecodeQueue(),
      engines: [],
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
