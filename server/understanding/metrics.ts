import { MAX_PLAUSIBLE_WPM, type ConversationMetrics } from '../../core/conversation-metrics';
import { countWords, isFinal, type TranscriptEntry } from '../../core/transcript';
import { countFillers, findPressurePhrases } from './readers/delivery';
import { findQuestions } from './readers/questions';

const round1 = (n: number) => Math.round(n * 10) / 10;

interface Turn {
  role: 'user' | 'assistant';
  text: string;
  words: number;
  endMs: number;
  windowMs: number;
}

/** Builds speaker turns with their time windows; call start is inferred from durationSec when known. */
function buildTurns(entries: TranscriptEntry[], durationSec?: number): { turns: Turn[]; timed: boolean } {
  const finals = entries.filter((e) => isFinal(e) && countWords(e.transcript) > 0);
  if (!finals.length) return { turns: [], timed: false };
  const ends = finals.map((e) => e.timestamp);
  const increasing = ends.every((t, i) => i === 0 || t >= ends[i - 1]);
  const span = ends[ends.length - 1] - ends[0];
  const timed = increasing && span > 0;
  // The first utterance's window: from the call start when the duration says where that is,
  // else its own words at a conversational 150 words per minute.
  const firstWords = countWords(finals[0].transcript);
  let firstWindow = (firstWords / 150) * 60_000;
  if (timed && durationSec && durationSec * 1000 > span) {
    firstWindow = Math.min(durationSec * 1000 - span, Math.max(firstWindow, 1000) * 3);
  }
  const turns = finals.map((e, i) => ({
    role: e.role,
    text: e.transcript,
    words: countWords(e.transcript),
    endMs: e.timestamp,
    windowMs: !timed ? 0 : i === 0 ? firstWindow : Math.max(0, e.timestamp - finals[i - 1].timestamp),
  }));
  return { turns, timed };
}

/** Computes every metric; pure and deterministic. */
export function conversationMetrics(
  entries: TranscriptEntry[],
  opts: { durationSec?: number } = {},
): ConversationMetrics {
  const { turns, timed } = buildTurns(entries, opts.durationSec);
  const rep = turns.filter((t) => t.role === 'user');
  const owner = turns.filter((t) => t.role === 'assistant');
  const repWords = rep.reduce((n, t) => n + t.words, 0);
  const homeownerWords = owner.reduce((n, t) => n + t.words, 0);
  const totalWords = repWords + homeownerWords;

  const totalWindowMs = turns.reduce((n, t) => n + t.windowMs, 0);
  const repWindowMs = rep.reduce((n, t) => n + t.windowMs, 0);
  const spokenSec = timed ? totalWindowMs / 1000 : null;
  const durationSec =
    opts.durationSec && opts.durationSec > 0
      ? opts.durationSec
      : spokenSec !== null
        ? Math.round(spokenSec)
        : null;
  const minutes = durationSec ? durationSec / 60 : null;

  // Longest monologue: consecutive rep entries are one monologue split by the recogniser.
  let longestWords = 0;
  let longestMs = 0;
  let runWords = 0;
  let runMs = 0;
  for (const t of turns) {
    if (t.role === 'user') {
      runWords += t.words;
      runMs += t.windowMs;
      if (runWords > longestWords) {
        longestWords = runWords;
        longestMs = runMs;
      }
    } else {
      runWords = 0;
      runMs = 0;
    }
  }

  const questions = { total: 0, open: 0, closed: 0 };
  let fillerWords = 0;
  const pressurePhrases: string[] = [];
  for (const t of rep) {
    for (const q of findQuestions(t.text)) {
      questions.total++;
      questions[q.kind]++;
    }
    fillerWords += countFillers(t.text);
    pressurePhrases.push(...findPressurePhrases(t.text));
  }

  let switches = 0;
  for (let i = 1; i < turns.length; i++) if (turns[i].role !== turns[i - 1].role) switches++;

  return {
    version: 1,
    durationSec,
    repWords,
    homeownerWords,
    repTurns: rep.length,
    homeownerTurns: owner.length,
    talkRatioWordsPercent: totalWords ? Math.round((repWords / totalWords) * 100) : 0,
    talkRatioTimePercent: timed && totalWindowMs > 0 ? Math.round((repWindowMs / totalWindowMs) * 100) : null,
    longestMonologueWords: longestWords,
    longestMonologueSec: timed ? round1(longestMs / 1000) : null,
    questions,
    questionsPerMinute: minutes ? round1(questions.total / minutes) : null,
    interactivityPerMinute: minutes ? round1(switches / minutes) : null,
    patienceSec: timed ? estimatePatience(turns) : null,
    fillerWords,
    fillersPerMinute: minutes ? round1(fillerWords / minutes) : null,
    paceWpm: plausiblePace(timed && repWindowMs > 0 ? Math.round(repWords / (repWindowMs / 60_000)) : null),
    pressurePhrases,
  };
}

/** A pace no one speaks at means the times do not measure speech (typed turns): no pace. */
function plausiblePace(wpm: number | null): number | null {
  return wpm !== null && wpm > MAX_PLAUSIBLE_WPM ? null : wpm;
}

/**
 * The pause before the rep answers. A turn's window is its pause plus its speech; the rep's
 * speaking rate is taken from their fastest long turn (the one with the least pause in it),
 * so each answer's pause is its window minus its words at that rate.
 */
function estimatePatience(turns: Turn[]): number | null {
  const rep = turns.filter((t) => t.role === 'user' && t.windowMs > 0);
  const long = rep.filter((t) => t.words >= 8);
  const rates = (long.length ? long : rep).map((t) => t.words / t.windowMs);
  if (!rates.length) return null;
  // Cap at a brisk 220 wpm so one mistimed entry cannot imply an impossible rate.
  const rate = Math.min(Math.max(...rates), 220 / 60_000);
  const pauses: number[] = [];
  for (let i = 1; i < turns.length; i++) {
    const t = turns[i];
    if (t.role !== 'user' || turns[i - 1].role !== 'assistant' || t.windowMs <= 0) continue;
    pauses.push(Math.max(0, t.windowMs - t.words / rate));
  }
  if (!pauses.length) return null;
  return round1(pauses.reduce((a, b) => a + b, 0) / pauses.length / 1000);
}
