import { looseContractions as loose, normalizeText } from '../../../../core/conversation-metrics';
import {
  ABUSE,
  ACCOMMODATE,
  COURTESY,
  DISCLOSURE,
  DISMISS,
  FEAR_PRESSURE,
  NAME_FEELING,
  RAPPORT,
  VALIDATE,
  DEADLINE,
} from './acts';
import { overlap } from '../../../nlp';
import { TRADE_STAPLES } from './vocabulary';
import { type Turn, type Finding, has, clamp, prevOwner, quoteFrom } from './turns';

// ---------------------------------------------------------------- empathy

const CONCERN = loose(
  /\b(nervous|worried|worry|scared|afraid|concerned|hate (it|that|when)|frustrat\w*|ripped off|burned|burnt|overpay|not (handing|signing|deciding|sure)|dont want|never saw (him|them)|took a deposit|gotta go|got to go|not a (great|good) time|bad time|busy|in a hurry|how do i know|isnt even here|is not even here|not even here)\b/,
);
const CUT_OFF = loose(/[—–]\s*$|-{2,}\s*$|\.\.\.\s*$/);

const REFLECT_FORM = loose(
  /^((oh|okay|ok|right|yeah|ugh|oof|wow|so|and) )*(so|sounds like|so it sounds like|so this is|so what i m hearing|so what im hearing|so you re|so youre|so it s|so its|so the)\b/,
);

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
  let interruptions = 0;
  let pressure = 0;
  let dismiss = 0;
  let abuse = 0;
  let usedName = false;
  const name = personaName ? normalizeText(personaName) : '';
  const add = (t: Turn, re: RegExp | undefined, strength: number, label: string) =>
    f.evidence.push({ quote: quoteFrom(t, re), turn: t.index, strength, label });

  turns.forEach((t, i) => {
    if (t.role === 'assistant') {
      if (CUT_OFF.test(t.text) && turns[i + 1]?.role === 'user') {
        interruptions++;
        f.missteps.push({
          quote: quoteFrom(turns[i + 1]),
          turn: i + 1,
          strength: 0.6,
          label: 'talked over the homeowner',
        });
      }
      if (has(DISCLOSURE, t.norm) || has(CONCERN, t.norm)) {
        // The rep's answer (a recogniser may split it in two) should meet what was just said.
        const reply = turns.slice(i + 1, i + 3).filter((x) => x.role === 'user');
        const met = reply.some(
          (r) =>
            has(NAME_FEELING, r.norm) ||
            has(VALIDATE, r.norm) ||
            has(ACCOMMODATE, r.norm) ||
            has(COURTESY, r.norm) ||
            (has(REFLECT_FORM, r.norm) && overlap(t.lemmas, r.lemmas).length >= 1) ||
            overlap(t.lemmas, r.lemmas).filter((w) => !TRADE_STAPLES.has(w)).length >= 2,
        );
        if (reply.length && !met) {
          ignored++;
          f.missteps.push({
            quote: quoteFrom(reply[0]),
            turn: reply[0].index,
            strength: 0.5,
            label: 'moved past what the homeowner shared',
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
    if (has(NAME_FEELING, t.norm)) {
      c.feeling++;
      add(t, NAME_FEELING, 0.8 + Math.min(0.15, c.feeling * 0.05), 'named how the homeowner felt');
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
      if ((shared.length >= 2 && has(REFLECT_FORM, t.norm)) || (shared.length >= 3 && t.words <= 25)) {
        c.reflect++;
        add(t, REFLECT_FORM, 0.6, "played the homeowner's own words back");
      }
    }
    if (name && !usedName && new RegExp(`\\b${name}\\b`).test(t.norm)) usedName = true;
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
    Math.min(2, ignored) * 0.75 +
    (dismiss ? 0.75 + Math.min(1, (dismiss - 1) * 0.5) : 0);
  if (repShare > 0.8) score -= 1.5;
  // High needs a feeling met, not just politeness; pressure or insults make it low.
  if (!c.feeling && !c.accommodate) score = Math.min(score, 7);
  if (dismiss) score = Math.min(score, 6);
  if (pressure) score = Math.min(score, 4) - Math.min(2, (pressure - 1) * 0.75);
  if (abuse) {
    score = Math.min(score, 2);
    f.abusive = true;
    f.evidence = [];
  }
  f.score = clamp(score);

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
  if (repShare > 0.8) f.gaps.push(`did ${Math.round(repShare * 100)}% of the talking`);
  return f;
}
