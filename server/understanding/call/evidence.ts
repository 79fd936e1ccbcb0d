import { splitSentences } from '../text/normalise';
import type { Speaker } from '../types';
import type { CallTurn, Evidence } from './types';

/** Evidence for a span of a turn's text. */
export function spanOf(turn: CallTurn, start: number, end: number): Evidence {
  return { turn: turn.index, speaker: turn.speaker, start, end, text: turn.text.slice(start, end) };
}

/** The sentences of a turn with their offsets (recogniser text without punctuation is one). */
export function sentencesOf(text: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  let from = 0;
  for (const s of splitSentences(text)) {
    const at = text.indexOf(s, from);
    if (at < 0) continue;
    out.push({ start: at, end: at + s.length, text: s });
    from = at + s.length;
  }
  return out.length ? out : [{ start: 0, end: text.length, text }];
}

/** Evidence for the sentence of a turn that holds an offset (the whole turn when unpunctuated). */
export function sentenceAt(turn: CallTurn, offset: number): Evidence {
  const s = sentencesOf(turn.text).find((x) => offset >= x.start && offset < x.end) ?? {
    start: 0,
    end: turn.text.length,
  };
  return spanOf(turn, s.start, s.end);
}

/** Evidence for the first sentence of a turn that passes a test, else the whole turn. */
export function sentenceWhere(turn: CallTurn, test: (sentence: string) => boolean): Evidence {
  const s = sentencesOf(turn.text).find((x) => test(x.text));
  return s ? spanOf(turn, s.start, s.end) : spanOf(turn, 0, turn.text.length);
}

/** The next turns of the other speaker, up to `limit` of them, stopping at a new line of the first. */
export function repliesTo(turns: CallTurn[], i: number, limit = 1): CallTurn[] {
  const by: Speaker = turns[i].speaker;
  const out: CallTurn[] = [];
  for (let j = i + 1; j < turns.length && out.length < limit; j++) {
    if (turns[j].speaker !== by) out.push(turns[j]);
    else if (out.length) break;
  }
  return out;
}
