import { describe, expect, it } from 'vitest';
import { SentenceSplitter, spokenPrefix } from '../voice/sentences';
import type { PitchContour } from './pitch';
import { DEFAULT_TURN_TAKING, endsOnFiller, TurnDetector, type TurnEvent } from './turn-taking';

const W = 32;

/** Feeds a pattern like "s:600 q:300 s:400 q:1000" (speech/quiet ms) and collects events. */
function run(
  pattern: string,
  detector = new TurnDetector(),
  assistantSpeaking = false,
  onWindow?: (ms: number) => void,
) {
  const events: TurnEvent[] = [];
  let now = 0;
  for (const part of pattern.split(' ')) {
    const [kind, ms] = part.split(':');
    for (let t = 0; t < Number(ms); t += W) {
      now += W;
      onWindow?.(now);
      events.push(...detector.push(kind === 's', W, now, assistantSpeaking));
    }
  }
  return events;
}

describe('turn-taking', () => {
  it('ends a turn after a stretch of silence', () => {
    const events = run('q:200 s:800 q:1000');
    expect(events.map((e) => e.type)).toEqual(['speech-start', 'pause', 'end-of-turn']);
    const end = events.find((e) => e.type === 'end-of-turn')!;
    expect(end.type === 'end-of-turn' && end.waitedMs).toBeGreaterThanOrEqual(400);
    expect(end.type === 'end-of-turn' && end.waitedMs).toBeLessThan(550);
  });

  it('waits out a short pause inside a turn', () => {
    const events = run('s:600 q:300 s:600 q:1000');
    expect(events.filter((e) => e.type === 'end-of-turn')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'speech-start')).toHaveLength(1);
    expect(events.map((e) => e.type)).toContain('resume');
  });

  it('waits longer when the words so far end on a filler', () => {
    const d = new TurnDetector();
    // The same 800 ms pause ends a plain turn but not one that trails off with "so um".
    const plain = run('s:600 q:800', new TurnDetector());
    expect(plain.some((e) => e.type === 'end-of-turn')).toBe(true);
    const events = run('s:600 q:800', d, false, (ms) => {
      if (ms === 320) d.setTranscriptHint('i wanted to ask you so um');
    });
    expect(events.some((e) => e.type === 'end-of-turn')).toBe(false);
    expect(run('q:600', d).some((e) => e.type === 'end-of-turn')).toBe(true);
  });

  /** Speech, then the words and pitch as the listener reads them when the rep falls silent. */
  function pauseAfter(words: string, contour: PitchContour, heardToMs = 608, opts = {}) {
    const d = new TurnDetector(opts);
    const end = run('s:608 q:2000', d, false, (ms) => {
      if (ms !== 640) return;
      d.setTranscriptHint(words, heardToMs);
      d.setPitchContour(contour, ms);
    }).find((e) => e.type === 'end-of-turn');
    return end?.type === 'end-of-turn' ? end.waitedMs : Infinity;
  }

  const plainWait = DEFAULT_TURN_TAKING.endOfTurnMs;

  it('ends a finished question sooner than the plain wait, whatever its pitch', () => {
    for (const contour of ['rising', 'falling', 'level', 'unknown'] as const) {
      expect(pauseAfter('so how old is the furnace', contour)).toBeLessThan(plainWait);
      expect(pauseAfter('can you tell me what happened', contour)).toBeLessThan(plainWait);
      expect(pauseAfter("what's the weather like", contour)).toBeLessThan(plainWait);
    }
  });

  it('ends a finished statement sooner only when its pitch falls', () => {
    expect(pauseAfter('we replace the whole unit in one day', 'falling')).toBeLessThan(plainWait);
    expect(pauseAfter('we replace the whole unit in one day', 'rising')).toBeGreaterThanOrEqual(400);
    expect(pauseAfter('we replace the whole unit in one day', 'unknown')).toBeGreaterThanOrEqual(400);
  });

  it('waits longer for finished words said with a rising pitch when told to', () => {
    const waited = pauseAfter('eight of spades four of clubs', 'rising', 608, { continuingEndOfTurnMs: 700 });
    expect(waited).toBeGreaterThanOrEqual(700);
  });

  it('keeps the long wait after a trailing conjunction, filler or hanging word, even with a fall', () => {
    expect(pauseAfter('we could come out on tuesday and', 'falling')).toBeGreaterThanOrEqual(1200);
    expect(pauseAfter('i wanted to ask you about', 'falling')).toBeGreaterThanOrEqual(1200);
    expect(pauseAfter('what would you like to', 'falling')).toBeGreaterThanOrEqual(1200);
    expect(pauseAfter('how old is the', 'falling')).toBeGreaterThanOrEqual(1200);
    expect(pauseAfter('so um', 'falling')).toBeGreaterThanOrEqual(1200);
  });

  it('takes no shortcut on words that did not hear the audio up to the pause', () => {
    // The caption came from the first half of the speech: its last words may be missing.
    expect(pauseAfter('how old is the furnace', 'falling', 300)).toBeGreaterThanOrEqual(400);
    // Nor a long wait because an older caption stopped mid-phrase; a filler still counts.
    expect(pauseAfter('eight of spades for', 'falling', 300)).toBeLessThan(500);
    expect(pauseAfter('so um', 'falling', 300)).toBeGreaterThanOrEqual(1200);
  });

  it('forgets the words and pitch of a pause once the rep speaks again', () => {
    const d = new TurnDetector();
    const end = run('s:608 q:96 s:320 q:2000', d, false, (ms) => {
      if (ms !== 640) return;
      d.setTranscriptHint('how old is the furnace', 608);
      d.setPitchContour('falling', ms);
    }).find((e) => e.type === 'end-of-turn');
    expect(end?.type === 'end-of-turn' && end.waitedMs).toBeGreaterThanOrEqual(400);
  });

  describe('the quiet end of speech', () => {
    /**
     * Windows as "kind:ms@level": the voice detector's call (s/q) and the window's RMS. Returns
     * the end of turn's stream position and how long it counted as silence.
     */
    function endOf(pattern: string, opts = {}) {
      const d = new TurnDetector(opts);
      let now = 0;
      for (const part of pattern.split(' ')) {
        const [kind, rest] = part.split(':');
        const [ms, level] = rest.split('@').map(Number);
        for (let t = 0; t < ms; t += W) {
          now += W;
          const end = d
            .push(kind === 's', W, now, false, kind === 's' ? level : undefined)
            .find((e) => e.type === 'end-of-turn');
          if (end?.type === 'end-of-turn')
            return { atMs: end.atMs, waitedMs: end.waitedMs, speechEndMs: end.speechEndMs };
        }
      }
      return null;
    }
    const on = { quietTailRatio: 0.1 };

    it('counts speech the detector still hears but that has gone quiet as the start of the pause', () => {
      // 640 ms of voice, then 160 ms the detector still calls speech at a twentieth of its level.
      const pattern = 's:640@0.2 s:160@0.01 q:1500@0';
      const off = endOf(pattern, { quietTailRatio: 0 })!;
      const refined = endOf(pattern, on)!;
      expect(refined.speechEndMs).toBe(640);
      expect(off.speechEndMs).toBe(800);
      // The same wait, counted from where the voice ended: the turn ends 160 ms sooner.
      expect(refined.waitedMs).toBe(off.waitedMs);
      expect(off.atMs - refined.atMs).toBe(160);
    });

    it('leaves speech that stays loud enough alone', () => {
      const pattern = 's:640@0.2 s:160@0.05 q:1500@0';
      expect(endOf(pattern, on)).toEqual(endOf(pattern, { quietTailRatio: 0 }));
    });

    it('counts at most maxQuietTailMs of it: a long soft stretch is soft speech', () => {
      const pattern = 's:640@0.2 s:800@0.01 q:1500@0';
      const off = endOf(pattern, { quietTailRatio: 0 })!;
      const refined = endOf(pattern, on)!;
      expect(off.atMs - refined.atMs).toBe(DEFAULT_TURN_TAKING.maxQuietTailMs);
    });

    it('judges quiet against the voice of this utterance, not an absolute level', () => {
      // A soft talker: the same ratio applies to a voice ten times quieter.
      const soft = endOf('s:640@0.02 s:160@0.001 q:1500@0', on)!;
      expect(soft.speechEndMs).toBe(640);
      // A quiet stretch inside the turn, followed by more voice, changes nothing.
      const inside = 's:640@0.2 s:160@0.01 s:320@0.2 q:1500@0';
      expect(endOf(inside, on)).toEqual(endOf(inside, { quietTailRatio: 0 }));
    });
  });

  it('ignores clicks shorter than the minimum speech', () => {
    expect(run('s:64 q:1000 s:32 q:1000')).toEqual([]);
  });

  it('reports barge-in only for sustained speech while the homeowner talks', () => {
    expect(run('s:96 q:600', new TurnDetector(), true).some((e) => e.type === 'barge-in')).toBe(false);
    const events = run('s:400', new TurnDetector(), true);
    const barge = events.find((e) => e.type === 'barge-in');
    expect(barge).toBeDefined();
    // Well inside the 300 ms budget for cutting the homeowner off.
    expect(barge!.atMs).toBeLessThanOrEqual(224);
  });

  it('bounds a turn that never pauses', () => {
    const events = run('s:21000', new TurnDetector({ maxUtteranceMs: 20_000 }));
    expect(events.some((e) => e.type === 'end-of-turn')).toBe(true);
  });

  it('recognises trailing fillers and hanging words', () => {
    expect(endsOnFiller('so um')).toBe(true);
    expect(endsOnFiller('i was thinking that')).toBe(true);
    expect(endsOnFiller('well so...')).toBe(true);
    expect(endsOnFiller('how old is the house')).toBe(false);
    // "like" closes questions ("what's the weather like"); waiting 1.2 s there slows every such turn.
    expect(endsOnFiller("what's the weather like")).toBe(false);
    expect(endsOnFiller('')).toBe(false);
  });
});

describe('sentences', () => {
  it('splits streamed text into sentences as they complete', () => {
    const s = new SentenceSplitter();
    expect(s.push('Hello the')).toEqual([]);
    expect(s.push('re. How are')).toEqual(['Hello there.']);
    expect(s.push(' you? Fine')).toEqual(['How are you?']);
    expect(s.flush()).toEqual(['Fine']);
  });

  it('keeps only the words that were played', () => {
    expect(spokenPrefix('one two three four', 0.5)).toBe('one two');
    expect(spokenPrefix('one two three four', 1)).toBe('one two three four');
    expect(spokenPrefix('one two three four', 0)).toBe('');
  });
});
