import { TARGETS } from './coaching-targets';
import { countWords, isFinal, type TranscriptEntry } from './transcript';

export interface SpeakingBalance {
  userWords: number;
  personaWords: number;
  userPercent: number;
  personaPercent: number;
  goodListening: boolean;
}

/** Words per role over final entries; rounded shares; 50/50 when nobody has spoken (spec §2, §9). */
export function speakingBalance(entries: TranscriptEntry[]): SpeakingBalance {
  let userWords = 0;
  let personaWords = 0;
  for (const e of entries) {
    if (!isFinal(e)) continue;
    const n = countWords(e.transcript);
    if (e.role === 'user') userWords += n;
    else personaWords += n;
  }
  const total = userWords + personaWords;
  if (total === 0) {
    return { userWords, personaWords, userPercent: 50, personaPercent: 50, goodListening: false };
  }
  const userPercent = Math.round((userWords / total) * 100);
  const personaPercent = 100 - userPercent;
  return {
    userWords,
    personaWords,
    userPercent,
    personaPercent,
    goodListening: personaPercent >= TARGETS.homeownerSharePercentMin,
  };
}

export function balanceMessages(
  balance: SpeakingBalance,
  persona: string,
): { title: string | null; text: string } {
  if (balance.goodListening) {
    return {
      title: 'Great listening ratio!',
      text: `Perfect! ${persona} is doing most of the talking. Keep asking questions.`,
    };
  }
  return {
    title: null,
    text: `Try to listen more - aim for ${persona} to speak ${TARGETS.homeownerSharePercentMin}%+ of the time.`,
  };
}
