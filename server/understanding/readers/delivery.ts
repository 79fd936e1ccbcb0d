import { looseContractions, normalizeText } from '../text/normalise';

const FILLER_PATTERNS: RegExp[] = [
  /\b(um+|uh+|uhm+|umm+|erm+|er|ah+|hmm+|mm+)\b/g,
  /\b(basically|literally)\b/g,
  /(^|[^a-z] )i mean\b/g,
];

/** Counts filler words; "like" counts only when commas mark it as a filler (", like,"). */
export function countFillers(text: string): number {
  const lower = text.toLowerCase();
  let n = (lower.match(/,\s*like\s*,/g) ?? []).length;
  // "you know" is a filler when set off by punctuation, or (without punctuation) when it
  // neither follows a question word nor takes an object.
  for (const m of lower.matchAll(/(\b[a-z']+\s+)?\byou know\b([\s,.!?]*)([a-z']*)/g)) {
    if (/^(do|did|if|as|would|won'?t|don'?t|didn'?t|now|what)\s+$/.test(m[1] ?? '')) continue;
    if (/[,.!?]/.test(m[2]) || !m[3]) n++;
    else if (
      !/^(what|how|why|when|where|who|that|if|about|the|a|it|him|her|them|my|your|our|this|those)$/.test(m[3])
    )
      n++;
  }
  const norm = normalizeText(text);
  for (const re of FILLER_PATTERNS) n += (norm.match(re) ?? []).length;
  return n;
}

/** Phrases that pressure the buyer (made-up deadlines, fear of missing out, "trust me"). */
const PRESSURE_PATTERNS: RegExp[] = (
  [
    /\b(only|just) (good|valid|available|works?) (for )?(today|tonight|right now|this evening)\b/,
    /\b(price|offer|deal|discount|promotion|special)( is| s)? (only )?(good|valid) (until|till|through) (midnight|tonight|today)\b/,
    /\b(today|tonight) only\b/,
    /\bonly (if we do it |if you sign )?(today|tonight)\b/,
    /\bsign(ed|ature)? (it |this |the paperwork |up )?(today|tonight|right now|before i leave)\b/,
    /\b(paperwork|signature) (done |signed )?(today|tonight)\b/,
    /\b(price|offer|deal|discount|that) (goes away|expires|disappears|is gone|goes back up|goes back to)\b/,
    /\bafter (midnight|tonight|today)\b/,
    /\bmiss out\b/,
    /\blast chance\b/,
    /\blimited time\b/,
    /\bwont last\b/,
    /\bact (now|fast|quickly)\b/,
    /\btrust me\b/,
    /\b(neighbors?|neighbours?|everyone|everybody)( on your street)? (already )?(locked|signed|jumped|grabbed|got in)\b/,
    /\bif i (walk|leave) out (that|the|this) door\b/,
    /\b(before|until) (it s|its|the price is) too late\b/,
    /\byou d be (crazy|foolish|silly) (not )?to\b/,
    /\bnow or never\b/,
  ] as RegExp[]
).map(looseContractions);

/** The pressure phrases found in the text (normalized), in order. */
export function findPressurePhrases(text: string): string[] {
  const norm = normalizeText(text);
  const found: string[] = [];
  for (const re of PRESSURE_PATTERNS) {
    const m = norm.match(re);
    if (m) found.push(m[0]);
  }
  return found;
}
