import type { TranscriptEntry } from '../../core/transcript';

/**
 * What a weak offline recogniser hands over for a typed transcript: lowercase, no
 * punctuation, a few misheard words, and long rep turns split across consecutive entries.
 * Deterministic (a fixed seed per call), so `eval:coach --noisy` is repeatable.
 */
const MISHEARD: [RegExp, string][] = [
  [/\byou're\b/g, 'your'],
  [/\bthey're\b/g, 'there'],
  [/\bfurnace\b/g, 'for nest'],
  [/\battic\b/g, 'addict'],
  [/\bsiding\b/g, 'sighting'],
  [/\bquote\b/g, 'coat'],
  [/\bwindows\b/g, 'window'],
  [/\bwe'll\b/g, 'will'],
  [/\bto\b/g, 'too'],
  [/\bthan\b/g, 'then'],
];

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

export function recogniserText(text: string, rand: () => number = () => 1): string {
  let t = text.toLowerCase().replace(/[’]/g, "'");
  // About one in four chances per kind of slip, so a call gets a handful, not all of them.
  for (const [re, to] of MISHEARD) t = t.replace(re, (m) => (rand() < 0.25 ? to : m));
  return t
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function recogniserTranscript(entries: TranscriptEntry[], seedText = ''): TranscriptEntry[] {
  const rand = rng(hash(seedText || entries.map((e) => e.transcript).join('|')));
  const out: TranscriptEntry[] = [];
  let prevTs = entries[0]?.timestamp ?? 0;
  for (const e of entries) {
    const text = recogniserText(e.transcript, rand);
    const words = text.split(' ').filter(Boolean);
    if (e.role === 'user' && words.length > 30) {
      // A long rep turn arrives as two entries, cut at a pause near the middle.
      const cut = Math.floor(words.length * (0.4 + rand() * 0.2));
      const mid = Math.round(prevTs + (e.timestamp - prevTs) * (cut / words.length));
      out.push({
        ...e,
        transcript: words.slice(0, cut).join(' '),
        timestamp: Math.min(mid, e.timestamp - 1),
      });
      out.push({ ...e, transcript: words.slice(cut).join(' ') });
    } else out.push({ ...e, transcript: text });
    prevTs = e.timestamp;
  }
  return out.filter((e) => e.transcript);
}
