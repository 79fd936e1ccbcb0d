import type { Evidence } from '../../../understanding/call-facts';

/**
 * A value a coaching line may name, with the words of the call it comes from. Only grounded
 * values fill a line: a name, a day, a price, the homeowner's problem as a short phrase, a quote.
 */
export interface Grounded {
  value: string;
  evidence: Evidence[];
}

/** A slot a rendered line filled, kept so an audit can trace every value to the call. */
export interface FilledSlot extends Grounded {
  slot: string;
}

export type Values = Record<string, Grounded | string | null | undefined>;

export interface Rendered {
  text: string;
  slots: FilledSlot[];
}

/**
 * Fills a template: `{name}` takes a value; `[...]` is optional and is dropped whole when a value
 * inside it is missing. A missing value outside brackets makes the template unusable (null), so
 * the caller falls back to a more neutral variant. Plain strings fill a slot but carry no
 * evidence (counts and labels the coach computed); grounded values carry theirs into `slots`.
 */
export function fill(template: string, values: Values): Rendered | null {
  const slots: FilledSlot[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('[', i);
    const end = open < 0 ? template.length : open;
    const plain = fillPlain(template.slice(i, end), values, slots);
    if (plain === null) return null;
    text += plain;
    if (open < 0) break;
    const close = template.indexOf(']', open);
    const local: FilledSlot[] = [];
    const optional = fillPlain(template.slice(open + 1, close), values, local);
    if (optional !== null) {
      text += optional;
      slots.push(...local);
    }
    i = close + 1;
  }
  return { text, slots };
}

function fillPlain(part: string, values: Values, slots: FilledSlot[]): string | null {
  let out = '';
  let i = 0;
  while (i < part.length) {
    const open = part.indexOf('{', i);
    if (open < 0) {
      out += part.slice(i);
      break;
    }
    const close = part.indexOf('}', open);
    out += part.slice(i, open);
    const name = part.slice(open + 1, close);
    const v = values[name];
    if (v === null || v === undefined || v === '') return null;
    if (typeof v === 'string') out += v;
    else {
      out += v.value;
      slots.push({ slot: name, ...v });
    }
    i = close + 1;
  }
  return out;
}

/** The first of the variants whose required values are all present. */
export function firstOf(variants: string[], values: Values): Rendered {
  for (const v of variants) {
    const r = fill(v, values);
    if (r) return r;
  }
  throw new Error(`no advice variant renders without values: ${variants[variants.length - 1]}`);
}
