/**
 * Splits streamed text into sentences as soon as each is complete, so the first sentence
 * can be spoken while the rest is still being written.
 */
export class SentenceSplitter {
  private buffer = '';

  /** Adds a piece of text; returns the sentences it completed. */
  push(piece: string): string[] {
    this.buffer += piece;
    const out: string[] = [];
    // A sentence ends at . ! ? followed by space; a long clause may end at a comma or dash.
    const re = /([^.!?]*?[.!?]+["')\]]*)(\s+)/y;
    for (;;) {
      re.lastIndex = 0;
      const m = re.exec(this.buffer);
      if (!m) break;
      const sentence = m[1].trim();
      this.buffer = this.buffer.slice(m[0].length);
      if (sentence) out.push(sentence);
    }
    if (this.buffer.length > 160) {
      const cut = Math.max(this.buffer.lastIndexOf(', '), this.buffer.lastIndexOf(' - '));
      if (cut > 40) {
        out.push(this.buffer.slice(0, cut + 1).trim());
        this.buffer = this.buffer.slice(cut + 2);
      }
    }
    return out;
  }

  /** Whatever is left when the text stream ends. */
  flush(): string[] {
    const rest = this.buffer.trim();
    this.buffer = '';
    return rest ? [rest] : [];
  }
}

/** The words of `text` spoken in `fraction` (0..1) of its audio, for a transcript cut by barge-in. */
export function spokenPrefix(text: string, fraction: number): string {
  if (fraction >= 1) return text;
  const words = text.split(/\s+/).filter(Boolean);
  const n = Math.floor(words.length * Math.max(0, fraction));
  return words.slice(0, n).join(' ');
}
