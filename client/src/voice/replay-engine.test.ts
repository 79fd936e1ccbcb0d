import { describe, expect, it } from 'vitest';
import { speakingBalance } from '@core/speaking-balance';
import { applyTranscriptEntry, type TranscriptEntry } from '@core/transcript';
import { ReplayVoiceClient } from './replay-engine';
import { demoScript, FAST_TIMING, partialPrefixes, TEST_SCRIPTS, type ReplayScript } from './replay-script';
import type { TranscriptMessage } from './types';

const instant = { ...FAST_TIMING, connectMs: 1, wordMs: 0, turnGapMs: 0, volumeIntervalMs: 1 };

/** Plays a script to the end and records every event in order. */
async function play(script: ReplayScript, stopAfterMs?: number) {
  const client = new ReplayVoiceClient({ script, timing: instant });
  const events: string[] = [];
  let entries: TranscriptEntry[] = [];
  const transcripts: TranscriptMessage[] = [];
  const ended = new Promise<void>((resolve) => client.on('call-end', () => resolve()));
  client.on('call-start', () => events.push('call-start'));
  client.on('call-end', () => events.push('call-end'));
  client.on('speech-start', () => events.push('speech-start'));
  client.on('speech-end', () => events.push('speech-end'));
  client.on('error', () => events.push('error'));
  client.on('message', (m) => {
    if (m.type === 'transcript') {
      const t = m as TranscriptMessage;
      transcripts.push(t);
      events.push(`${t.role}:${t.transcriptType}`);
      entries = applyTranscriptEntry(entries, { ...t, timestamp: transcripts.length });
    } else events.push(m.type);
  });
  let startError: unknown;
  await client.start({ stage: 'General', sessionId: 's1' }).catch((err) => (startError = err));
  if (stopAfterMs !== undefined) setTimeout(() => client.stop(), stopAfterMs);
  if (!startError) await ended;
  return { events, entries, transcripts, startError, client };
}

describe('partialPrefixes', () => {
  it('grows by a few words and leaves the whole line to the final', () => {
    expect(partialPrefixes('one two three four five six seven', 3)).toEqual([
      'one two three',
      'one two three four five six',
    ]);
    expect(partialPrefixes('short line', 3)).toEqual([]);
  });
});

describe('ReplayVoiceClient', () => {
  it('plays partials then a final for each line, wraps assistant lines in speech events, and hangs up', async () => {
    const { events, entries } = await play(demoScript('Windows'));
    expect(events[0]).toBe('call-start');
    expect(events.slice(-2)).toEqual(['call-end', 'status-update']);
    const first = events.indexOf('assistant:final');
    const opening = demoScript('Windows').steps[0] as { text: string };
    const partials = partialPrefixes(opening.text, instant.wordsPerPartial).length;
    expect(partials).toBeGreaterThan(1);
    expect(events.slice(1, first + 1)).toEqual([
      'speech-start',
      ...Array.from({ length: partials }, () => 'assistant:partial'),
      'assistant:final',
    ]);
    expect(events[first + 1]).toBe('speech-end');
    expect(entries.every((e) => e.transcriptType === 'final')).toBe(true);
    expect(entries).toHaveLength(demoScript('Windows').steps.length);
    expect(entries[0].transcript).toContain('Linda');
  });

  it('produces the 40/60 word split the balance test relies on', async () => {
    const client = new ReplayVoiceClient({ script: TEST_SCRIPTS['balance-60-40'], timing: instant });
    let entries: TranscriptEntry[] = [];
    let finals = 0;
    const allFinal = new Promise<void>((resolve) =>
      client.on('message', (m) => {
        if (m.type !== 'transcript') return;
        const t = m as TranscriptMessage;
        entries = applyTranscriptEntry(entries, { ...t, timestamp: 0 });
        if (t.transcriptType === 'final' && ++finals === 4) resolve();
      }),
    );
    await client.start({ stage: 'General', sessionId: 's' });
    await allFinal;
    client.stop();
    expect(speakingBalance(entries)).toMatchObject({
      userWords: 20,
      personaWords: 30,
      userPercent: 40,
      personaPercent: 60,
    });
  });

  it('holds the call open until stopped, then ends once', async () => {
    const { events } = await play(TEST_SCRIPTS.silent, 20);
    expect(events).toEqual(['call-start', 'call-end', 'status-update']);
  });

  it('refuses a second start while started', async () => {
    const client = new ReplayVoiceClient({ script: TEST_SCRIPTS.silent, timing: instant });
    const errors: unknown[] = [];
    client.on('error', (e) => errors.push(e));
    await client.start({ stage: 'HVAC', sessionId: 's' });
    await expect(client.start({ stage: 'HVAC', sessionId: 's' })).rejects.toThrow();
    expect(errors).toEqual([{ type: 'validation-error', stage: 'initialization', error: 'already-started' }]);
    client.stop();
  });

  it('fails to start with an empty message for the start-failure script', async () => {
    const { startError, events } = await play(TEST_SCRIPTS['start-failure']);
    expect(startError).toBeInstanceOf(Error);
    expect((startError as Error).message).toBe('');
    expect(events).not.toContain('call-start');
  });

  it('reports a dropped connection as an error without a message, then ends', async () => {
    const { events } = await play(TEST_SCRIPTS['connection-drop']);
    expect(events.slice(-2)).toEqual(['error', 'call-end']);
  });
});
