import { dayWord } from './clock';
import { cueAt, cueEndingAt, cues } from './cues';
import namesData from './names.json';
import { tokenize, type Token } from './tokens';
import type { EntityContext, PersonEntity, Relation } from './types';

/**
 * People a line mentions, other than the speaker as "I": "my late husband Walter" (a spouse,
 * deceased), "I'm Sam with Apex" (the speaker introducing themselves), "Hi Linda" (the person
 * spoken to), "my son has to see it first" (a child who decides). A school, a street, a town, a
 * company, a brand or a pet is no person, and "N like Nancy" spells a letter.
 */

const P = (name: string) => cues('people', name);
const RELATION = P('RELATION');
const NEEDS_OWNER = P('NEEDS_OWNER');
const OWNER = P('OWNER');
const ADJECTIVE = P('ADJECTIVE');
const CONTRACTOR_NOUN = P('CONTRACTOR_NOUN');
const CONTRACTOR_BEFORE = P('CONTRACTOR_BEFORE');
const TITLE = P('TITLE');
const SELF_BEFORE = P('SELF_BEFORE');
const ADDRESS_BEFORE = P('ADDRESS_BEFORE');
const NOT_NAME = P('NOT_NAME');
const AFTER_NAME_PLACE = P('AFTER_NAME_PLACE');
const PLACE_BEFORE = P('PLACE_BEFORE');
const PET = P('PET');
const DECEASED = P('DECEASED');
const AWAY = P('AWAY');
const DECIDES = P('DECIDES');
const NOT_DECIDES = P('NOT_DECIDES');

const NAMES = new Set((namesData as { names: string[] }).names);

/** Relation words, longest first, as token sequences. */
const RELATION_FORMS: { words: string[]; relation: Relation }[] = [
  ...RELATION.words,
  ...RELATION.phrases.map((p) => p.join(' ')),
]
  .map((e) => {
    const [form, relation] = e.split('=');
    return { words: form.split(/[ -]/), relation: relation as Relation };
  })
  .sort((a, b) => b.words.length - a.words.length);

interface Mention {
  i: number;
  j: number;
  name: string | null;
  relation: Relation;
  status: PersonEntity['status'];
  decides: boolean | null;
  /** Index of the relation word (for cues near it). */
  head: number;
}

const COPULA = new Set([
  "you're",
  'youre',
  'are',
  'is',
  'was',
  'were',
  "i'm",
  'im',
  'am',
  "he's",
  "she's",
  'be',
  'been',
  "that's",
  'thats',
  "it's",
  'its',
]);

const FAMILY: Relation[] = ['spouse', 'partner', 'child', 'parent', 'sibling', 'grandchild', 'relative'];

function relationAt(tokens: Token[], i: number): { relation: Relation; end: number } | null {
  for (const f of RELATION_FORMS) {
    let ok = true;
    for (let k = 0; k < f.words.length && ok; k++) ok = tokens[i + k]?.base === f.words[k];
    if (ok) return { relation: f.relation, end: i + f.words.length - 1 };
  }
  return null;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

/** Whether the line is written with capitals (clean text), so a capital means something. */
function cased(tokens: Token[]): boolean {
  return tokens.some((t) => t.capital && t.raw !== 'I');
}

/** A name at token i, in a frame that expects one ("I'm __", "Hi __", "my wife __"). */
function nameAt(tokens: Token[], i: number, isCased: boolean): { name: string; end: number } | null {
  const t = tokens[i];
  if (!t || t.digits || t.base.length < 2) return null;
  if (cueAt(tokens, i, NOT_NAME) || dayWord(t)) return null;
  // "LVP", "HVAC": letters, not a name.
  if (t.raw.length > 1 && t.raw === t.raw.toUpperCase()) return null;
  const known = NAMES.has(t.base);
  if (!(t.capital || known || !isCased)) return null;
  if (!known && !t.capital && isCased) return null;
  if (!known && !t.capital && !/^[a-z]+$/.test(t.base)) return null;
  let end = i;
  let name = cap(t.base);
  if (!isCased && !known) return null;
  // "Dale Brandt", "ana martinez": a surname straight after.
  const n = tokens[i + 1];
  if (
    n &&
    !/[,.;!?]/.test(t.after) &&
    !cueAt(tokens, i + 1, NOT_NAME) &&
    !n.digits &&
    !cueAt(tokens, i + 1, AFTER_NAME_PLACE)
  ) {
    if (
      (isCased && n.capital && !dayWord(n)) ||
      (!isCased && NAMES.has(t.base) && isSurnameSlot(tokens, i + 1))
    ) {
      end = i + 1;
      name = `${name} ${cap(n.base)}`;
    }
  }
  if (cueAt(tokens, end + 1, AFTER_NAME_PLACE) && !/[,.;!?]/.test(tokens[end].after)) return null;
  return { name, end };
}

/** In a frame ("this is priya from ..."), an unknown lowercase word followed by "from", a comma or the end. */
function framedName(tokens: Token[], i: number, isCased: boolean): { name: string; end: number } | null {
  const t = tokens[i];
  if (isCased || !t || t.digits || t.base.length < 2 || cueAt(tokens, i, NOT_NAME) || dayWord(t)) return null;
  if (!/^[a-z]+$/.test(t.base)) return null;
  const next = tokens[i + 1];
  const closes =
    !next || /[,.;!?]/.test(t.after) || ['from', 'frm', 'with', 'w', 'here', 'at'].includes(next.base);
  return closes ? { name: cap(t.base), end: i } : null;
}

/** In lowercase text, "ana martinez, we decided": a surname is followed by a break or "from"/"with". */
function isSurnameSlot(tokens: Token[], k: number): boolean {
  const t = tokens[k];
  if (NAMES.has(t.base) || cueAt(tokens, k, RELATION.words.size ? NOT_NAME : NOT_NAME)) return false;
  return /[,.;!?]/.test(t.after) || ['from', 'with', 'w', 'frm', 'here'].includes(tokens[k + 1]?.base ?? '');
}

/** Tokens that spell ("N like Nancy", "W-O-J, like Walter, Oscar, John"): no people. */
function spelled(tokens: Token[]): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const w = t.base;
    if (w !== 'like' && !(w === 'as' && tokens[i + 1]?.base === 'in') && w !== 'for') continue;
    const prev = tokens[i - 1];
    const letter = prev && prev.raw.length === 1 && /[a-z]/i.test(prev.raw);
    if (!letter) continue;
    let k = w === 'as' ? i + 2 : i + 1;
    // The spelled words and any list after them ("like Walter, Oscar, John").
    while (tokens[k] && !tokens[k].digits) {
      out.add(k);
      if (!/,/.test(tokens[k].after) && tokens[k + 1]?.base !== 'and') break;
      k += tokens[k + 1]?.base === 'and' ? 2 : 1;
      if (tokens[k] && tokens[k].raw.length === 1) break;
    }
  }
  return out;
}

/** "my late husband Walter", "your neighbor across the street", "the kids", "three kids". */
function readRelations(tokens: Token[], isCased: boolean, out: Mention[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const rel = relationAt(tokens, i);
    if (!rel) continue;
    const mention = relationMention(tokens, i, rel, isCased);
    if (mention) {
      out.push(mention);
      i = mention.j;
    }
  }
}

function ownerStart(tokens: Token[], i: number): { start: number; owner: string | null } {
  let k = i - 1;
  while (k >= 0 && cueEndingAt(tokens, k, ADJECTIVE) && !/[,.;!?]/.test(tokens[k].after)) k--;
  // "2 roommates", "three kids": a number is owner enough.
  const counted = k + 1 < i && (!!tokens[k + 1].digits || cueAt(tokens, k + 1, OWNER) > 0);
  if (k < 0 || /[,.;!?]/.test(tokens[k].after) || !cueEndingAt(tokens, k, OWNER)) {
    if (counted) return { start: k + 1, owner: tokens[k + 1].base };
    return { start: i, owner: null };
  }
  const n = cueEndingAt(tokens, k, OWNER);
  if (n) return { start: k - n + 1, owner: tokens[k].base };
  return { start: i, owner: null };
}

function relationMention(
  tokens: Token[],
  i: number,
  rel: { relation: Relation; end: number },
  isCased: boolean,
): Mention | null {
  const t = tokens[i];
  const { start, owner } = ownerStart(tokens, i);
  // "you guys", "the guys" from a homeowner, "a family": no one in particular.
  if (t.base === 'guys' && owner !== 'my' && owner !== 'our' && owner !== 'the') return null;
  if (t.base === 'boss' && !['my', 'our', 'your', 'ur'].includes(owner ?? '')) return null;
  // "My dad was a roofer", "you're the roofing guy": said of someone, not someone else.
  const before = tokens[start - 1];
  if ((owner === 'a' || owner === 'an' || owner === 'the') && before && COPULA.has(before.norm)) return null;
  // "Brother, ...", "Trust me, my friend, ...": a way of speaking to the listener.
  const opens = start === 0 || /[,.;!?]/.test(tokens[start - 1].after);
  const vocative = ['brother', 'friend', 'buddy', 'pal', 'sister', 'bro'].includes(t.base);
  if (opens && vocative && /,/.test(tokens[rel.end].after) && (!owner || owner === 'my')) return null;
  if (!owner && cueAt(tokens, i, NEEDS_OWNER)) {
    // "adjuster missed it", "wife says go ahead": a bare noun opening the line is still someone.
    if (!(i === 0 && ['adjuster', 'wife', 'husband', 'kid', 'kids'].includes(t.base))) return null;
  }
  let relation = rel.relation;
  if (owner === 'his' || owner === 'her' || owner === 'their') {
    // "her mom's", "his son": someone else's family is "other" to this household.
    if (FAMILY.includes(relation)) relation = 'other';
  }
  if (t.base === 'family' && (owner === 'the' || owner === 'a' || owner === 'another')) relation = 'other';
  if (t.base === 'owner' && tokens[i + 1]?.base === 'of' && tokens[i + 3]?.base === 'company')
    relation = 'colleague';
  let j = rel.end;
  let name: string | null = null;
  // "my husband Ron", "our landlord mister delgado", "a student, Kenji".
  let k = j + 1;
  if (/,/.test(tokens[j].after) && tokens[k] && isCased && tokens[k].capital) k = j + 1;
  else if (/[,.;!?]/.test(tokens[j].after)) k = -1;
  if (k > 0 && cueAt(tokens, k, TITLE)) {
    const sur = tokens[k + 1];
    if (sur && !sur.digits && (sur.capital || !isCased)) {
      name = cap(sur.base);
      j = k + 1;
    }
  } else if (k > 0) {
    const n = nameAt(tokens, k, isCased);
    if (n && (isCased ? tokens[k].capital : NAMES.has(tokens[k].base))) {
      name = n.name.split(' ')[0];
      j = k;
    }
  }
  return { i: start, j, name, relation, status: null, decides: null, head: i };
}

/** "the last guy", "the guy from Carpet One", "The man before you", "a local guy". */
function readContractors(tokens: Token[], out: Mention[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const n = cueAt(tokens, i, CONTRACTOR_NOUN);
    if (!n) continue;
    const before = cueEndingAt(tokens, i - 1, CONTRACTOR_BEFORE);
    const from = tokens[i + n]?.base === 'from' && !/[,.;!?]/.test(tokens[i + n - 1].after);
    const beforeYou = tokens[i + n]?.base === 'before' && tokens[i + n + 1]?.base === 'you';
    // "the Home Depot guy": a company's name before him.
    let named = 0;
    while (
      tokens[i - named - 1]?.capital &&
      i - named - 1 > 0 &&
      !/[,.;!?]/.test(tokens[i - named - 1].after)
    )
      named++;
    if (named && !['the', 'a', 'that'].includes(tokens[i - named - 1]?.base ?? '')) named = 0;
    if (!before && !from && !beforeYou && !named) continue;
    // "You must be the fella from Hometown": that is the rep.
    const lead = tokens
      .slice(Math.max(0, i - 5), i)
      .map((t) => t.norm)
      .join(' ');
    if (/\b(you're|youre|you are|your the|are you|you must be|must be)\b/.test(lead)) continue;
    if (tokens[i].base === 'one' && !before) continue;
    if (tokens[i].base === 'company' || tokens[i].base === 'outfit' || tokens[i].base === 'one') continue;
    let start = i - (before ? before : named);
    if (['the', 'a', 'that', 'this'].includes(tokens[start - 1]?.base ?? '')) start--;
    const end = from ? Math.min(tokens.length - 1, i + n + 1) : beforeYou ? i + n + 1 : i + n - 1;
    out.push({ i: start, j: end, name: null, relation: 'contractor', status: null, decides: null, head: i });
    i = end;
  }
}

interface Found {
  mentions: Mention[];
  end: number;
}

const mention = (i: number, j: number, name: string | null, relation: Relation, head = i): Mention => ({
  i,
  j,
  name,
  relation,
  status: null,
  decides: null,
  head,
});

/** Titles: "Mrs. Peterson", "mister hassan", "I'm Mrs. Nowak". */
function titleAt(tokens: Token[], i: number, isCased: boolean): Found | null {
  const sur = tokens[i + 1];
  if (!cueAt(tokens, i, TITLE) || !sur || sur.digits || cueAt(tokens, i + 1, NOT_NAME)) return null;
  if (isCased && !sur.capital) return null;
  const self = cueEndingAt(tokens, i - 1, SELF_BEFORE) > 0;
  return { mentions: [mention(i, i + 1, cap(sur.base), self ? 'self' : 'addressee')], end: i + 1 };
}

/** "I'm Sam", "this is Dana", "Hi Linda", "you must be Carol", "You're Kenji and Ava?". */
function cuedNameAt(tokens: Token[], i: number, isCased: boolean): Found | null {
  const selfCue = cueEndingAt(tokens, i - 1, SELF_BEFORE);
  const addressCue = cueEndingAt(tokens, i - 1, ADDRESS_BEFORE);
  if (!selfCue && !addressCue) return null;
  if (i > 0 && /[.;!?]/.test(tokens[i - 1].after)) return null;
  const t = tokens[i];
  const n = nameAt(tokens, i, isCased) ?? framedName(tokens, i, isCased);
  if (!n) return null;
  // "its" and "this is" introduce the speaker only near the start of a line or sentence.
  const cueStart = i - (selfCue || addressCue);
  const sentenceStart =
    cueStart === 0 ||
    /[.;!?,]/.test(tokens[cueStart - 1].after) ||
    ['hi', 'hey', 'hello'].includes(tokens[cueStart - 1]?.base ?? '');
  if (selfCue && ['its', 'this'].includes(tokens[cueStart].base) && !sentenceStart && cueStart > 3)
    return null;
  const weak = ['ok', 'okay', 'alright', 'right', 'listen', 'look', 'sorry', 'u', 'ur', 'see'].includes(
    tokens[i - 1].base,
  );
  const closes = /[,.?!]/.test(tokens[n.end].after) || !tokens[n.end + 1];
  if (addressCue && weak && !((NAMES.has(t.base) || (isCased && t.capital)) && closes)) return null;
  const relation: Relation = selfCue ? 'self' : 'addressee';
  const found: Found = { mentions: [mention(i, n.end, n.name, relation)], end: n.end };
  // "You're Kenji and Ava?": a second name joined on.
  if (tokens[n.end + 1]?.base === 'and') {
    const k = n.end + 2;
    const m = nameAt(tokens, k, isCased);
    if (m && (NAMES.has(tokens[k].base) || tokens[k].capital)) {
      found.mentions.push(mention(k, m.end, m.name, relation));
      found.end = m.end;
    }
  }
  return found;
}

/** "Dale Brandt, Heartland Roofing." / "dale from heartland": a rep naming themselves. */
function selfIntroAt(tokens: Token[], i: number, isCased: boolean, ctx: EntityContext): Found | null {
  const sentenceStart = i === 0 || /[.;!?,]/.test(tokens[i - 1].after);
  if (!sentenceStart || ctx.speaker === 'homeowner') return null;
  const n = nameAt(tokens, i, isCased);
  if (!n || !(NAMES.has(tokens[i].base) || (isCased && n.end > i))) return null;
  const after = tokens[n.end + 1];
  if (!after) return null;
  const company =
    ['from', 'frm', 'with', 'w', 'here'].includes(after.base) ||
    (/,/.test(tokens[n.end].after) && after.capital && cueAt(tokens, n.end + 2, AFTER_NAME_PLACE) > 0);
  return company ? { mentions: [mention(i, n.end, n.name, 'self')], end: n.end } : null;
}

/** "the Hendersons", "the Patels": a family named, the neighbours. */
function familyAt(tokens: Token[], i: number, isCased: boolean): Found | null {
  const f = tokens[i + 1];
  if (tokens[i].base !== 'the' || !isCased || !f || !f.capital || !/s'?$/.test(f.raw) || f.base.length <= 3)
    return null;
  if (cueAt(tokens, i + 1, NOT_NAME) || cueAt(tokens, i + 2, AFTER_NAME_PLACE)) return null;
  const stem = f.raw.replace(/'$/, '').replace(/s$/, '').replace(/'s$/, '');
  if (!/^[A-Z][a-z]+$/.test(stem)) return null;
  return { mentions: [mention(i, i + 1, stem, 'neighbour', i + 1)], end: i + 1 };
}

/** "I'm Sam with Apex", "Hi Linda", "Mr. Jensen", "you must be Carol", "the Hendersons". */
function readFramedNames(tokens: Token[], isCased: boolean, ctx: EntityContext, out: Mention[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const found =
      titleAt(tokens, i, isCased) ??
      cuedNameAt(tokens, i, isCased) ??
      selfIntroAt(tokens, i, isCased, ctx) ??
      familyAt(tokens, i, isCased);
    if (!found) continue;
    out.push(...found.mentions);
    i = found.end;
  }
}

/** A name said on its own: "I'm sorry about Walter", "gotta show jamal the pics", "..., Marcus." */
function readBareNames(
  tokens: Token[],
  isCased: boolean,
  taken: (k: number) => boolean,
  skip: Set<number>,
  prev: PersonEntity[],
  out: Mention[],
): void {
  const pets = tokens.some((_, k) => cueAt(tokens, k, PET) > 0);
  for (let i = 0; i < tokens.length; i++) {
    if (taken(i) || skip.has(i)) continue;
    const t = tokens[i];
    if (t.digits || t.base.length < 2 || cueAt(tokens, i, NOT_NAME) || dayWord(t)) continue;
    const fromPrev = prev.find((p) => p.name && p.name.toLowerCase().split(' ')[0] === t.base);
    const known = NAMES.has(t.base);
    const sentenceStart = i === 0 || /[.;!?]/.test(tokens[i - 1].after);
    if (isCased && !t.capital) continue;
    if (!fromPrev && !known) continue;
    if (!fromPrev && !isCased && AMBIGUOUS_LOWER.has(t.base)) continue;
    if (!fromPrev && cueEndingAt(tokens, i - 1, PLACE_BEFORE) && !/[,;]/.test(tokens[i - 1].after)) continue;
    if (tokens[i - 1]?.digits) continue;
    if (cueAt(tokens, i + 1, AFTER_NAME_PLACE) && !/[,.;!?]/.test(t.after)) continue;
    if (!fromPrev && pets) continue;
    if (
      !fromPrev &&
      sentenceStart &&
      isCased &&
      !/[,?!]/.test(t.after) &&
      !['s'].includes(t.clitic) &&
      !VERBISH.has(tokens[i + 1]?.base ?? '')
    )
      continue;
    let relation: Relation = 'other';
    let status: PersonEntity['status'] = null;
    if (fromPrev) {
      relation =
        fromPrev.relation === 'self'
          ? 'addressee'
          : fromPrev.relation === 'addressee'
            ? 'self'
            : fromPrev.relation;
      if (fromPrev.relation === 'addressee') relation = 'other';
      status = fromPrev.status;
    }
    // ", Marcus." at the end of a sentence: the person spoken to.
    const vocative = /,/.test(tokens[i - 1]?.after ?? '') && (/[,.!?]/.test(t.after) || !tokens[i + 1]);
    if (vocative && (!fromPrev || fromPrev.relation === 'self')) relation = 'addressee';
    out.push({ i, j: i, name: cap(t.base), relation, status, decides: null, head: i });
  }
}

/** Lowercase words that are names only in a frame ("mark it down", "will do"). */
const AMBIGUOUS_LOWER = new Set([
  'mark',
  'grant',
  'grace',
  'don',
  'jack',
  'sue',
  'pat',
  'chase',
  'drew',
  'wade',
  'skip',
  'angel',
  'ed',
  'rob',
  'nick',
  'lee',
  'kim',
  'carol',
  'amber',
  'heather',
  'glen',
  'heath',
  'taylor',
  'mason',
  'tanner',
  'marshall',
  'jefferson',
  'madison',
  'austin',
  'houston',
  'sydney',
  'carolina',
  'virginia',
  'jordan',
  'chad',
  'bob',
  'ben',
  'dale',
  'sam',
  'van',
  'art',
  'guy',
  'ray',
  'jan',
  'max',
  'major',
  'earl',
  'rocky',
  'sandy',
  'penny',
  'holly',
  'ivy',
  'lily',
  'daisy',
  'robin',
  'ruby',
  'pearl',
  'misty',
  'cliff',
  'brook',
  'summer',
  'autumn',
  'dawn',
  'faith',
  'hope',
  'joy',
  'crystal',
  'ginger',
  'candy',
  'honey',
  'sky',
  'star',
  'storm',
  'river',
  'chance',
  'king',
  'prince',
  'duke',
  'bishop',
  'baker',
  'carter',
  'cook',
  'porter',
  'hunter',
  'fisher',
  'walker',
  'parker',
  'cooper',
  'miles',
]);

const VERBISH = new Set([
  'is',
  'was',
  'said',
  'says',
  'did',
  'does',
  'has',
  'had',
  'will',
  'would',
  'can',
  'could',
  'passed',
  'picked',
  'thinks',
  'wants',
  'got',
  'and',
  'called',
  'told',
  'loves',
  'likes',
  'went',
  'came',
  'lives',
  'works',
  'on',
]);

function sentenceOf(tokens: Token[], k: number): [number, number] {
  let a = k;
  while (a > 0 && !/[.;!?]/.test(tokens[a - 1].after)) a--;
  let b = k;
  while (b < tokens.length - 1 && !/[.;!?]/.test(tokens[b].after)) b++;
  return [a, b];
}

function nearestMention(
  mentions: Mention[],
  k: number,
  sameSentence: [number, number] | null,
  kinds?: Relation[],
): Mention | null {
  let best: Mention | null = null;
  for (const m of mentions) {
    if (kinds && !kinds.includes(m.relation)) continue;
    if (sameSentence && (m.head < sameSentence[0] || m.head > sameSentence[1])) continue;
    const d = m.head <= k ? k - m.head : (m.head - k) * 1.5;
    if (!best || d < (best.head <= k ? k - best.head : (best.head - k) * 1.5)) best = m;
  }
  return best;
}

const STATUS_KINDS: Relation[] = [...FAMILY, 'friend', 'neighbour', 'landlord', 'tenant', 'other'];

/** Status and say: "my late husband", "he passed in March", "my son has to see it first". */
function applyCues(tokens: Token[], mentions: Mention[]): void {
  for (let k = 0; k < tokens.length; k++) {
    // "show jamal the pics", "ask my wife": a person shown or asked has a say.
    if (['show', 'ask', 'showing'].includes(tokens[k].base)) {
      const m = mentions.find((x) => x.i === k + 1 || x.i === k + 2);
      if (m && m.decides === null && m.relation !== 'self' && m.relation !== 'addressee') m.decides = true;
    }
    if (cueAt(tokens, k, DECEASED)) {
      const m =
        tokens[k].base === 'late' ? mentions.find((x) => x.i <= k && x.j >= k) : nearestBefore(mentions, k);
      if (m && STATUS_KINDS.includes(m.relation)) m.status = 'deceased';
    }
  }
  for (let k = 0; k < tokens.length; k++) {
    if (!cueAt(tokens, k, AWAY)) continue;
    const m = nearestMention(mentions, k, sentenceOf(tokens, k), STATUS_KINDS);
    if (m && !m.status && Math.abs(m.head - k) <= 12) m.status = 'away';
  }
  const SAY_KINDS: Relation[] = [...FAMILY, 'landlord', 'friend', 'other', 'neighbour'];
  for (let k = 0; k < tokens.length; k++) {
    const no = cueAt(tokens, k, NOT_DECIDES);
    const yes = !no && cueAt(tokens, k, DECIDES);
    if (!no && !yes) continue;
    const m = nearestMention(mentions, k, sentenceOf(tokens, k), SAY_KINDS);
    if (m && m.decides === null && !(m.relation === 'other' && !m.name && m.head > k)) m.decides = !!yes;
    k += (no || Number(yes)) - 1;
  }
}

function nearestBefore(mentions: Mention[], k: number): Mention | null {
  let best: Mention | null = null;
  for (const m of mentions)
    if (m.head < k && STATUS_KINDS.includes(m.relation) && (!best || m.head > best.head)) best = m;
  return best ?? nearestMention(mentions, k, null, STATUS_KINDS);
}

export function findPeople(text: string, ctx: EntityContext = {}): PersonEntity[] {
  const tokens = tokenize(text);
  if (!tokens.length) return [];
  const isCased = cased(tokens);
  const prev = ctx.previous
    ? findPeople(ctx.previous, { speaker: ctx.speaker === 'rep' ? 'homeowner' : 'rep' })
    : [];
  const skip = spelled(tokens);
  const mentions: Mention[] = [];
  readRelations(tokens, isCased, mentions);
  readContractors(tokens, mentions);
  const framed: Mention[] = [];
  readFramedNames(tokens, isCased, ctx, framed);
  const all = dedupe([...mentions, ...framed]);
  const taken = (k: number) => all.some((m) => m.i <= k && m.j >= k);
  const bare: Mention[] = [];
  readBareNames(tokens, isCased, taken, skip, prev, bare);
  const result = dedupe([...all, ...bare]).filter((m) => !skip.has(m.head));
  applyCues(tokens, result);
  carryStatus(result, prev);
  if (!result.length) result.push(...pronounCarry(tokens, prev));
  return result
    .sort((a, b) => a.i - b.i)
    .map((m) => {
      const start = tokens[m.i].start;
      const end = tokens[m.j].end;
      return {
        start,
        end,
        text: text.slice(start, end),
        name: m.name,
        relation: m.relation,
        status: m.status,
        decides: m.decides,
      };
    });
}

const PRONOUN = new Set(['he', 'she', 'him', 'her']);

/**
 * "He passed in March." after "Is your husband joining us?": the person the line before named,
 * referred to by a pronoun, with what this line says of them.
 */
function pronounCarry(tokens: Token[], prev: PersonEntity[]): Mention[] {
  const family = prev.filter((p) => STATUS_KINDS.includes(p.relation));
  if (family.length !== 1) return [];
  const k = tokens.findIndex((t) => PRONOUN.has(t.norm));
  if (k < 0) return [];
  const m: Mention = {
    i: k,
    j: k,
    name: family[0].name,
    relation: family[0].relation,
    status: null,
    decides: null,
    head: k,
  };
  applyCues(tokens, [m]);
  return m.status || m.decides !== null ? [m] : [];
}

/** "I'm sorry about your husband" after "my late husband": the status said before holds. */
function carryStatus(mentions: Mention[], prev: PersonEntity[]): void {
  for (const m of mentions) {
    if (m.status || m.name) continue;
    const p = prev.find((x) => x.relation === m.relation && x.status === 'deceased');
    if (p) m.status = p.status;
  }
}

function dedupe(mentions: Mention[]): Mention[] {
  const sorted = [...mentions].sort((a, b) => a.i - b.i || b.j - a.j);
  const out: Mention[] = [];
  for (const m of sorted) {
    const clash = out.find((o) => m.i <= o.j && m.j >= o.i);
    if (!clash) out.push(m);
    else if (m.j - m.i > clash.j - clash.i && m.relation !== 'other') out.splice(out.indexOf(clash), 1, m);
  }
  return out;
}
