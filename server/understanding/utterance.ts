import { LoadedModel } from './classifier/logistic';
import { predictActs } from './classifier/acts-model';
import { combineActs, type ActSource, type ShippedModel } from './classifier/combine';
import { findEntities, type Entities } from './entities';
import { familyOf, type ActLabel, type CorpusTopic } from './labels';
import { takesLeave } from './readers/leave-taking';
import { DAY_NAMES } from './followups';
import { readByRules, type RuleReading } from './rules';
import { splitSentences } from './text/normalise';
import type { RepTurn } from './rep-turn';
import type { Speaker } from './types';
import trained from './classifier/model.json';

/**
 * One utterance as the whole product reads it: what it does (acts, in the corpus's labels), what
 * it is about (topics) and the detailed read the homeowner's policy works from. The homeowner,
 * the coach and the metrics all read conversation text through `understand`.
 */
export interface Utterance {
  text: string;
  speaker: Speaker;
  acts: ActLabel[];
  topics: CorpusTopic[];
  /** The money, days and times, and people it names, read with the line before as context. */
  entities: Entities;
  /** The detailed read of the turn: question form, topics asked, price named, requests... */
  turn: RepTurn;
  /** Probability of each act family and label from the learned classifier. */
  scores: ReadonlyMap<string, number>;
  /** The hand-written reading, kept for features and for explaining a decision. */
  rules: RuleReading;
}

export interface UnderstandContext {
  speaker: Speaker;
  /** The other speaker's line just before (text, or as already understood). */
  previous?: string | Utterance;
  /** First names of the homeowner's spouse or partner, when known. */
  spouseNames?: readonly string[];
}

let loaded: { model: LoadedModel; sources: Record<string, ActSource> } | null = null;
function shipped() {
  if (!loaded) {
    const m = trained as unknown as ShippedModel;
    loaded = { model: new LoadedModel(m), sources: m.sources ?? {} };
  }
  return loaded;
}

function previousOf(ctx: UnderstandContext): { text: string; rules: RuleReading } | undefined {
  if (ctx.previous === undefined) return undefined;
  if (typeof ctx.previous !== 'string') return { text: ctx.previous.text, rules: ctx.previous.rules };
  const other: Speaker = ctx.speaker === 'rep' ? 'homeowner' : 'rep';
  return { text: ctx.previous, rules: readByRules(ctx.previous, { speaker: other }) };
}

/** Reads one utterance: the rules first, then the learned classifier over them. */
export function understand(text: string, ctx: UnderstandContext): Utterance {
  const previous = previousOf(ctx);
  const rules = readByRules(text, {
    speaker: ctx.speaker,
    previous: previous?.rules,
    spouseNames: ctx.spouseNames,
  });
  const { model, sources } = shipped();
  const { acts: modelActs, scores } = predictActs(model, { text, speaker: ctx.speaker, rules, previous });
  return {
    text,
    speaker: ctx.speaker,
    acts: combineActs(rules.acts, modelActs, sources, rules.strong),
    topics: rules.topics,
    entities: findEntities(text, { speaker: ctx.speaker, previous: previous?.text }),
    turn: rules.turn,
    scores,
    rules,
  };
}

/** Whether the utterance does an act of this family ("proposal") or this exact label ("proposal:firm"). */
export function does(u: Pick<Utterance, 'acts'>, label: string): boolean {
  return label.includes(':') ? u.acts.includes(label as ActLabel) : u.acts.some((a) => familyOf(a) === label);
}

/** The model's goodbye probability under which the rules' leave-taking alone does not end a visit. */
const RULES_LEAVE_FLOOR = 0.25;

const DAY_ROLES_PUT_FORWARD = new Set(['proposed', 'agreed', 'confirmed']);

/**
 * Whether a turn puts a day forward for the next step: the rules read a close, or the reading
 * (rules or model) finds a proposal and the line names a day or time it offers, takes or repeats
 * ("Perfect, Thursday at eight it is"). A day that is history ("my wife called Tuesday") is not.
 */
export function putsDayForward(u: Utterance): boolean {
  if (u.turn.close || [...u.rules.strong].some((a) => familyOf(a) === 'proposal')) return true;
  if (does(u, 'proposal') && namesDay(u, DAY_ROLES_PUT_FORWARD)) return true;
  // "how bout mon or wed evening then, like 6": a day the entity reader finds offered, in a turn
  // that asks, is put forward even when the model reads only a question.
  return does(u, 'question') && namesDay(u, OFFERED_ROLE);
}

const OFFERED_ROLE = new Set(['proposed']);

/**
 * Whether the speaker talks of a day as settled: "Perfect, Friday at ten it is", "see you
 * Thursday then", "I'll put you down for Monday". From the rep, a booking assumed unless the
 * homeowner agreed to it.
 */
export function assumesBooking(u: Utterance): boolean {
  return does(u, 'proposal:assumed') || namesDay(u, SETTLED_ROLES);
}

const SETTLED_ROLES = new Set(['agreed', 'confirmed']);

/** The day names a visit can be held on ("today" and "tonight" name none ahead). */
const NAMED_DAYS = new Set(DAY_NAMES.filter((d) => d !== 'today' && d !== 'tonight'));

/**
 * A named day or a clock time in one of these roles. "Today" or "next week" alone is more often a
 * pitch or a hedge ("save you money today", "sometime next week") than a day to hold.
 */
function namesDay(u: Utterance, roles: ReadonlySet<string>): boolean {
  return u.entities.times.some(
    (t) => roles.has(t.role ?? '') && (t.time !== null || (t.day !== null && NAMED_DAYS.has(t.day))),
  );
}

/**
 * Whether a rep's turn ends the visit. A farewell said outright always does; a leave-taking the
 * reading finds in other words ("aight ttyl", "I'll let you get back to your evening") does when
 * the turn asks nothing more: no question but a tag ("that ok?"), no new day put forward, no price.
 */
export function endsVisit(u: Utterance): boolean {
  if (u.turn.goodbye || u.rules.strong.has('goodbye')) return true;
  // The rules' leave-taking counts when the model gives it a fair chance but reads the turn
  // otherwise ("aight ttyl" as agreement after a refusal, 0.4); "hold the deck till later" (0.08)
  // does not. The shape of the turn below still has to fit.
  const rulesLeave =
    u.rules.acts.has('goodbye') &&
    (u.scores.get('goodbye') ?? 0) >= RULES_LEAVE_FLOOR &&
    // "Cheers. Now, the fan and the door...": the leave-taking has to close the turn.
    takesLeave(splitSentences(u.text).at(-1) ?? u.text);
  if (!does(u, 'goodbye') && !rulesLeave) return false;
  const asks = u.acts.some((a) => familyOf(a) === 'question' && a !== 'question:tag');
  const proposes = u.acts.some((a) => familyOf(a) === 'proposal' && a !== 'proposal:assumed');
  // A price named ("about three hundred and fifty for the pair") is the visit going on.
  return !asks && !proposes && u.turn.price === null && u.entities.money.length === 0;
}

/**
 * Whether some sentence of a longer turn does this act on its own reading: the act a turn's last
 * line does ("...and not another cent until the materials arrive. Does that settle what's worrying
 * you?") can be lost in the reading of the whole turn. A one-sentence turn is its own reading.
 */
export function someSentenceDoes(text: string, speaker: Speaker, label: string): boolean {
  const sentences = splitSentences(text);
  if (sentences.length < 2) return does(understand(text, { speaker }), label);
  return sentences.some((s) => does(understand(s, { speaker }), label));
}
