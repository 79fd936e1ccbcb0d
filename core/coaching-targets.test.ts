import { describe, expect, it } from 'vitest';
import { describeMetrics, type ConversationMetrics } from './conversation-metrics';
import { balanceMessages, speakingBalance } from './speaking-balance';
import { questionsOnTarget, talkShareOnTarget, TARGETS } from './coaching-targets';

const metrics = (over: Partial<ConversationMetrics>): ConversationMetrics => ({
  version: 1,
  durationSec: 300,
  repWords: 400,
  homeownerWords: 600,
  repTurns: 20,
  homeownerTurns: 20,
  talkRatioWordsPercent: 40,
  talkRatioTimePercent: 40,
  longestMonologueWords: 60,
  longestMonologueSec: 25,
  questions: { total: 8, open: 4, closed: 4 },
  questionsPerMinute: 1.6,
  interactivityPerMinute: 8,
  patienceSec: 1,
  fillerWords: 2,
  fillersPerMinute: 0.4,
  paceWpm: 150,
  pressurePhrases: [],
  ...over,
});
const row = (m: ConversationMetrics, key: string) => describeMetrics(m).find((r) => r.key === key)!;

describe('one set of targets', () => {
  it('gives the transcript tip and the metric help the same listening target', () => {
    const tip = balanceMessages(speakingBalance([]), 'Linda').text;
    expect(tip).toContain(`${TARGETS.homeownerSharePercentMin}%+`);
    expect(row(metrics({}), 'talkRatio').help).toContain(`${TARGETS.homeownerSharePercentMin}% or more`);
    expect(row(metrics({}), 'talkRatio').help).toContain(`${TARGETS.repSharePercentMax}% or less`);
  });

  it('calls a talk share healthy exactly when the tip would praise the listening', () => {
    for (const rep of [30, 40, 41, 45, 60]) {
      const entries = [
        { role: 'user' as const, transcript: 'word '.repeat(rep), timestamp: 1 },
        { role: 'assistant' as const, transcript: 'word '.repeat(100 - rep), timestamp: 2 },
      ];
      const tipHappy = speakingBalance(entries).goodListening;
      expect(row(metrics({ talkRatioWordsPercent: rep }), 'talkRatio').healthy).toBe(tipHappy);
      expect(talkShareOnTarget(rep)).toBe(tipHappy);
    }
  });

  it('never calls fewer questions than the help asks for healthy', () => {
    const six = metrics({ questions: { total: 6, open: 4, closed: 2 } });
    expect(row(six, 'questions').help).toContain(`${TARGETS.questionsMin} or more`);
    expect(row(six, 'questions').healthy).toBe(false);
    expect(row(metrics({}), 'questions').healthy).toBe(true);
    expect(questionsOnTarget(10, 2)).toBe(false);
  });
});
