import { findPressurePhrases } from '../../../understanding/readers/delivery';
import { normalizeText, splitSentences } from '../../../understanding/text/normalise';
import { endsSentence, endsWithQuestionMark } from '../../../understanding/text/marks';
import {
  ABOUT_CONCERN,
  asksIfOnlyConcern,
  changesSubject,
  CHECKS_ANSWER_LANDED,
  CLARIFYING_QUESTION,
  DENIES_FRAMING,
  DISMISSES_BUDGET,
  GIVES_REASON,
  keepsTheirCondition,
  OFFERS_TO_MEET_CONCERN,
  opensByAcknowledging,
  PRE_EMPTS_WORRY,
  PRICE_CONCESSION,
  putsAsQuestion,
  vouchesForSelf,
} from '../../../understanding/readers/objection-handling';
import { opensWithNo } from '../../../understanding/readers/replies';
import { findQuestions } from '../../../understanding/readers/questions';
import { someSentenceDoes } from '../../../understanding/utterance';
import {
  COURTESY,
  DISMISS,
  FEAR_PRESSURE,
  NAME_FEELING,
  VALIDATE,
  AGREES,
  CLOCK,
  closeActs,
  COMMIT,
  DAY as ACT_DAY,
  DEADLINE,
} from '../../../understanding/readers/speech-acts';
import { type Turn, type Evidence, type Finding, has, clamp, quoteFrom, LOGISTICS } from './turns';
import { distinctPrices } from '../../../understanding/readers/options-offered';
import type { ObjectionLabelKind } from '../../../understanding/labels';
import {
  namesExpectedFigure,
  objectionKindOf,
  refusesFlatly,
  soundsRelieved,
} from '../../../understanding/readers/objections';

/** The statements (not questions) in the rep's handling, normalized. */
const statements = (reps: Turn[]) =>
  reps.flatMap((r) => splitSentences(r.text).filter((x) => !endsWithQuestionMark(x))).map(normalizeText);

interface Episode {
  kind: string;
  /** The objection's kind in the shared labels (price, trust, timing, decision, product...). */
  label: ObjectionLabelKind;
  start: number;
  quote: string;
  score: number;
  steps: string[];
  misstep?: Evidence;
  best?: Evidence;
}

const quotedJustBefore = (turns: Turn[], t: Turn) =>
  turns
    .slice(Math.max(0, t.index - 2), t.index)
    .some((x) => x.role === 'user' && distinctPrices(x.text).length > 0);
const refusesQuote = (turns: Turn[], t: Turn) => {
  const prev = turns[t.index - 1];
  return (
    !!prev &&
    prev.role === 'user' &&
    !endsWithQuestionMark(prev.text.trim()) &&
    quotedJustBefore(turns, t) &&
    refusesFlatly(t.text, t.norm)
  );
};
/** The shared reading's objection kinds in the episode kinds this module weighs. */
const EPISODE_KIND: Record<ObjectionLabelKind, string> = {
  price: 'price',
  competitor: 'competitor',
  trust: 'trust',
  need: 'need',
  timing: 'stall',
  decision: 'stall',
  product: 'worry',
  disruption: 'worry',
};
const objectionKind = (t: Turn, turns?: Turn[]) =>
  soundsRelieved(t.norm)
    ? undefined
    : (objectionKindOf(t.norm) ??
      (turns && ((namesExpectedFigure(t.norm) && quotedJustBefore(turns, t)) || refusesQuote(turns, t))
        ? 'price'
        : t.objection && EPISODE_KIND[t.objection]));

/** One objection as the advice sees it: its kind, how it was handled, and where. */
export type ObjectionEpisode = Pick<Episode, 'kind' | 'label' | 'start' | 'score' | 'steps' | 'misstep'>;

/** An objection's shared kind: the reading's own, else the episode kind's nearest label. */
function labelOf(kind: string, t: Turn): ObjectionLabelKind {
  if (t.objection) return t.objection;
  const map: Record<string, ObjectionLabelKind> = {
    price: 'price',
    competitor: 'competitor',
    trust: 'trust',
    need: 'need',
    time: 'timing',
    stall: 'timing',
    worry: 'product',
  };
  return map[kind] ?? 'product';
}

export function detectObjections(
  turns: Turn[],
): Finding & { raised: number; preEmpted: number; kinds: string[]; episodes: ObjectionEpisode[] } {
  const episodes: Episode[] = [];
  let lastEnd = -1;
  let preEmpted = 0;
  // Objections stacked back to back ("you're the third company this week" ... "and I'm not signing
  // anything"): a short first reply cut off by the next objection is read with its handling.
  let carried: { kinds: string[]; reps: Turn[] } | undefined;
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i];
    if (i <= lastEnd) continue;
    // A worry the rep raises and asks about ("a lot of folks worry about the mess, is that on your mind?").
    const preEmpt = t.role === 'user' && has(PRE_EMPTS_WORRY, t.norm) && putsAsQuestion(t.text);
    const kind = t.role === 'assistant' ? objectionKind(t, turns) : preEmpt ? 'worry' : undefined;
    if (!kind) continue;
    if (preEmpt) preEmpted++;
    // The rep's handling: their turns until the homeowner raises a different objection, up to three.
    // Consecutive rep entries (a recogniser splits long turns) count as one reply; the episode
    // ends when the homeowner raises a different objection or accepts the answer.
    const reps: Turn[] = preEmpt ? [t] : [];
    const agreedAfter: boolean[] = [];
    let replies = 0;
    // Three replies, and one more for each question of the rep's the homeowner answers (up to
    // six): a rep who asks before answering ("what were you expecting?" "is it the total or the
    // lump sum?") is still handling the objection when the answer and the check come.
    let budget = 3;
    let stacked = false;
    for (let j = i + 1; j < turns.length && replies < budget; j++) {
      const u = turns[j];
      if (u.role === 'assistant') {
        const k = objectionKind(u, turns);
        // A different objection, or the same one raised again after the rep has answered at
        // length, is a new episode.
        if (k && (k !== kind || reps.some((r) => r.words >= 40))) {
          stacked = k !== kind && j === (reps[reps.length - 1]?.index ?? -2) + 1;
          break;
        }
        // "I guess the monthly" answers the rep's clarifying question; it does not accept an answer.
        const last = reps[reps.length - 1];
        // A recogniser splits the rep's question across entries ("can I ask, is" / "it the total or
        // the monthly"): read the rep's unbroken run of entries as one turn.
        let runStart = reps.length - 1;
        while (runStart > 0 && reps[runStart - 1].index === reps[runStart].index - 1) runStart--;
        const lastText = reps
          .slice(runStart)
          .map((r) => r.text)
          .join(' ');
        const answering =
          !!last &&
          findQuestions(lastText).some((q) => !has(CHECKS_ANSWER_LANDED, normalizeText(q.text))) &&
          !has(CHECKS_ANSWER_LANDED, last.norm) &&
          // A proposal ("could I come back Saturday, would ten or one work?") is accepted, not answered.
          !closeActs(last.text, last.norm).some((a) => a.kind === 'ask') &&
          !has(OFFERS_TO_MEET_CONCERN, last.norm);
        const agreed = has(AGREES, u.norm) && !opensWithNo(u.norm) && !answering;
        if (answering && !agreed && !objectionKind(u, turns)) budget = Math.min(6, budget + 1);
        if (reps.length) agreedAfter[reps.length - 1] = agreed;
        if (agreed && reps.length > (preEmpt ? 1 : 0)) break;
        continue;
      }
      if (turns[j - 1]?.role !== 'user') replies++;
      reps.push(u);
    }
    lastEnd = reps.length ? reps[reps.length - 1].index : i;
    const handled = carried ? [...carried.reps, ...reps] : reps;
    const kinds = carried ? [...carried.kinds, kind] : [kind];
    carried = undefined;
    // One brief reply (acknowledging, not arguing or discounting) and straight into the next objection.
    if (stacked && !preEmpt && replies === 1 && handled.reduce((n, r) => n + r.words, 0) < 40) {
      const e = scoreEpisode(kind, t, handled, agreedAfter, preEmpt);
      if (!e.steps.some((x) => ['argued', 'discounted', 'pressured'].includes(x))) {
        carried = { kinds, reps: handled };
        continue;
      }
    }
    const ep = scoreEpisode(kind, t, handled, agreedAfter, preEmpt);
    // The stacked objections share the handling (its quotes once).
    for (const k of kinds.slice(0, -1))
      episodes.push({ ...ep, kind: k, best: undefined, misstep: undefined });
    episodes.push(ep);
  }
  if (carried) {
    const c = carried;
    const first = turns.find((x) => x.index === c.reps[0].index - 1) ?? c.reps[0];
    for (const k of c.kinds) episodes.push(scoreEpisode(k, first, c.reps, [], false));
  }

  const f: Finding & { raised: number; preEmpted: number; kinds: string[]; episodes: ObjectionEpisode[] } = {
    score: 6,
    positives: [],
    gaps: [],
    evidence: [],
    missteps: [],
    raised: episodes.length,
    // Worst-handled first, so advice targets the objection that cost the most.
    kinds: [...episodes].sort((a, b) => a.score - b.score).map((e) => e.kind),
    episodes: [...episodes].sort((a, b) => a.score - b.score),
    preEmpted,
  };
  if (!episodes.length) {
    f.score = 6;
    f.gaps.push('no objection came up and none was pre-empted, so this part was not tested');
    return f;
  }
  // Heavier objections (price, trust, competitor, stall) weigh more than a passing remark.
  const weight = (e: Episode) =>
    ['price', 'trust', 'competitor', 'stall', 'worry', 'time'].includes(e.kind) ? 2 : 1;
  const totalW = episodes.reduce((n, e) => n + weight(e), 0);
  let score = episodes.reduce((n, e) => n + e.score * weight(e), 0) / totalW;
  const worst = Math.min(...episodes.map((e) => e.score));
  if (worst <= 2) score = Math.min(score, 4);
  f.score = clamp(score);
  for (const e of episodes) {
    if (e.best) f.evidence.push(e.best);
    if (e.misstep) f.missteps.push(e.misstep);
  }
  const steps = new Set(episodes.flatMap((e) => e.steps));
  for (const s of ['acknowledged', 'clarified', 'answered with reasons', 'checked it landed'])
    if (steps.has(s)) f.positives.push(s);
  if (preEmpted) f.positives.push('raised a likely worry before it cost the sale');
  if (steps.has('discounted')) f.gaps.push('dropped or matched the price before understanding the concern');
  if (steps.has('argued')) f.gaps.push('argued with the homeowner instead of exploring the concern');
  if (steps.has('pressured')) f.gaps.push('met the concern with pressure');
  if (steps.has('folded')) f.gaps.push('let the concern pass without exploring or answering it');
  if (!steps.has('clarified')) f.gaps.push('never asked a question to understand the concern');
  if (!steps.has('checked it landed')) f.gaps.push('never checked the answer resolved the concern');
  return f;
}

function scoreEpisode(
  kind: string,
  objection: Turn,
  reps: Turn[],
  agreedAfter: boolean[],
  preEmpt: boolean,
): Episode {
  const ep: Episode = {
    kind,
    label: labelOf(kind, objection),
    start: objection.index,
    quote: quoteFrom(objection),
    score: 0,
    steps: [],
  };
  if (!reps.length) {
    ep.score = 2;
    ep.steps.push('folded');
    return ep;
  }
  const all = reps.map((r) => r.norm).join(' ');
  const first = reps[0];
  const ack =
    preEmpt ||
    has(VALIDATE, first.norm) ||
    has(NAME_FEELING, first.norm) ||
    has(COURTESY, first.norm) ||
    first.acts.some((a) => a === 'empathy:validate' || a === 'empathy:feeling') ||
    opensByAcknowledging(first.norm);
  // A recogniser splits a long turn mid-sentence ("can I" / "ask what he'll want to know"): read
  // an unpunctuated fragment with the rep's next one.
  const pieces: string[] = [];
  reps.forEach((r, k) => {
    const prev = reps[k - 1];
    if (prev && prev.index === r.index - 1 && !endsSentence(prev.text))
      pieces[pieces.length - 1] += ` ${r.text}`;
    else pieces.push(r.text);
  });
  const clarify =
    preEmpt ||
    pieces.some((text) =>
      findQuestions(text).some((q) => {
        const n = normalizeText(q.text);
        // A run-on question is cut at fourteen words: read on a little for what it asks.
        const full = normalizeText(text);
        const at = full.indexOf(n);
        const ext = at >= 0 ? full.slice(at).split(' ').slice(0, 22).join(' ') : n;
        return (
          CLARIFYING_QUESTION.test(n) &&
          !has(LOGISTICS, n) &&
          !has(CHECKS_ANSWER_LANDED, n) &&
          !COMMIT.test(n) &&
          // A day in passing ("when you tell him tonight, what will he want to know?") still asks
          // about the concern; a day asked for is scheduling.
          ((!ACT_DAY.test(n) && !CLOCK.test(n)) || ABOUT_CONCERN.test(ext))
        );
      }),
    );
  const handling = preEmpt ? reps.slice(1) : reps;
  const reasonWords = handling.reduce((n, r) => n + r.words, 0);
  const proposal = handling.some(
    (r) => closeActs(r.text, r.norm).some((a) => a.kind === 'ask') || has(OFFERS_TO_MEET_CONCERN, r.norm),
  );
  const respond =
    (reasonWords >= 12 && has(GIVES_REASON, handling.map((r) => r.norm).join(' '))) ||
    reasonWords >= 40 ||
    proposal;
  const confirm =
    handling.some(
      (r) =>
        has(CHECKS_ANSWER_LANDED, r.norm) ||
        r.acts.includes('check') ||
        someSentenceDoes(r.text, 'rep', 'check'),
    ) ||
    asksIfOnlyConcern(all) ||
    (proposal && agreedAfter.some(Boolean));
  const discount = has(PRICE_CONCESSION, all);
  const argue =
    has(DISMISS, all) ||
    has(DISMISSES_BUDGET, all) ||
    statements(preEmpt ? reps.slice(1) : reps).some((x) => has(DENIES_FRAMING, x));
  const pressure =
    has(FEAR_PRESSURE, all) ||
    has(DEADLINE, all) ||
    findPressurePhrases(reps.map((r) => r.text).join(' ')).some((p) => !vouchesForSelf(p));
  // "Oh sure. Anyway, the colours..." changes the subject: whatever follows answers nothing.
  const changedSubject = changesSubject(first.norm);
  const folded = (!clarify && !respond) || (changedSubject && !clarify);
  // A conditional close that keeps the homeowner's condition ("if Mark's on board, ...") handles a stall.
  const conditional = kind === 'stall' && keepsTheirCondition(all);

  let score = 2;
  if (ack) {
    score += 1.5;
    ep.steps.push('acknowledged');
  }
  if (clarify) {
    score += 2;
    ep.steps.push('clarified');
  }
  if (respond) {
    score += 3;
    ep.steps.push('answered with reasons');
  }
  if (confirm || conditional) {
    score += 1.5;
    ep.steps.push('checked it landed');
  }
  if (discount) {
    score -= 4;
    ep.steps.push('discounted');
  }
  if (argue) {
    score -= 4;
    ep.steps.push('argued');
  }
  if (pressure) {
    score -= 4;
    ep.steps.push('pressured');
  }
  if (folded) {
    score = Math.min(score, 3);
    ep.steps.push('folded');
  }
  // High needs the loop closed: the rep checks the answer landed.
  if (!confirm && !conditional) score = Math.min(score, 7);
  ep.score = clamp(score);
  const where = discount
    ? PRICE_CONCESSION
    : argue
      ? has(DISMISS, all)
        ? DISMISS
        : DISMISSES_BUDGET
      : pressure
        ? has(FEAR_PRESSURE, all)
          ? FEAR_PRESSURE
          : DEADLINE
        : undefined;
  if (where || folded) {
    const r = reps.find((x) => (where ? has(where, x.norm) : true)) ?? first;
    ep.misstep = {
      quote: quoteFrom(r, where),
      turn: r.index,
      strength: 0.8,
      label: discount
        ? 'discounted at the first push-back'
        : argue
          ? 'argued'
          : pressure
            ? 'pressured'
            : 'let the objection pass',
    };
  } else {
    const r =
      reps.find((x) => has(CHECKS_ANSWER_LANDED, x.norm)) ?? reps.find((x) => has(VALIDATE, x.norm)) ?? first;
    ep.best = {
      quote: quoteFrom(
        r,
        has(CHECKS_ANSWER_LANDED, r.norm)
          ? CHECKS_ANSWER_LANDED
          : has(VALIDATE, r.norm)
            ? VALIDATE
            : undefined,
      ),
      turn: r.index,
      strength: 0.4 + ep.score / 20,
      label: preEmpt ? 'raised the worry before it cost the sale' : 'handled the objection',
    };
  }
  return ep;
}
