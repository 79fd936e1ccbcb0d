import {
  findPressurePhrases,
  looseContractions as loose,
  classifyQuestion,
  findQuestions,
  isSmallTalk,
  normalizeText,
  splitSentences,
  type QuestionKind,
} from '../../../../core/conversation-metrics';
import { countWords, isFinal, type TranscriptEntry } from '../../../../core/transcript';
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
  AGREES,
  BUYING_SIGNAL,
  CLOCK,
  closeActs,
  COMMIT,
  DAY as ACT_DAY,
  DEADLINE,
  DECLINES,
} from './acts';
import { analyse, overlap } from '../../../nlp';
import { needAreas, TRADE_STAPLES, UNIVERSAL_DEPTH_AREAS } from './vocabulary';

/**
 * Behaviour detectors. Every rule runs on normalized text (lowercase, no apostrophes or
 * punctuation) so recogniser output scores like typed text; punctuation is only a bonus
 * (a question mark, a dash showing a cut-off).
 */

export interface Turn {
  index: number;
  role: 'user' | 'assistant';
  text: string;
  norm: string;
  words: number;
  lemmas: Set<string>;
  sentiment: number;
}

export interface Evidence {
  quote: string;
  turn: number;
  /** How strong a moment it is, 0-1 (used to pick 'Best'). */
  strength: number;
  label: string;
}

export interface Finding {
  /** Raw 0-10 score before rounding. */
  score: number;
  /** What the rep did well. */
  positives: string[];
  /** What was missing or hurt. */
  gaps: string[];
  evidence: Evidence[];
  /** Rep lines that hurt (quoted as what not to say). */
  missteps: Evidence[];
}

export interface QuestionFact {
  turn: number;
  text: string;
  kind: QuestionKind;
  /** 'open' (what/how/why), 'probe' (where/when/how long...), 'yesno' (do you/are you...). */
  form: 'open' | 'probe' | 'yesno';
  followUp: boolean;
  areas: string[];
}

export interface Analysis {
  stage: string;
  turns: Turn[];
  rep: Turn[];
  questions: QuestionFact[];
  discoveryEnd: number;
  optionTurns: number[];
  needAreasCovered: string[];
  empathy: Finding;
  needs: Finding;
  options: Finding;
  objections: Finding & { raised: number; preEmpted: number; kinds: string[] };
  closing: Finding;
  followUp: Finding;
  /** The homeowner side does the selling: the recogniser probably guessed the speakers wrong. */
  rolesLookSwapped: boolean;
}

const has = (re: RegExp, s: string) => re.test(s);
const clamp = (n: number, lo = 0, hi = 10) => Math.max(lo, Math.min(hi, n));

/** Undo the commonest recogniser slips that change a phrase's grammar ("want too see", "your welcome"). */
function repairNorm(norm: string): string {
  return norm
    .replace(
      /\btoo (see|be|look|do|get|go|come|make|have|talk|think|show|meet|decide|sign|pick|start|keep|ask|know)\b/g,
      'to $1',
    )
    .replace(/\byour (welcome|right|probably|going|gonna|looking|paying|getting|not)\b/g, 'youre $1');
}

export function buildTurns(entries: TranscriptEntry[]): Turn[] {
  return entries
    .filter((e) => isFinal(e) && countWords(e.transcript) > 0)
    .map((e, index) => {
      const a = analyse(e.transcript);
      return {
        index,
        role: e.role,
        text: e.transcript.trim(),
        norm: repairNorm(normalizeText(e.transcript)),
        words: countWords(e.transcript),
        lemmas: a.lemmas,
        sentiment: a.sentiment,
      };
    });
}

/** A short quotable piece of a turn: the sentence that matched, else the start of the turn. */
export function quoteFrom(turn: Turn, re?: RegExp): string {
  const sentences = splitSentences(turn.text);
  let pick = sentences[0] ?? turn.text;
  if (re) {
    const hit = sentences.find((s) => re.test(normalizeText(s)));
    if (hit) pick = hit;
    else if (sentences.length === 1) {
      // Unpunctuated text: quote the words around the match.
      const m = turn.norm.match(re);
      if (m && m.index !== undefined) {
        const words = turn.norm.split(' ');
        const at = turn.norm.slice(0, m.index).split(' ').length - 1;
        pick = words.slice(Math.max(0, at - 6), at + 14).join(' ');
      }
    }
  }
  const words = pick.split(/\s+/);
  return words.length > 32 ? `${words.slice(0, 30).join(' ')}...` : pick;
}

const prevOwner = (turns: Turn[], i: number): Turn | undefined => {
  for (let j = i - 1; j >= 0; j--) {
    if (turns[j].role === 'assistant') return turns[j];
    if (i - j > 2) break;
  }
  return undefined;
};
const nextRep = (turns: Turn[], i: number): Turn | undefined =>
  turns.slice(i + 1).find((t) => t.role === 'user');

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
function detectEmpathy(
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

// ---------------------------------------------------------------- needs analysis

const LOGISTICS = loose(
  /\b(would|does|is|how about|what about) (\w+ )?(tuesday|monday|wednesday|thursday|friday|saturday|sunday|tomorrow|morning|evening|afternoon)|\bwhich (one s|ones|one is) better\b|\b(best|good) (number|email|time to reach)\b|\bget (it|you) on (the|our) schedule\b|\bgo ahead\b|\bdoes that (work|sound)\b|\bfeel better about\b|\bdoes that (explain|make sense|help)\b/,
);
const OPTIONS_START = loose(
  /\b(option (one|1|a)|(three|two|a few|four) (ways|options|routes|choices|packages|levels|kinds|types|approaches)|one of (two|three) ways|here s what i d|heres what id|the simplest|if budget s|if budgets|we have (a|two|three)|special|package|series|our (flagship|best))\b/,
);
const CHOICE = loose(/\b(or)\b|,.*,/);

function questionForm(text: string, kind: QuestionKind): QuestionFact['form'] {
  const n = normalizeText(text).replace(
    /^((so|and|okay|ok|well|um|uh|now|oh|great|perfect|yeah|right)\b\s*)+/,
    '',
  );
  if (kind === 'open') return 'open';
  // "How's the house feeling these days?" invites a description.
  if (/^(hows|how s|how is|how are|how does|how do) (the|your|it|things|everything)\b/.test(n)) return 'open';
  if (/^(where|when|who|whos|which|how|what|whats|why)\b/.test(n)) return 'probe';
  // "Is this more about X, or Y?" offers a choice: it probes more than a yes/no.
  if (/\bor\b/.test(n) && n.split(' ').length >= 7) return 'probe';
  return 'yesno';
}

const RUN_ON_OPEN =
  /\b(?:ok|okay|um|uh|so|and|wow|right|great|got it|sleep|i do|me|you)\s+((?:tell me (?:about|what|how|more)|walk me through|what else|what|whats|how|hows|why|who|where|when)\b)/g;

function detectQuestions(turns: Turn[], stage: string): QuestionFact[] {
  const areas = needAreas(stage);
  const out: QuestionFact[] = [];
  turns.forEach((t, i) => {
    if (t.role !== 'user') return;
    const prev = prevOwner(turns, i);
    const answer = turns.slice(i + 1).find((x) => x.role === 'assistant');
    const found = findQuestions(t.text);
    // Unpunctuated recogniser text: open questions that start mid-turn ("...so tell me what happened").
    if (!/[.?!]/.test(t.text))
      for (const m of t.norm.matchAll(RUN_ON_OPEN)) {
        const at = (m.index ?? 0) + m[0].length - m[1].length;
        const clause = t.norm.slice(at).split(' ').slice(0, 14).join(' ');
        if (!found.some((q) => normalizeText(q.text).includes(clause.split(' ').slice(0, 4).join(' '))))
          found.push({ text: clause, kind: classifyQuestion(clause) ?? 'open' });
      }
    for (const q of found) {
      const qn = normalizeText(q.text);
      if (has(LOGISTICS, qn) || isSmallTalk(q.text)) continue;
      let kind = q.kind;
      // A menu of answers ("energy, looks, noise?") narrows an open question to a choice.
      // ...unless the menu stays open ("noise, the bills, anything?").
      if (
        kind === 'open' &&
        CHOICE.test(q.text) &&
        /,/.test(q.text) &&
        !/\b(anything|something|whatever)( else)?\W*$/.test(q.text.toLowerCase())
      )
        kind = 'closed';
      const form = questionForm(q.text, kind);
      const shared = prev
        ? overlap(prev.lemmas, analyseLite(q.text)).filter((w) => !TRADE_STAPLES.has(w))
        : [];
      const anaphora =
        /\b(that|it|they|those|she|he|them)\b/.test(qn) &&
        /^(how|what|when|where|why|do|does|did|is|was|are)\b/.test(qn.replace(/^(so|and|okay|oh)\s+/, ''));
      const followUp = !!prev && prev.words >= 5 && (shared.length >= 1 || anaphora);
      const hit = areas
        .filter(
          (a) =>
            a.pattern.test(qn) ||
            (answer && answer.words >= 3 && a.pattern.test(answer.norm) && form !== 'yesno'),
        )
        .map((a) => a.id);
      out.push({ turn: i, text: q.text, kind, form, followUp, areas: hit });
    }
  });
  return out;
}

const liteCache = new Map<string, Set<string>>();
function analyseLite(text: string): Set<string> {
  let s = liteCache.get(text);
  if (!s) {
    s = analyse(text).lemmas;
    if (liteCache.size > 500) liteCache.clear();
    liteCache.set(text, s);
  }
  return s;
}

function detectNeeds(
  turns: Turn[],
  questions: QuestionFact[],
  discoveryEnd: number,
  singlePush: boolean,
  stage: string,
): { finding: Finding; covered: string[] } {
  const f: Finding = { score: 0, positives: [], gaps: [], evidence: [], missteps: [] };
  const discovery = questions.filter((q) => q.turn < discoveryEnd);
  const open = discovery.filter((q) => q.form === 'open').length;
  const probe = discovery.filter((q) => q.form === 'probe').length;
  const yesno = discovery.filter((q) => q.form === 'yesno').length;
  const followUps = discovery.filter((q) => q.followUp).length;
  const covered = [...new Set(discovery.flatMap((q) => q.areas))];
  const depth = covered.some((a) => UNIVERSAL_DEPTH_AREAS.has(a));

  let score =
    1 +
    Math.min(5, open * 1.2 + probe * 0.7 + yesno * 0.25) +
    Math.min(1.5, followUps * 0.4) +
    Math.min(3, covered.length * 0.6);
  const total = discovery.length;
  if (total >= 4 && yesno / total >= 0.7) score = Math.min(score, 4);
  if (!depth) score = Math.min(score, 7); // high needs budget, timing, plans or who decides
  if (open + probe * 0.5 < 2.5) score = Math.min(score, 7); // and open questions, not a checklist
  if (singlePush) score = Math.min(score, 6); // answers that never shaped the offer
  if (total === 0) score = Math.min(score, 1.5);
  f.score = clamp(score);

  const ranked = [...discovery].sort((a, b) => rankQ(b) - rankQ(a) || a.turn - b.turn);
  for (const q of ranked.slice(0, 3)) {
    f.evidence.push({
      quote: q.text,
      turn: q.turn,
      strength: q.form === 'open' ? 0.55 + Math.min(0.3, q.areas.length * 0.1) : 0.35,
      label: q.form === 'open' ? 'asked an open discovery question' : 'probed a need',
    });
  }
  const labels = needAreas(stage);
  const coveredLabels = covered
    .map((id) => labels.find((a) => a.id === id)?.label)
    .filter(Boolean) as string[];
  if (open) f.positives.push(`asked ${open} open question${open > 1 ? 's' : ''}`);
  if (followUps) f.positives.push(`followed up on ${followUps} answer${followUps > 1 ? 's' : ''}`);
  if (coveredLabels.length) f.positives.push(`covered ${coveredLabels.slice(0, 4).join(', ')}`);
  if (total === 0) f.gaps.push('asked no discovery questions before pitching');
  else if (total >= 4 && yesno / total >= 0.7)
    f.gaps.push(`${yesno} of ${total} questions were yes/no, so the homeowner never explained what matters`);
  else if (!open) f.gaps.push('asked no open questions (what, how, why)');
  if (!depth && total) f.gaps.push('never explored budget, timing, plans or who else decides');
  if (singlePush && total) f.gaps.push('the answers never shaped what was offered');
  const missing = labels.filter(
    (a) => !covered.includes(a.id) && !['timeline', 'decision', 'priorities'].includes(a.id),
  );
  if (missing.length && total)
    f.gaps.push(
      `left unexplored: ${missing
        .slice(0, 3)
        .map((a) => a.label)
        .join(', ')}`,
    );
  return { finding: f, covered };
}

const rankQ = (q: QuestionFact) =>
  (q.form === 'open' ? 3 : q.form === 'probe' ? 2 : 1) + q.areas.length * 0.5 + (q.followUp ? 0.5 : 0);

// ---------------------------------------------------------------- options

const NUM =
  '(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|\\d+)';
const PRICE = new RegExp(
  `\\$\\s?\\d[\\d,.]*k?|\\b\\d[\\d,.]*\\s?(k|grand|dollars|bucks)\\b|\\b${NUM}([ -]${NUM})? (thousand|hundred|grand|dollars|bucks)( (and )?${NUM}([ -]${NUM})? hundred)?\\b(?! (installs|homes|houses|windows|roofs|jobs|customers|people|square|feet|miles|years|families))|(?<=\\b(about|around|is|s|at|for|to|was|costs?|runs|comes to|only|like|be|its|thats) )${NUM}[ -](one|two|three|four|five|six|seven|eight|nine|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)( (one|two|three|four|five|six|seven|eight|nine))?\\b(?! (minutes|hours|years|days|percent|miles|feet|degrees|times|people|kids|weeks|months|windows|rooms|of))|(?<=, )(ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)-(one|two|three|four|five|six|seven|eight|nine)\\b(?=[.,])`,
  'gi',
);
const PRICE_CONTEXT = loose(
  /\b(cost|price|priced|about|around|ballpark|installed|quote|runs|comes out|total|thousand|hundred|grand|dollars|bucks|option|for the|for all|out of pocket|a month|more)\b|\$/,
);
const ENUM = loose(
  /\b(the (simplest|cheapest|basic|middle|top|premium|mid|budget|best|next|entry) (one|option|is|level|package|route)|another option|the other (one|option|kind)|or if you|if you really want|if budget s|if budgets|there s a|theres a|and a (\w+ )?(style|kind|type)|you (keep|do|go) )/g,
);
/** Numbered choices; each distinct number counts once ("One, you keep it... two, ... three"). */
const ORDINAL = loose(
  /\b(?:option (one|two|three|four|1|2|3|4|a|b|c)|(?:the )?(first|second|third) (?:one|option|is)|(one|two|three),? (?:we|you)|(?:or|and) (two|three|four)\b(?! (of|or|more|years|times|days|weeks|kids|people|hundred|thousand)))/g,
);
const ORDINAL_VALUE: Record<string, number> = {
  one: 1,
  '1': 1,
  a: 1,
  first: 1,
  two: 2,
  '2': 2,
  b: 2,
  second: 2,
  three: 3,
  '3': 3,
  c: 3,
  third: 3,
  four: 4,
  '4': 4,
};

export // Numbered choices are marked so they can outrank looser markers ("there's a...").
const ORDINAL_BONUS = 100;

function choiceMarkers(norm: string): number {
  const ordinals = new Set<number>();
  for (const m of norm.matchAll(ORDINAL)) ordinals.add(ORDINAL_VALUE[m[1] ?? m[2] ?? m[3] ?? m[4]] ?? 0);
  if (ordinals.size >= 2) return ordinals.size + ORDINAL_BONUS;
  return Math.max(ordinals.size, norm.match(ENUM)?.length ?? 0);
}

const COUNTED_CHOICES = loose(
  /\b(two|three|four) (basic |main |different |good )?(ways|options|setups|routes|choices|packages|levels|kinds|types|approaches|systems|directions)\b/,
);
const UPGRADE = loose(/\b(upgrade|step up) too?\b|\bif you (want|wanted) to (go|step) up\b/);
const RECOMMEND = loose(
  /\b(i d|id|i would|i) (recommend|suggest|go with|lean (toward|towards)|say|pick|choose|put|do option|do the)\b|\b(the one|what) i d (recommend|lean|go|pick)|\bsweet spot\b|\bright fit\b|\bbest fit\b|\bmakes the most sense\b|\bfor (your|you) (plan|situation|needs)\b|\bi think (option \w+|the \w+( one)?|that|it s|its) (is|would be|s) (the|your|a)\b/,
);
const TIE = loose(
  /\b(you (mentioned|said|told me)|from what you ve told me|from what youve told me|based on what you|since you|because you (said|want|re|are)|for your (plan|needs|situation)|how you use|you guys use|for (ten|five|\w+) years on|if you re selling|if youre selling|with your)\b/,
);
const PUSH = loose(
  /\b(only one i d|only one id|only one i would|i wouldn t feel good (selling|recommending)|i wouldnt feel good (selling|recommending)|the best \w+ we (make|sell|have)|our flagship|it s the only (one|option|thing|system|product)|its the only (one|option|thing|system|product)|the only (thing|one|option) i d (put|recommend|do|sell)|the only (thing|one|option) id (put|recommend|do|sell))\b/,
);
const SOCIAL_STEER = loose(
  /\b(most people on your street|what (most|all) (people|your neighbors|everyone) (are|is) doing|everyone on (your|the) street)\b/,
);
const ASK_ALTERNATIVE = loose(
  /\b(something (less|cheaper|smaller|simpler)|less fancy|cheaper (option|one)|other options|anything (less|cheaper)|do you have (a|something) (cheaper|less|smaller|basic))\b/,
);

export function distinctPrices(text: string): string[] {
  if (!PRICE_CONTEXT.test(normalizeText(text)) && !/\$/.test(text)) return [];
  return [...new Set((text.match(PRICE) ?? []).map((p) => p.toLowerCase().replace(/\s+/g, ' ')))];
}

function detectOptions(
  turns: Turn[],
  discoveryEnd: number,
): { finding: Finding; optionTurns: number[]; singlePush: boolean } {
  const f: Finding = { score: 0, positives: [], gaps: [], evidence: [], missteps: [] };
  const rep = turns.filter((t) => t.role === 'user' && t.index >= discoveryEnd);
  const ownerBefore = new Set<string>();
  for (const t of turns)
    if (t.role === 'assistant' && t.index < discoveryEnd + 1) t.lemmas.forEach((l) => ownerBefore.add(l));

  let markers = 0;
  const prices = new Set<string>();
  let recommend: Turn | undefined;
  let ties = 0;
  const echoed = new Set<string>();
  let push = 0;
  let steer = 0;
  let refusedAlternative = false;
  const optionTurns: number[] = [];
  for (const t of rep) {
    const m = choiceMarkers(t.norm);
    const p = distinctPrices(t.text);
    const isOption = m > 0 || p.length > 0 || has(OPTIONS_START, t.norm);
    if (isOption) optionTurns.push(t.index);
    markers = Math.max(markers, m); // choices are laid out in one turn; later mentions repeat them
    // Prices count as options only in turns that lay out choices (not a haggled single price).
    if (m > 0 || p.length > 1 || has(OPTIONS_START, t.norm)) p.forEach((x) => prices.add(x));
    if (!recommend && has(RECOMMEND, t.norm) && t.words >= 6) recommend = t;
    if (isOption || has(RECOMMEND, t.norm)) {
      if (has(TIE, t.norm)) ties++;
      overlap(ownerBefore, t.lemmas)
        .filter((w) => !TRADE_STAPLES.has(w))
        .forEach((w) => echoed.add(w));
    }
    if (has(PUSH, t.norm)) {
      push++;
      f.missteps.push({
        quote: quoteFrom(t, PUSH),
        turn: t.index,
        strength: 0.7,
        label: 'pushed one package',
      });
    }
    if (has(SOCIAL_STEER, t.norm)) steer++;
  }
  turns.forEach((t, i) => {
    if (t.role === 'assistant' && has(ASK_ALTERNATIVE, t.norm)) {
      const reply = nextRep(turns, i);
      if (
        reply &&
        (has(PUSH, reply.norm) || /\b(but|honest\w*)\b/.test(reply.norm)) &&
        distinctPrices(reply.text).length <= 1
      )
        refusedAlternative = true;
    }
  });

  // Spoken enumeration ("option one... two...") is the surer count; prices fill in when it is missing.
  // Spoken numbering ("one... two... or three") is the surest count; then distinct prices;
  // then looser markers.
  let ordinals = markers >= ORDINAL_BONUS ? markers - ORDINAL_BONUS : 0;
  // "There are two ways to go", "I can do two setups": the rep counts the choices out loud.
  for (const t of rep) {
    const m = t.norm.match(COUNTED_CHOICES);
    if (m) ordinals = Math.max(ordinals, ORDINAL_VALUE[m[1]] ?? 0);
  }
  // An upgrade offered beside the base job is a second option.
  if (ordinals < 2 && rep.some((t) => has(UPGRADE, t.norm)) && optionTurns.length) ordinals = 2;
  const optionCount = Math.min(
    4,
    ordinals >= 2
      ? Math.max(ordinals, Math.min(prices.size, ordinals + 1))
      : prices.size >= 2
        ? prices.size
        : Math.max(markers, prices.size, optionTurns.length ? 1 : 0),
  );

  const singlePush = optionTurns.length > 0 && (push > 0 || refusedAlternative) && optionCount <= 2;
  let score = [1, 3, 4.5, 6, 6][optionCount];
  score += prices.size >= 2 ? 1 : prices.size === 1 ? 0.5 : 0;
  if (recommend) score += 1.5;
  score += Math.min(2, ties * 0.7 + echoed.size * 0.3);
  score -= push * 1.5 + (refusedAlternative ? 2 : 0) + steer * 1;
  if (optionCount <= 1) score = Math.min(score, 4.5);
  // High means a recommendation among priced choices; turning down a simpler option is a push.
  if (!recommend) score = Math.min(score, 7);
  if (refusedAlternative) score = Math.min(score, 4);
  f.score = clamp(score);

  // Quote the turn that lays out the most choices.
  const richness = (t: Turn) => (choiceMarkers(t.norm) % ORDINAL_BONUS) + distinctPrices(t.text).length;
  const first = rep
    .filter((t) => optionTurns.includes(t.index))
    .sort((a, b) => richness(b) - richness(a) || a.index - b.index)[0];
  if (first)
    f.evidence.push({
      quote: quoteFrom(first, richness(first) ? ENUM : undefined),
      turn: first.index,
      strength: optionCount >= 3 ? 0.7 : 0.4,
      label: 'laid out the options',
    });
  if (recommend)
    f.evidence.push({
      quote: quoteFrom(recommend, RECOMMEND),
      turn: recommend.index,
      strength: 0.5 + Math.min(0.4, ties * 0.15 + echoed.size * 0.04),
      label: 'recommended one for a reason',
    });

  if (optionCount >= 2)
    f.positives.push(`presented ${optionCount} options${prices.size >= 2 ? ' with prices' : ''}`);
  if (recommend && !singlePush) f.positives.push('made a clear recommendation');
  if (ties + echoed.size >= 3 && !singlePush) f.positives.push('tied them to what the homeowner said');
  if (!optionTurns.length) f.gaps.push('never presented a solution or options');
  else if (optionCount <= 1) f.gaps.push('offered a single package instead of a choice');
  if (optionTurns.length && ties + echoed.size < 3)
    f.gaps.push("didn't tie the options to the homeowner's own needs");
  if (refusedAlternative) f.gaps.push('turned down a request for a simpler option');
  if (steer) f.gaps.push('steered with "what everyone else is doing" instead of their needs');
  if (optionTurns.length && prices.size < 2 && optionCount >= 2) f.gaps.push('gave no price for each option');
  return { finding: f, optionTurns, singlePush };
}

// ---------------------------------------------------------------- objections

/** The homeowner pushes back: what it is about decides the kind. */
const OBJECTION: { kind: string; re: RegExp }[] = [
  {
    kind: 'price',
    re: /\b(that s|thats|that is|it s|its) (a lot|too much|expensive|pricey|steep|more than|crazy|a big number)|\b(grand|thousand|hundred|price|number|quote) (is|s|seems|sounds) (a lot|too much|way too much|steep|expensive|pricey|high)\b|\b(too|so) (expensive|much money)|\bmore than (i|we) (was|were|expected|thought|wanted)|\bcan t afford|cant afford|\b(lot of|lotta) money\b|\bnot in (the|our) budget\b|\b(you re|youre|that s|thats|it s|its) (\w+ ){0,2}(thousand|grand|hundred|dollars|bucks) (more|over|higher)\b|\bjust (for you )?to (come )?look at it\b|\boh my goodness\b|\bdon t like touching savings\b/,
  },
  {
    kind: 'competitor',
    re: /\b(another|other|third|second) (company|contractor|quote|guy|companies|bid)|\bthe first guy\b|\bneighbou?r got (hers|his|theirs|it)\b|\bgetting (prices|quotes|bids)\b|\bcheaper (somewhere|elsewhere|online)\b|\b[a-z]+ quoted (me|us)\b|\b(my|our) (sister|brother|neighbou?r|friend) used them\b/,
  },
  {
    kind: 'stall',
    re: /\b(think (it|about it) over|think about it|sleep on it|not (today|tonight|right now)|not (signing|booking|deciding) anything|talk to my (wife|husband|partner|daughter|son)|want (my )?\w+ to (see|look at) it|show my (wife|husband|partner)|(husband|wife|partner) isn t|(husband|wife|partner) isnt|need to check with|get back to you|without (my )?(wife|husband|partner|son|daughter|[a-z]+)(?= (first|before|i|here|\.|$))|(can t|cant) (really )?decide|(wants?|needs?|would want|will want|ll want) to (see|look at) (it|some|the|them|samples)|i don t sign|i dont sign|on a first visit|both quotes|side by side|i ll think about it|ill think about it|not comfortable (signing|deciding))\b/,
  },
  {
    kind: 'trust',
    re: /\b(how do i know|ripped off|burned|burnt|scam|never saw (him|them) again|took a deposit|not handing anybody|every(one|body) says|is (that|it) even real|don t trust|dont trust|overpay|one of them|storm chasers?)\b/,
  },
  {
    kind: 'need',
    re: /\b(running fine|(it s|its|my \w+ s|my \w+s) fine|works fine|doesn t need|doesnt need|just needs a|probably just needs|nothing wrong with)\b/,
  },
  {
    kind: 'time',
    re: /\b(not a (great|good) time|bad timing|really bad time|gotta go|got to go|walking out the door|in a hurry|on a (work )?call|only (have|got) (a few|\w+) minutes|don t have (much |a lot of )?time)\b/,
  },
  {
    kind: 'worry',
    re: /\b(my worry|i m worried|im worried|worried (about|that)|nervous about|afraid (it|that)|my concern)\b/,
  },
].map((o) => ({ ...o, re: loose(o.re) }));
const CLARIFY_Q = loose(
  /\b(what|how|which|why|can i ask|can i see|do you know|was it|were those|is it|is there|what s|whats|tell me)\b/,
);
const CONFIRM = loose(
  /\b(does that (make sense|explain|help|answer|sound|work|cover|take care|make it|change|ease)|would that (make you feel|help|work|ease|address|take care)|how does that sound|is that (fair|helpful)|(is there )?(anything|something) else (holding|that would|stopping|on your mind|you d want|you would want|in their|i should)|did that answer|do you feel better|feel better about|feel good about it|is that on your mind)\b/,
);
const DISCOUNT = loose(
  /\b(take|knock|shave|drop) (\w+ )?(\w+ )?(off|down)\b|\b(i can|let me) (do|get you|go) (it for|down to|to)\b|\bdiscount\b|\bpromotional price\b|\bcall my manager\b|\b(he ll|hell|she ll|shell|they ll|theyll) go (to|down)\b|\bspecial (price|deal)\b|\bflexibility on\b|\bbeat (it|their|that|the|whatever|any)\b|\bmatch (whatever|their|it|any)\b|\b(percent|%) (off|under)\b/,
);
const RESPOND_REASON = loose(
  /\b(because|so that|which means|the reason|that s why|thats why|the difference|what that means|warranty|licen[cs]\w*|insured|insurance|reference\w*|photos|proof|samples?|guarantee|compared|versus|vs|label|rebate|financing|\d+ percent|zero percent|months|nothing s due|nothing due|no deposit|don t take a dime|look it up|come back|both home|both here|plastic|one day|credit|comes off)\b/,
);
const PRE_EMPT = loose(
  /\b(you might be (wondering|thinking)|a lot of (people|homeowners|folks) (worry|ask|wonder)|you re probably (wondering|thinking)|youre probably (wondering|thinking)|before you ask|the (usual|common) (worry|concern|question)|most people (worry|ask))\b/,
);

interface Episode {
  kind: string;
  start: number;
  quote: string;
  score: number;
  steps: string[];
  misstep?: Evidence;
  best?: Evidence;
}

// Relief is not push-back: "that's more than the other guys offered".
const NOT_OBJECTION = loose(
  /\b(that s|thats|that is|it s|its) (more|better) than (the |what )?(other|anyone|anybody)\b/,
);
const objectionKind = (t: Turn) =>
  has(NOT_OBJECTION, t.norm) ? undefined : OBJECTION.find((o) => o.re.test(t.norm))?.kind;

function detectObjections(turns: Turn[]): Finding & { raised: number; preEmpted: number; kinds: string[] } {
  const episodes: Episode[] = [];
  let lastEnd = -1;
  let preEmpted = 0;
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i];
    if (i <= lastEnd) continue;
    // A worry the rep raises and asks about ("a lot of folks worry about the mess, is that on your mind?").
    const preEmpt =
      t.role === 'user' && has(PRE_EMPT, t.norm) && /\?|\b(is|does|are|would|do)\b/.test(t.text);
    const kind = t.role === 'assistant' ? objectionKind(t) : preEmpt ? 'worry' : undefined;
    if (!kind) continue;
    if (preEmpt) preEmpted++;
    // The rep's handling: their turns until the homeowner raises a different objection, up to three.
    // Consecutive rep entries (a recogniser splits long turns) count as one reply; the episode
    // ends when the homeowner raises a different objection or accepts the answer.
    const reps: Turn[] = preEmpt ? [t] : [];
    const agreedAfter: boolean[] = [];
    let replies = 0;
    for (let j = i + 1; j < turns.length && replies < 3; j++) {
      const u = turns[j];
      if (u.role === 'assistant') {
        const k = objectionKind(u);
        if (k && k !== kind) break;
        const agreed = has(AGREES, u.norm) && !/^no\b/.test(u.norm);
        if (reps.length) agreedAfter[reps.length - 1] = agreed;
        if (agreed && reps.length > (preEmpt ? 1 : 0)) break;
        continue;
      }
      if (turns[j - 1]?.role !== 'user') replies++;
      reps.push(u);
    }
    lastEnd = reps.length ? reps[reps.length - 1].index : i;
    episodes.push(scoreEpisode(kind, t, reps, agreedAfter, preEmpt));
  }

  const f: Finding & { raised: number; preEmpted: number; kinds: string[] } = {
    score: 6,
    positives: [],
    gaps: [],
    evidence: [],
    missteps: [],
    raised: episodes.length,
    // Worst-handled first, so advice targets the objection that cost the most.
    kinds: [...episodes].sort((a, b) => a.score - b.score).map((e) => e.kind),
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
  const ep: Episode = { kind, start: objection.index, quote: quoteFrom(objection), score: 0, steps: [] };
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
    /^((oh|okay|ok|well) )*(yeah|yes|totally|fair|right|i hear|i understand|i get|of course|good question|great question)\b/.test(
      first.norm,
    );
  const clarify =
    preEmpt ||
    reps.some((r) =>
      findQuestions(r.text).some((q) => {
        const n = normalizeText(q.text);
        return (
          CLARIFY_Q.test(n) &&
          !has(LOGISTICS, n) &&
          !has(CONFIRM, n) &&
          !COMMIT.test(n) &&
          !ACT_DAY.test(n) &&
          !CLOCK.test(n)
        );
      }),
    );
  const handling = preEmpt ? reps.slice(1) : reps;
  const reasonWords = handling.reduce((n, r) => n + r.words, 0);
  const proposal = handling.some((r) => closeActs(r.text, r.norm).some((a) => a.kind === 'ask'));
  const respond =
    (reasonWords >= 12 && has(RESPOND_REASON, handling.map((r) => r.norm).join(' '))) ||
    reasonWords >= 40 ||
    proposal;
  const confirm =
    handling.some((r) => has(CONFIRM, r.norm)) ||
    /\bis (price|that|cost) the only thing\b/.test(all) ||
    (proposal && agreedAfter.some(Boolean));
  const discount = has(DISCOUNT, all);
  const argue = has(DISMISS, all);
  const pressure =
    has(FEAR_PRESSURE, all) ||
    has(DEADLINE, all) ||
    findPressurePhrases(reps.map((r) => r.text).join(' ')).some((p) => !/trust me/.test(p));
  const folded = !clarify && !respond;
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
      ? DISMISS
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

// ---------------------------------------------------------------- closing

const YES = AGREES;
const NO = DECLINES;

function detectClosing(turns: Turn[]): Finding & { firstAsk?: number } {
  const f: Finding & { firstAsk?: number } = {
    score: 0,
    positives: [],
    gaps: [],
    evidence: [],
    missteps: [],
  };
  let firm = 0;
  let soft = 0;
  let trial = 0;
  let trialYes = false;
  let accepted = false;
  let refusedThenExplored = false;
  let refusedAccepted = false;
  let deadline = false;
  let missedSignal = false;
  const deadlineTurn = turns.find((t) => t.role === 'user' && DEADLINE.test(t.norm));
  if (deadlineTurn) {
    deadline = true;
    f.missteps.push({
      quote: quoteFrom(deadlineTurn, DEADLINE),
      turn: deadlineTurn.index,
      strength: 0.9,
      label: 'leaned on a deadline',
    });
  }
  turns.forEach((t, i) => {
    if (t.role === 'assistant') {
      if (has(BUYING_SIGNAL, t.norm)) {
        const reply = nextRep(turns, i);
        if (!reply || !closeActs(reply.text, reply.norm).some((a) => a.kind === 'ask')) missedSignal = true;
      }
      return;
    }
    let acts = closeActs(t.text, t.norm);
    // Recogniser output splits a long turn: read a fragment with the rep's next fragment.
    const answer = turns[i + 1]?.role === 'assistant' ? turns[i + 1] : undefined;
    const agreed = !!answer && has(YES, answer.norm) && !/^no\b/.test(answer.norm);
    // The homeowner agreed to a day or a commitment the rep put to them: that was an ask.
    // The homeowner agreed to a day and time the rep put to them: that was an ask, whatever its form.
    if (!acts.some((a) => a.kind === 'ask') && agreed) {
      const put = splitSentences(t.text).find((s) => {
        const n = normalizeText(s);
        return (
          ACT_DAY.test(n) &&
          CLOCK.test(n) &&
          !/\b(i ll|ill|i will) (call|text|email|send)( you)?( on| around| at| by)? (monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight)\b/.test(
            n,
          )
        );
      });
      if (put) acts = [{ kind: 'ask', firm: true, deadline: false, sentence: put }, ...acts];
    }
    if (!acts.length) return;
    const ask = acts.find((a) => a.kind === 'ask' && a.firm) ?? acts.find((a) => a.kind === 'ask') ?? acts[0];
    if (ask.kind === 'ask') {
      if (f.firstAsk === undefined) f.firstAsk = i;
      if (ask.firm) firm++;
      else soft++;
    } else trial++;
    if (agreed) {
      if (ask.kind === 'ask') accepted = true;
      else trialYes = true;
    }
    if (answer && !agreed && has(NO, answer.norm) && ask.kind === 'ask') {
      const after = nextRep(turns, answer.index);
      if (
        after &&
        findQuestions(after.text).some(
          (q) => !has(LOGISTICS, normalizeText(q.text)) || COMMIT.test(normalizeText(q.text)),
        )
      )
        refusedThenExplored = true;
      else refusedAccepted = true;
    }
    const quote = ask.sentence.split(/\s+/).length <= 32 ? ask.sentence.trim() : quoteFrom(t, COMMIT);
    f.evidence.push({
      quote,
      turn: i,
      strength: ask.deadline ? 0.1 : ask.kind === 'ask' ? (ask.firm ? (agreed ? 0.85 : 0.7) : 0.45) : 0.4,
      label:
        ask.kind === 'trial'
          ? 'checked the fit before asking'
          : ask.firm
            ? agreed
              ? 'asked for a firm next step and got a yes'
              : 'asked for the decision'
            : 'floated a next step',
    });
  });

  let score: number;
  if (firm)
    score =
      8 +
      (accepted || refusedThenExplored ? 1 : 0) +
      (firm > 1 && (accepted || refusedThenExplored) ? 0.5 : 0);
  else if (soft) score = 5 + (accepted ? 1 : 0);
  else if (trial) score = 5 + (trialYes ? 1 : 0);
  else score = 1;
  if (refusedAccepted && !accepted && !refusedThenExplored) score = Math.min(score, 6);
  if (missedSignal) score -= firm ? 1 : 1.5;
  if (deadline) score = Math.min(score, 3);
  f.score = clamp(score);
  if (firm) f.positives.push('asked directly for a decision or a firm next step');
  else if (soft) f.positives.push('floated a next step without pinning it down');
  if (trial) f.positives.push('checked the fit with a trial close');
  if (accepted) f.positives.push('got a yes');
  if (refusedThenExplored) f.positives.push("asked what was holding them back after a 'no'");
  if (!firm && !soft)
    f.gaps.push(
      trial
        ? 'checked the fit but never asked for the decision or a next step'
        : 'never asked for the sale or a next step',
    );
  if (soft && !firm) f.gaps.push('the ask was too soft to commit anyone: no day, no decision');
  if (missedSignal) f.gaps.push('missed the homeowner asking what happens next');
  if (deadline) f.gaps.push('leaned on a deadline instead of the value');
  if (refusedAccepted && !accepted && !refusedThenExplored)
    f.gaps.push("took the first 'no' without finding out what was holding them back");
  return f;
}

// ---------------------------------------------------------------- follow-up

const DAY = loose(
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week|this week|weekend|january|february|march|april|may|june|july|august|september|october|november|december)\b/,
);
const DATE = loose(
  /\b(the )?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty[ -]\w+th|thirtieth|\d{1,2}(st|nd|rd|th))\b/,
);
const TIME = loose(
  /\b(\d{1,2}(:\d\d)? ?(a ?m|p ?m)\b|\d{1,2}:\d\d|at (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|\d{1,2})\b|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[ -](thirty|fifteen|forty[ -]five|oclock|o clock)|noon|(ten|nine|eight|\w+) (a m|p m|am|pm|in the morning|in the evening|in the afternoon)|around (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|\d{1,2}))\b(?! (hundred|thousand|grand|dollars|bucks|percent|years|minutes|windows|squares))/,
);
const VAGUE = loose(
  /\b(sometime|some time|at some point|down the road|go from there|be in touch|touch base|reach out|circle back|whenever)\b/,
);
const ATTENDEES = loose(
  /\b((you|me|i) and (\w+)|(\w+) and (me|i|you)|both of you|you both|(wife|husband|partner|\w+) (s|is|are)? ?(there|home) too|make sure (\w+) (is|s|are) there|it ll be me|itll be me|(project manager|advisor|installer|estimator|manager|technician)[\w ]{0,20}(comes?|will come|ll come|out))\b/,
);
const ACTION = loose(
  /\b(i ll|ill|i will|we ll|well|i m going to|im going to) (email|text|send|bring|drop|call|come|swing|leave|have)\b|\b(comes? out|final measure|load calc\w*|inspection|paperwork|contract|drawing|confirmation)\b/,
);
const AGREE = loose(
  /\b(sounds good|works|good|fine|sure|okay|ok|yes|yeah|see you|we re both home|were both home|home by|alright)\b/,
);

const FU_DECLINE = loose(/^((um|uh|well|oh) )*no\b|\bnot (booking|signing|interested)\b|\bif i want you\b/);
const DAY_WORD = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)\b/g;
/** A concrete thing the rep will send, one-sided but real ("I'll email you the quote tonight"). */
const SEND_PROMISE = loose(
  /\b(i ll|ill|i will|we ll|well) (email|send|text|drop off|mail) (you |over |it |them )?(the |a |our |over |it )?(\w+ )?(quote|paperwork|estimate|proposal|agreement|contract|numbers|sheet|details|photos|references|info)\b/,
);
/** Leaves the next move to the homeowner. */
const HAND_OFF = loose(
  /\b(you ve got my card|youve got my card|if you change your mind|(give|shoot) (us|me) a (call|text|ring)|call (us|me) (whenever|when you re ready|if)|whenever you re ready|whenever youre ready|at some point|check back)\b/,
);

function detectFollowUp(turns: Turn[], firstAskIndex?: number): Finding {
  const f: Finding = { score: 0, positives: [], gaps: [], evidence: [], missteps: [] };
  // The next step is set at the end of the visit: look at the last two fifths of the turns.
  const from = Math.min(Math.floor(turns.length * 0.6), firstAskIndex ?? Infinity);
  const tail = turns.filter((t) => t.index >= from);
  const rep = tail.filter((t) => t.role === 'user');
  let day = false;
  let date = false;
  let time = false;
  let attendees = false;
  let action = false;
  let vague = false;
  let agreed = false;
  let best: Turn | undefined;
  let bestPoints = 0;
  let sendPromise = false;
  let handOff = false;
  for (const t of rep) {
    if (has(SEND_PROMISE, t.norm)) sendPromise = true;
    if (has(HAND_OFF, t.norm)) handOff = true;
    // A day in a deadline pitch, or one the homeowner turned down, is not a next step.
    const answer = turns.slice(t.index + 1, t.index + 3).find((x) => x.role === 'assistant');
    const declined = !!answer && FU_DECLINE.test(answer.norm);
    if (has(DEADLINE, t.norm) || declined) continue;
    const d = has(DAY, t.norm);
    const dt = d && has(DATE, t.norm);
    const tm =
      has(TIME, t.norm) || (d && /\b(morning|afternoon|evening)\b/.test(t.norm) && has(TIME, t.norm));
    const at = has(ATTENDEES, t.norm) && d;
    const ac = has(ACTION, t.norm);
    day ||= d;
    date ||= dt;
    time ||= tm;
    attendees ||= at || (has(ATTENDEES, t.norm) && (day || time));
    action ||= ac;
    if (has(VAGUE, t.norm)) vague = true;
    if (d || tm) {
      if (answer && has(AGREE, answer.norm) && !/^(no|mm|mhm|mm hm)\b/.test(answer.norm)) agreed = true;
    }
    const pts = (d ? 2 : 0) + (tm ? 2 : 0) + (at ? 2 : 0) + (ac ? 1 : 0) + (dt ? 1 : 0);
    if (pts > bestPoints) {
      bestPoints = pts;
      best = t;
    }
  }
  // The homeowner naming the rep's day back ("Thursday, I guess") agrees to it too.
  const repDays = new Set(rep.flatMap((t) => t.norm.match(DAY_WORD) ?? []));
  if (
    tail.some(
      (t) =>
        t.role === 'assistant' &&
        (t.norm.match(DAY_WORD) ?? []).some((d) => repDays.has(d)) &&
        !FU_DECLINE.test(t.norm),
    )
  )
    agreed = true;
  let score: number;
  if (day || time) {
    score =
      5 +
      (time ? 1.5 : 0) +
      (attendees ? 1.5 : 0) +
      (agreed ? 1.5 : 0) +
      (action ? 0.5 : 0) +
      (date ? 0.5 : 0);
    if (!agreed) score = Math.min(score, 6);
    if (!attendees || !time) score = Math.min(score, 7);
  } else score = sendPromise ? 5 : vague ? 2 : action ? 3 : 1;
  if (handOff && !day && !time) score = Math.min(score, sendPromise ? 5 : 2);
  f.score = clamp(score);
  if (best)
    f.evidence.push({
      quote: quoteFrom(best, DAY),
      turn: best.index,
      strength: 0.3 + bestPoints / 16,
      label: 'set the next step',
    });
  else {
    const v = rep.find((t) => has(VAGUE, t.norm));
    if (v)
      f.missteps.push({ quote: quoteFrom(v, VAGUE), turn: v.index, strength: 0.6, label: 'vague follow-up' });
  }
  const parts = [
    day && 'a day',
    time && 'a time',
    attendees && 'who attends',
    action && 'what happens next',
  ].filter(Boolean) as string[];
  if (parts.length) f.positives.push(`named ${parts.join(', ')}`);
  if (agreed && (day || time)) f.positives.push('the homeowner agreed to it');
  if (!day) f.gaps.push('no day for the next step');
  if (day && !time) f.gaps.push('a day but no time');
  if ((day || time) && !attendees) f.gaps.push('nothing about who will be there');
  if ((day || time) && !agreed) f.gaps.push('the homeowner never agreed to it');
  if (vague && !day) f.gaps.push('"sometime" is not a next step');
  return f;
}

// ---------------------------------------------------------------- speaker check

const SELLING = loose(
  /\b(our (company|installs|warranty|crew|team|product|prices?)|we (install|offer|do about|have a special)|i m with|im with|with [a-z]+ (roofing|windows?|heating|exteriors|flooring|builders|construction|home)|get (it|you) on (the|our) schedule|(would|do) you (like|want) to (go ahead|get started))\b/,
);

function rolesLookSwapped(turns: Turn[]): boolean {
  const selling = (role: Turn['role']) =>
    turns.filter(
      (t) =>
        t.role === role &&
        (has(SELLING, t.norm) ||
          distinctPrices(t.text).length >= 2 ||
          choiceMarkers(t.norm) % ORDINAL_BONUS >= 2),
    ).length;
  const owner = selling('assistant');
  // Homeowners quote a price now and then; only a side that lays out prices and asks is selling.
  return owner >= 2 && owner > 2 * selling('user');
}

// ---------------------------------------------------------------- all

export function analyseConversation(
  entries: TranscriptEntry[],
  opts: { stage: string; personaName?: string },
): Analysis {
  const turns = buildTurns(entries);
  const rep = turns.filter((t) => t.role === 'user');
  const repWords = rep.reduce((n, t) => n + t.words, 0);
  const allWords = turns.reduce((n, t) => n + t.words, 0);
  const repShare = allWords ? repWords / allWords : 0.5;

  // Discovery ends where the rep first lays out a solution.
  const firstOption = turns.find(
    (t) =>
      t.role === 'user' &&
      (has(OPTIONS_START, t.norm) || choiceMarkers(t.norm) >= 2 || distinctPrices(t.text).length >= 1),
  );
  let discoveryEnd = firstOption ? firstOption.index : turns.length;
  // A recogniser may split the turn that lays out the options: start at the first piece.
  while (
    firstOption &&
    discoveryEnd > 0 &&
    turns[discoveryEnd - 1].role === 'user' &&
    !/[.?!]\s*$/.test(turns[discoveryEnd - 1].text)
  )
    discoveryEnd--;
  const questions = detectQuestions(turns, opts.stage);
  const opt = detectOptions(turns, discoveryEnd);
  const needs = detectNeeds(turns, questions, discoveryEnd, opt.singlePush, opts.stage);
  const closing = detectClosing(turns);
  return {
    stage: opts.stage,
    turns,
    rep,
    questions,
    discoveryEnd,
    optionTurns: opt.optionTurns,
    needAreasCovered: needs.covered,
    empathy: detectEmpathy(turns, repShare, opts.personaName),
    needs: needs.finding,
    options: opt.finding,
    objections: detectObjections(turns),
    closing,
    followUp: detectFollowUp(turns, closing.firstAsk),
    rolesLookSwapped: rolesLookSwapped(turns),
  };
}
