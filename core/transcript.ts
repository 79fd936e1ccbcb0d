import { z } from 'zod';
import { storableText } from './text';
import { MAX_CALL_TRANSCRIPT_CHARS, MAX_CALL_TRANSCRIPT_ENTRIES } from './constants';

/** A transcript entry (spec §3). A missing transcriptType counts as final. */
export const transcriptRoleSchema = z.enum(['user', 'assistant']);
export type TranscriptRole = z.infer<typeof transcriptRoleSchema>;

export const transcriptEntrySchema = z.object({
  role: transcriptRoleSchema,
  transcript: storableText().max(20_000),
  timestamp: z.number().int().nonnegative(),
  transcriptType: z.enum(['final', 'partial']).optional(),
});
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;

export function isFinal(entry: Pick<TranscriptEntry, 'transcriptType'>): boolean {
  return entry.transcriptType !== 'partial';
}

/** A partial replaces the previous partial of the same role; anything else is appended. */
export function applyTranscriptEntry(entries: TranscriptEntry[], next: TranscriptEntry): TranscriptEntry[] {
  if (next.transcriptType === 'partial') {
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      if (e.role === next.role && e.transcriptType === 'partial') {
        const copy = entries.slice();
        copy[i] = next;
        return copy;
      }
    }
  }
  if (isFinal(next)) {
    // A final closes the speaker's turn: its pending partial is superseded.
    const withoutPartial = entries.filter((e) => !(e.role === next.role && e.transcriptType === 'partial'));
    return [...withoutPartial, next];
  }
  return [...entries, next];
}

/** What the transcript view shows: every final entry plus the latest partial of each role. */
export function visibleEntries(entries: TranscriptEntry[]): TranscriptEntry[] {
  const latestPartialIndex = new Map<string, number>();
  entries.forEach((e, i) => {
    if (!isFinal(e)) latestPartialIndex.set(e.role, i);
  });
  return entries.filter((e, i) => isFinal(e) || latestPartialIndex.get(e.role) === i);
}

export function finalEntries(entries: TranscriptEntry[]): TranscriptEntry[] {
  return entries.filter(isFinal);
}

export function countWords(text: string): number {
  const words = text.trim().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu);
  return words ? words.length : 0;
}

/**
 * The transcript cut to what one call can produce (MAX_CALL_TRANSCRIPT_ENTRIES entries,
 * MAX_CALL_TRANSCRIPT_CHARS characters): the entries in order up to the first that does not
 * fit, that one shortened to the characters left. The same array when it already fits.
 */
export function capTranscript<T extends { transcript: string }>(entries: T[]): T[] {
  let chars = 0;
  for (let i = 0; i < entries.length; i++) {
    const length = entries[i].transcript.length;
    if (i >= MAX_CALL_TRANSCRIPT_ENTRIES || chars + length > MAX_CALL_TRANSCRIPT_CHARS) {
      const kept = entries.slice(0, Math.min(i, MAX_CALL_TRANSCRIPT_ENTRIES));
      const room = MAX_CALL_TRANSCRIPT_CHARS - chars;
      const cut = clipText(entries[i].transcript, room);
      if (i < MAX_CALL_TRANSCRIPT_ENTRIES && cut) kept.push({ ...entries[i], transcript: cut });
      return kept;
    }
    chars += length;
  }
  return entries;
}

/** The first `room` characters of `text`, never ending in half a surrogate pair (unstorable). */
export function clipText(text: string, room: number): string {
  if (text.length <= room) return text;
  return room <= 0 ? '' : text.slice(0, room).replace(/[\uD800-\uDBFF]$/, '');
}
