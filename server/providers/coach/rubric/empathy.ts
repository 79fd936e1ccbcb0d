import { findQuestions } from '../../../understanding/readers/questions';
import { normalizeText } from '../../../understanding/text/normalise';
import { saysWord } from '../../../understanding/text/marks';
import {
  asksAfterBut,
  CLAIMS_THEN_OVERRIDES,
  CUT_OFF_MID_SENTENCE,
  FEELING_OF_THEM,
  isNumberWord,
  NOT_HEARD,
  REFLECTS_BACK,
  SHARES_CONCERN,
  SHARES_GOOD_NEWS,
} from '../../../understanding/readers/rapport';
import {
  ABUSE,
  ACCOMMODATE,
  CARE,
  COURTESY,
  DISMAY,
  UNDERSTAND_CLAIM,
  DISCLOSURE,
  DISMISS,
  FEAR_PRESSURE,
  NAME_FEELING,
  RAPPORT,
  VALIDATE,
  DEADLINE,
} from '../../../understanding/readers/speech-acts';
import { analyse, overlap } from '../../../nlp';
import { TRADE_STAPLES } from '../../../understanding/readers/needs';
import { type Turn, type Finding, has, clamp, prevOwner, quoteFrom } from './turns';

// ---------------------------------------------------------------- empathy

/** What a homeowner's turn is about: its content words, less trade staples and numbers. */
const aboutWords = (t: Turn) =>
  new Set([...t.lemmas].filter((w) => !TRADE_STAPLES.has(w) && !isNumberWord(w)));

/**
 * Rep turns whose sympathetic words meet nothing the homeowner said: the reply to something they
 * shared (a loss, a worry) that the rep never takes up, in that reply or later, or a claim to
 * understand that is overridden in the same breath ("I understand, but..."). Words without
 * listening are not empathy.
 */
function emptySympathy(turns: Turn[]): Set<number> {
  const empty = new Set<number>();
  turns.forEach((t, i) => {
    if (t.role === 'user') {
      if (has(CLAIMS_THEN_OVERRIDES, t.norm) && !asksAfterBut(t.norm)) empty.add(i);
      return;
    }
    if (!has(DISCLOSURE, t.norm) && !has(SHARES_CONCERN, t.norm)) return;
    const about = aboutWords(t);
    if (!about.size) return;
    const reply = turns.slice(i + 1, i + 3).filter((x) => x.role === 'user');
    // Only a claim to understand ("I hear you", "I know exactly how you feel") can be empty: a
    // brief "fair enough" or "that's rough" makes no claim, and a feeling named of them
    // ("sounds like you're slammed") is about them.
    const claims = reply.filter((r) => has(UNDERSTAND_CLAIM, r.norm));
    if (!claims.length || reply.some((r) => has(CARE, r.norm) || has(FEELING_OF_THEM, r.norm))) return;
    const takenUp = turns.slice(i + 1).some((r) => r.role === 'user' && overlap(about, r.lemmas).length > 0);
    if (!takenUp) claims.forEach((r) => empty.add(r.index));
  });
  return empty;
}

/** The rep's unbroken run of entries just before turn i (a recogniser splits long turns). */
const repRunBefore = (turns: Turn[], i: number) => {
  let k = i - 1;
  while (k > 0 && turns[k - 1].role === 'user') k--;
  return turns
    .slice(k, i)
    .map((x) => x.text)
    .join(' ');
};

interface EmpathyCounts {
  feeling: number;
  validate: number;
  accommodate: number;
  rapport: number;
  reflect: number;
  courtesy: number;
}

/** Empathy read as acts: naming a feeling, validating a worry, fitting their situation, reflecting their words, warmth. */
export function detectEmpathy(
  turns: Turn[],
  repShare: number,
  personaName?: string,
): Finding & { abusive: boolean } {
  const f: Finding & { abusive: boolean } = {
    score: 0,
    positives: [],
    gaps: [],
    evidence: [],
    missteps: [],
    abusive: false,
  };
  const c: EmpathyCounts = { feeling: 0, validate: 0, accommodate: 0, rapport: 0, reflect: 0, courtesy: 0 };
  let ignored = 0;
  let notHeard = 0;
  let interruptions = 0;
  let pressure = 0;
  let dismiss = 0;
  let abuse = 0;
  let usedName = false;
  const name = personaName ? normalizeText(personaName) : '';
  const add = (t: Turn, re: RegExp | undefined, strength: number, label: string) =>
    f.evidence.push({ quote: quoteFrom(t, re), turn: t.index, strength, label });
  const empty = emptySympathy(turns);

  turns.forEach((t, i) => {
    if (t.role === 'assistant') {
      // "I just said..." after the rep asked something back is being made to repeat; after a pitch
      // that overshot ("sixteen-eight? I just said I don't want that") it is push-back on the offer.
      if (
        has(NOT_HEARD, t.norm) &&
        i > 0 &&
        turns[i - 1].role === 'user' &&
        findQuestions(repRunBefore(turns, i)).length > 0
      ) {
        notHeard++;
        f.missteps.push({
          quote: quoteFrom(t, NOT_HEARD),
          turn: i,
          strength: 0.6,
          label: 'made the homeowner repeat what she had already said',
        });
      }
      if (CUT_OFF_MID_SENTENCE.test(t.text) && turns[i + 1]?.role === 'user') {
        interruptions++;
        f.missteps.push({
          quote: quoteFrom(turns[i + 1]),
          turn: i + 1,
          strength: 0.6,
          label: 'talked over the homeowner',
        });
      }
      if (has(DISCLOSURE, t.norm) || has(SHARES_CONCERN, t.norm)) {
        // The rep's answer (a recogniser may split it in two) should meet what was just said.
        const reply = turns.slice(i + 1, i + 3).filter((x) => x.role === 'user');
        const met = reply.some(
          (r) =>
            has(NAME_FEELING, r.norm) ||
            has(VALIDATE, r.norm) ||
            has(ACCOMMODATE, r.norm) ||
            has(COURTESY, r.norm) ||
            (has(REFLECTS_BACK, r.norm) && overlap(t.lemmas, r.lemmas).length >= 1) ||
            overlap(t.lemmas, r.lemmas).filter((w) => !TRADE_STAPLES.has(w)).length >= 2,
        );
        if (reply.length && !met && !reply.some((r) => empty.has(r.index))) {
          ignored++;
          f.missteps.push({
            quote: quoteFrom(reply[0]),
            turn: reply[0].index,
            strength: 0.5,
            label: 'moved past what the homeowner shared',
            said: quoteFrom(t, has(DISCLOSURE, t.norm) ? DISCLOSURE : SHARES_CONCERN),
          });
        }
      }
      return;
    }
    if (has(ABUSE, t.norm)) {
      abuse++;
      f.missteps.push({ quote: quoteFrom(t, ABUSE), turn: i, strength: 1, label: 'insulted the homeowner' });
      return; // nothing in an insulting line is credited
    }
    const prev = prevOwner(turns, i);
    // Hollow sympathy earns nothing (two or more such turns cost points and cap the section
    // below), but its pressure or dismissal still counts.
    const hollow = empty.has(i);
    if (hollow)
      f.missteps.push({
        quote: quoteFrom(t, UNDERSTAND_CLAIM),
        turn: i,
        strength: 0.55,
        label: 'said sympathetic words but passed over what the homeowner said',
      });
    if (!hollow) {
      // Asking after them ("is he okay?") and naming the feeling are two acts; "ugh" over their own
      // words ("ugh, right on the car") names it as "that's annoying" would, so once.
      if (has(CARE, t.norm)) {
        c.feeling++;
        add(t, CARE, 0.8, 'showed concern for the homeowner');
      }
      // Joy met in reply to their own news ("she scored!" "good for her, congratulations").
      // A stock "congrats on the house!" before business is politeness; joy counts as met when the
      // rep drew the news out (asked about it just before) or asks about it in the same reply.
      const drewOut = (r?: Turn) => !!r && r.role === 'user' && findQuestions(r.text).length > 0;
      const celebrated =
        !!prev &&
        has(SHARES_GOOD_NEWS, t.norm) &&
        (drewOut(turns[prev.index - 1]) ||
          findQuestions(t.text).some((q) => overlap(aboutWords(prev), analyse(q.text).lemmas).length > 0));
      if (celebrated && !has(NAME_FEELING, t.norm)) {
        c.feeling++;
        add(t, SHARES_GOOD_NEWS, 0.7, "shared the homeowner's good news");
      }
      const dismay = has(DISMAY, t.norm) && !!prev && overlap(aboutWords(prev), t.lemmas).length > 0;
      if (has(NAME_FEELING, t.norm) || dismay) {
        c.feeling++;
        add(
          t,
          has(NAME_FEELING, t.norm) ? NAME_FEELING : DISMAY,
          0.8 + Math.min(0.15, c.feeling * 0.05),
          'named how the homeowner felt',
        );
      }
      if (has(VALIDATE, t.norm)) {
        c.validate++;
        add(t, VALIDATE, 0.7, 'told the homeowner their concern was fair');
      }
      if (has(ACCOMMODATE, t.norm)) {
        c.accommodate++;
        add(t, ACCOMMODATE, 0.75, "fitted the visit to the homeowner's situation");
      }
      if (has(RAPPORT, t.norm)) {
        c.rapport++;
        add(t, RAPPORT, 0.5, 'built personal rapport');
      } else if (has(COURTESY, t.norm)) {
        c.courtesy++;
        if (c.courtesy <= 2) add(t, COURTESY, 0.3, 'acknowledged the homeowner');
      }
      if (prev && prev.words >= 6) {
        const shared = overlap(prev.lemmas, t.lemmas).filter((w) => !TRADE_STAPLES.has(w));
        if ((shared.length >= 2 && has(REFLECTS_BACK, t.norm)) || (shared.length >= 3 && t.words <= 25)) {
          c.reflect++;
          add(t, REFLECTS_BACK, 0.6, "played the homeowner's own words back");
        }
      }
    }
    if (name && !usedName && saysWord(t.norm, name)) usedName = true;
    if (has(FEAR_PRESSURE, t.norm) || has(DEADLINE, t.norm)) {
      pressure++;
      f.missteps.push({
        quote: quoteFrom(t, has(FEAR_PRESSURE, t.norm) ? FEAR_PRESSURE : DEADLINE),
        turn: i,
        strength: 0.9,
        label: 'pressure',
      });
    } else if (has(DISMISS, t.norm)) {
      dismiss++;
      f.missteps.push({
        quote: quoteFrom(t, DISMISS),
        turn: i,
        strength: 0.7,
        label: "dismissed the homeowner's view",
      });
    }
  });

  let score = 3;
  score += Math.min(1.5, c.courtesy * 0.75);
  score += Math.min(2, c.rapport);
  score += Math.min(3, c.feeling * 1.5);
  score += Math.min(2, c.validate);
  score += Math.min(2, c.accommodate * 1.5);
  score += Math.min(1.5, c.reflect * 0.75);
  if (usedName) score += 0.25;
  score -=
    interruptions * 1.5 +
    Math.min(2, ignored + (empty.size >= 2 ? empty.size : 0)) * 0.75 +
    (dismiss ? 0.75 + Math.min(1, (dismiss - 1) * 0.5) : 0);
  if (repShare > 0.8) score -= 1.5;
  // High needs a feeling met, not just politeness; pressure or insults make it low.
  if (!c.feeling && !c.accommodate) score = Math.min(score, 7);
  if (dismiss) score = Math.min(score, 6);
  // The homeowner had to point out she was not heard: the connection is partial at best.
  if (notHeard) score = Math.min(score, 7 - Math.min(2, (notHeard - 1) * 1));
  // Talking over the homeowner with no feeling named or worry validated anywhere: the warmth was
  // small talk, and the interruption hurt.
  if (interruptions && !c.feeling && !c.validate) score = Math.min(score, 4);
  // Sympathy said twice or more and never followed by listening is not connection.
  if (empty.size >= 2) score = Math.min(score, 4);
  if (pressure) score = Math.min(score, 4) - Math.min(2, (pressure - 1) * 0.75);
  if (abuse) {
    score = Math.min(score, 2);
    f.abusive = true;
    f.evidence = [];
  }
  f.score = clamp(score);
  f.signals = {
    ...c,
    ignored,
    notHeard,
    interruptions,
    pressure,
    dismiss,
    abuse,
    hollow: empty.size,
    repShare: Math.round(repShare * 100),
  };

  if (c.feeling)
    f.positives.push(
      c.feeling > 1 ? `named the homeowner's feelings ${c.feeling} times` : "named the homeowner's feeling",
    );
  if (c.validate) f.positives.push('told the homeowner their concern made sense');
  if (c.accommodate) f.positives.push("fitted the visit around the homeowner's situation");
  if (c.rapport) f.positives.push('built personal rapport');
  if (c.reflect) f.positives.push("played the homeowner's own words back");
  if (abuse) {
    f.positives.length = 0;
    f.gaps.push('insulted the homeowner, which ends any trust');
  }
  if (!c.feeling && !c.accommodate && !abuse) f.gaps.push('never put into words how the homeowner felt');
  if (pressure) f.gaps.push('used fear or a deadline as pressure, which undid the goodwill');
  if (notHeard) f.gaps.push('asked again what the homeowner had already said, and she noticed');
  if (dismiss) f.gaps.push("brushed aside the homeowner's view instead of exploring it");
  if (interruptions)
    f.gaps.push(
      interruptions > 1
        ? `cut the homeowner off ${interruptions} times`
        : 'cut the homeowner off mid-sentence',
    );
  if (ignored)
    f.gaps.push(
      ignored > 1
        ? `moved past ${ignored} things the homeowner shared without a word`
        : 'moved past something the homeowner shared without a word',
    );
  if (empty.size)
    f.gaps.push(
      empty.size > 1
        ? `said sympathetic words ${empty.size} times without taking up what the homeowner said`
        : 'said sympathetic words without taking up what the homeowner said',
    );
  if (repShare > 0.8) f.gaps.push(`did ${Math.round(repShare * 100)}% of the talking`);
  return f;
}
