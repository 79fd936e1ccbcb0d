import { findPressurePhrases } from '../../../understanding/readers/delivery';
import {
  looseContractions as loose,
  normalizeText,
  splitSentences,
} from '../../../understanding/text/normalise';
import { findQuestions } from '../../../understanding/readers/questions';
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
import { distinctPrices } from './options';
import type { ObjectionLabelKind } from '../../../understanding/labels';
import {
  namesExpectedFigure,
  objectionKindOf,
  refusesFlatly,
  soundsRelieved,
} from '../../../understanding/readers/objections';

const CLARIFY_Q = loose(
  /\b(what|how|which|why|can i ask|can i see|do you know|was it|were those|is it|is there|what s|whats|tell me)\b/,
);
const CONFIRM = loose(
  /\b(would|does|will|could|can) (that|this|all that|all of that) (make|leave) (it|this|that|things|the (job|project|work|install)) (\w+ )?(workable|doable|manageable|bearable|livable|easier|ok|okay|alright|all right|work)( for (you|you both|both of you|the family|your family))?\b|\b(does that (make sense|explain|help|answer|sound|work|cover|take care|make it|change|ease)|would that (make you feel|help|work|ease|address|take care)|how does that sound|is that (fair|helpful)|(is there )?(anything|something) else (holding|that would|stopping|on your mind|you d want|you would want|in their|i should)|did that answer|(does|would|will) (that|this) (feel|seem|be) (\w+ )?(workable|doable|manageable|fair|reasonable|more comfortable)|do you feel better|feel better about|feel good about it|is that on your mind|(does|would|will|could|is) (that|this|it|the \w+( \w+)?) (\w+ ){0,2}(fit|suit|sit right with|work for) (you|your|what|inside|within|in)|\b(fits?|sits?|falls?|stays?|comes? in) (inside|within|under) (what|your|the (number|budget|amount|limit))|(is|does) (that|this|it) (\w+ )?(within|inside|under) (what|your)|(does|would|will) (that|this|it) (feel|sound|seem) (\w+ )?(right|okay|ok|comfortable|safe|doable|affordable|manageable)( to you| for you)?|(would|could|does|will) (that|this) (work|do it) for (you|you both|both of you|the two of you|your budget)|(answer|cover|settle|take care of|address) (both|all|each) of (those|them|that|your)|put your mind at (ease|rest))\b/,
);
const DISCOUNT = loose(
  /\b(take|knock|shave|drop) (\w+ )?(\w+ )?(off|down)\b|\b(i can|let me) (do|get you|go) (it for|down to|to)\b|\bdiscount\b|\bpromotional price\b|\bcall my manager\b|\b(he ll|hell|she ll|shell|they ll|theyll) go (to|down)\b|\bspecial (price|deal)\b|\bflexibility on\b|\bbeat (it|their|that|the|whatever|any)\b|\bmatch (whatever|their|it|any)\b|\b(percent|%) (off|under)\b/,
);
/** Asks what someone wants, needs, thinks or worries about: a question about the concern itself. */
const ABOUT_CONCERN = loose(
  /\b(what|whats|what s|why|how|which) (\w+ ){0,4}(want|wants|need|needs|ask|asks|worry|worries|worried|think|thinks|feel|feels|care|cares|concern|concerns|concerned|know|mean|matter|matters|expect|expects|bother|bothers|bugging)\b/,
);
const RESPOND_REASON = loose(
  /\b(because|so that|which means|the reason|that s why|thats why|the difference|what that means|warranty|licen[cs]\w*|insured|insurance|reference\w*|photos|proof|samples?|guarantee|compared|versus|vs|label|rebate|financing|\d+ percent|zero percent|months|nothing s due|nothing due|no deposit|don t take a dime|look it up|come back|both home|both here|plastic|one day|credit|comes off)\b/,
);
/**
 * The rep raises the usual worry before the homeowner does: "you might be wondering", "a lot of
 * folks worry", "two things catch people off guard", "what surprises most people is", "people
 * don't expect the mess", "I'd rather tell you now than have you find out later".
 */
const PRE_EMPT = loose(
  /\b(you might be (wondering|thinking)|a lot of (people|homeowners|folks) (worry|ask|wonder)|you re probably (wondering|thinking)|youre probably (wondering|thinking)|before you ask|the (usual|common) (worry|concern|question)|most people (worry|ask))\b|\b(catch|catches|caught|take|takes|took) (a lot of |most |some )?(people|folks|homeowners|customers|clients) (off guard|by surprise|aback|unawares)\b|\b(surprises?|surprised|trips? up|bothers?|worries|throws?) (a lot of |most |some )?(people|folks|homeowners|customers|clients)\b|\b(people|folks|homeowners|customers|clients) (don t|dont|do not|never|rarely|often don t|often dont) (expect|think about|realize|realise|plan for|see coming)\b|\b(i d|id|i would) (rather|sooner) (talk about|tell you about|mention|bring up|raise|flag|go over|warn you about|cover) (\w+ ){0,4}(now|up front|upfront|today|first)\b|\b(rather|sooner) (\w+ ){0,4}now than (have you|you) (find|finding|learn|discover|be surprised)\b/,
);

/**
 * Offers something that would meet the concern, put as a question: "would it help if I came back
 * when he's home?", "what if we left samples?". Accepted, it answers the objection and confirms it.
 */
const OFFER = loose(
  /\b(would|does|will|might) it help (if (i|we)|to|for (me|us|you) to)\b|\bwhat if (i|we)\b|\bhow about (i|we|if (i|we))\b/,
);

/**
 * Denies the homeowner's own framing instead of exploring it: "this isn't really debt", "it's
 * really not that much", "that's not actually expensive".
 */
const DENY = loose(
  /\b(is|s|are|re|was) not (really|actually|even)\b|\b(isn t|isnt|aren t|arent|wasn t|wasnt) (really|actually)\b|\b(it s|its|that s|thats|this is) (really|actually) not\b/,
);
/**
 * Waves the homeowner's budget away as unrealistic instead of exploring it: "that's just what
 * windows cost these days", "that's the going rate", "you won't find anyone who'll do it for
 * that", "you can't get a roof for eight", "anyone who quotes that is cutting corners".
 */
const BUDGET_DISMISS = loose(
  /\b(that s|thats|that is|it s|its|this is) (just|simply|only) (what|how much) (\w+ ){0,3}(costs?|go for|goes for|run|runs|are|is) (now|today|these days|nowadays|anymore|everywhere)\b|\b(that s|thats|that is|it s|its) (just )?the going rate\b|\b(you|nobody|no one|anybody|anyone) (really |honestly |just |simply )?(can t|cant|cannot|won t|wont|will not|isn t going to|couldn t|couldnt) (do|get|find|buy|build|have) (\w+ ){0,4}(for|at|with) (that|ten|\w+ (thousand|grand)|that (kind of )?(money|budget|number|price))\b|\b(anybody|anyone|whoever|somebody|someone|they|any (company|contractor|guy|one)) (\w+ ){0,3}(quoting|quotes|charging|charges|offering|offers|doing it for) (you )?(\w+ ){0,2}(is|are|s|re) (cutting corners|cheating you|lying|not (being )?honest|skimping)\b|\b(isn t|isnt|is not|not) (realistic|going to happen|gonna happen) (for|at|with) (that|ten|\w+ (thousand|grand))\b/,
);
/** The statements (not questions) in the rep's handling, normalized. */
const statements = (reps: Turn[]) =>
  reps.flatMap((r) => splitSentences(r.text).filter((x) => !/\?\s*$/.test(x))).map(normalizeText);

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
    !/\?\s*$/.test(prev.text.trim()) &&
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
    const preEmpt =
      t.role === 'user' && has(PRE_EMPT, t.norm) && /\?|\b(is|does|are|would|do)\b/.test(t.text);
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
          findQuestions(lastText).some((q) => !has(CONFIRM, normalizeText(q.text))) &&
          !has(CONFIRM, last.norm) &&
          // A proposal ("could I come back Saturday, would ten or one work?") is accepted, not answered.
          !closeActs(last.text, last.norm).some((a) => a.kind === 'ask') &&
          !has(OFFER, last.norm);
        const agreed = has(AGREES, u.norm) && !/^no\b/.test(u.norm) && !answering;
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
    /^((oh|okay|ok|well) )*(yeah|yes|totally|fair|right|i hear|i understand|i get|of course|good question|great question)\b/.test(
      first.norm,
    );
  // A recogniser splits a long turn mid-sentence ("can I" / "ask what he'll want to know"): read
  // an unpunctuated fragment with the rep's next one.
  const pieces: string[] = [];
  reps.forEach((r, k) => {
    const prev = reps[k - 1];
    if (prev && prev.index === r.index - 1 && !/[.?!]\s*$/.test(prev.text))
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
          CLARIFY_Q.test(n) &&
          !has(LOGISTICS, n) &&
          !has(CONFIRM, n) &&
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
    (r) => closeActs(r.text, r.norm).some((a) => a.kind === 'ask') || has(OFFER, r.norm),
  );
  const respond =
    (reasonWords >= 12 && has(RESPOND_REASON, handling.map((r) => r.norm).join(' '))) ||
    reasonWords >= 40 ||
    proposal;
  const confirm =
    handling.some((r) => has(CONFIRM, r.norm)) ||
    /\bis (price|that|cost) the only thing\b/.test(all) ||
    (proposal && agreedAfter.some(Boolean));
  const discount = has(DISCOUNT, all);
  const argue =
    has(DISMISS, all) ||
    has(BUDGET_DISMISS, all) ||
    statements(preEmpt ? reps.slice(1) : reps).some((x) => has(DENY, x));
  const pressure =
    has(FEAR_PRESSURE, all) ||
    has(DEADLINE, all) ||
    findPressurePhrases(reps.map((r) => r.text).join(' ')).some((p) => !/trust me/.test(p));
  // "Oh sure. Anyway, the colours..." changes the subject: whatever follows answers nothing.
  const changedSubject = /^((oh|okay|ok|yeah|sure|right|well)\s+)*(anyway|anyhow|moving on)\b/.test(
    first.norm.replace(/^((oh|okay|ok|yeah|sure|right|well)\s+)+/, '').replace(/^(sure|okay|ok)\s+/, ''),
  );
  const folded = (!clarify && !respond) || (changedSubject && !clarify);
  // A conditional close that keeps the homeowner's condition ("if Mark's on board, ...") handles a stall.
  const conditional =
    kind === 'stall' && /\bif (\w+ )?(s|is|are|re)? ?(on board|agrees|likes|okay|happy)\b/.test(all);

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
    ? DISCOUNT
    : argue
      ? has(DISMISS, all)
        ? DISMISS
        : BUDGET_DISMISS
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
    const r = reps.find((x) => has(CONFIRM, x.norm)) ?? reps.find((x) => has(VALIDATE, x.norm)) ?? first;
    ep.best = {
      quote: quoteFrom(r, has(CONFIRM, r.norm) ? CONFIRM : has(VALIDATE, r.norm) ? VALIDATE : undefined),
      turn: r.index,
      strength: 0.4 + ep.score / 20,
      label: preEmpt ? 'raised the worry before it cost the sale' : 'handled the objection',
    };
  }
  return ep;
}
