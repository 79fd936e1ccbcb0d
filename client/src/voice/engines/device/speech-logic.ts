/**
 * The device engine's timing and echo rules, free of browser APIs so they are unit-tested
 * (speech-logic.test.ts): when a recognised turn is finished, whether recognised words are the
 * homeowner's own voice coming back through the microphone, when the rep is barging in, and
 * how a growing reply is cut into sentences to speak.
 */

/** Silence after the recogniser's last final words before the turn is sent. */
export const END_OF_TURN_MS = 350;
/** ... or this long when the words end on a filler or a hanging word, so reps can pause mid-thought. */
export const HANGING_END_OF_TURN_MS = 1200;

const HANGING =
  /\b(um+|uh+|er+|erm|hmm+|so|and|but|or|because|cause|like|if|when|that|which|the|a|an|to|of|with|for|my|our|your|is|are|was|were|i'm|we're|you're|i|we)$/i;

/** How long to wait after the last final words before sending the turn. */
export function endOfTurnDelay(text: string): number {
  const t = text.trim().replace(/[\s.…]+$/, '');
  if (/[,;:-]$/.test(t)) return HANGING_END_OF_TURN_MS;
  return HANGING.test(t) ? HANGING_END_OF_TURN_MS : END_OF_TURN_MS;
}

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9'\s]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * Recognised words minus those that are the homeowner's own speech picked up by the microphone:
 * the leading run of words that occur in what the homeowner has been saying. Returns '' when
 * everything heard was echo.
 */
export function withoutEcho(heard: string, homeownerSaid: string): string {
  const said = new Set(words(homeownerSaid));
  if (said.size === 0) return heard.trim();
  const tokens = heard.trim().split(/\s+/).filter(Boolean);
  let i = 0;
  while (i < tokens.length && words(tokens[i]).every((w) => said.has(w))) i++;
  return tokens.slice(i).join(' ');
}

/** Complete sentences in a growing reply, and where the unfinished rest starts. */
export function completeSentences(text: string): { sentences: string[]; consumed: number } {
  const sentences: string[] = [];
  const re = /[^.!?…]*[.!?…]+["')\]]*(\s+|$)/g;
  let consumed = 0;
  for (let m = re.exec(text); m && m[0].length > 0; m = re.exec(text)) {
    // A sentence end needs the following whitespace, unless it closes the text.
    if (!/\s$/.test(m[0]) && re.lastIndex < text.length) break;
    const s = m[0].trim();
    if (s) sentences.push(s);
    consumed = re.lastIndex;
  }
  return { sentences, consumed };
}

/** Sustained rep speech needed to cut the homeowner off (coughs and clicks are ignored). */
export const BARGE_IN_MS = 160;
/** A level counts as the rep's voice only this far above the echo heard while the homeowner speaks. */
export const ECHO_MARGIN = 2.5;
/** The quietest level that counts as speech (RMS of a -1..1 signal). */
export const MIN_SPEECH_LEVEL = 0.02;
/** At the start of each homeowner sentence the echo level is learnt before it can barge in. */
export const ECHO_LEARN_MS = 200;

/**
 * Barge-in from the microphone level while the homeowner speaks. The microphone also hears the
 * homeowner's voice when the rep uses speakers and the browser cannot cancel it (system voices
 * are not part of the echo canceller's reference), so the detector learns that echo level and
 * needs the rep's voice clearly above it for 160 ms.
 */
export class BargeInDetector {
  private echo = 0;
  private speakingSince: number | null = null;
  private loudSince: number | null = null;

  /** The homeowner started or stopped speaking. */
  setHomeownerSpeaking(speaking: boolean, now: number): void {
    if (speaking && this.speakingSince === null) {
      this.speakingSince = now;
      this.loudSince = null;
    } else if (!speaking) {
      this.speakingSince = null;
      this.loudSince = null;
    }
  }

  /** A microphone level sample; true when the rep is barging in. */
  sample(level: number, now: number): boolean {
    if (this.speakingSince === null) {
      // Between replies the estimate decays towards the room's own level.
      this.echo = this.echo * 0.9 + level * 0.1;
      return false;
    }
    if (now - this.speakingSince < ECHO_LEARN_MS) {
      this.echo = Math.max(this.echo, level);
      return false;
    }
    const threshold = Math.max(MIN_SPEECH_LEVEL, this.echo * ECHO_MARGIN);
    if (level > threshold) {
      this.loudSince ??= now;
      if (now - this.loudSince >= BARGE_IN_MS) {
        this.loudSince = null;
        return true;
      }
    } else {
      this.loudSince = null;
      // The echo's peaks, held and slowly released: syllables are louder than the average.
      this.echo = Math.max(level, this.echo * 0.97);
    }
    return false;
  }
}
