import { z } from 'zod';
import {
  coachingForGate,
  GATED_SECTIONS,
  LOCKED_SECTION_TEXT,
  parseCoaching,
  renderCoaching,
  SECTION_KEYS,
  type CoachingDocument,
  type CoachingSection,
} from './coaching-format';

/**
 * Coaching as it is stored and moved: the structured document (summary, best, six sections),
 * not its text. The spec's text format (core/coaching-format.ts) is one rendering of it, made
 * where an answer carries text; the page, the PDF and the email render the structure their own way.
 */
const scoreSchema = z.number().int().min(0).max(10).nullable();

export const coachingSectionSchema = z.object({
  key: z.enum(SECTION_KEYS),
  title: z.string(),
  score: scoreSchema,
  content: z.string(),
  /** A gated section of a session nobody unlocked: its heading only (score and advice withheld). */
  locked: z.literal(true).optional(),
});

export const coachingDocumentSchema = z.object({
  summary: z.string(),
  best: z.object({ title: z.string(), score: scoreSchema, content: z.string() }).nullable(),
  sections: z.array(coachingSectionSchema),
});

/**
 * What a coaching column holds: a document, or (rows coached before coaching was stored as a
 * document) `{legacyText}`, the text exactly as it was written then.
 */
export const storedCoachingSchema = z.union([coachingDocumentSchema, z.object({ legacyText: z.string() })]);
export type StoredCoaching = z.infer<typeof storedCoachingSchema>;

/**
 * The document in its canonical form: what its text rendering reads back as. A coach's document
 * is stored this way, so every rendering of the stored document (text, page, PDF, email) says
 * exactly what the coach's text said.
 */
export function canonicalDocument(doc: CoachingDocument): CoachingDocument {
  return parseCoaching(renderCoaching(doc)) ?? doc;
}

/** The stored document, or null when nothing (or nothing readable) is stored. */
export function storedDocument(stored: unknown): CoachingDocument | null {
  if (stored === null || stored === undefined) return null;
  const parsed = storedCoachingSchema.safeParse(stored);
  if (!parsed.success) return null;
  return 'legacyText' in parsed.data ? parseCoaching(parsed.data.legacyText) : parsed.data;
}

/** Whether a coaching column holds anything (a document, or a legacy text even if unreadable). */
export function hasStoredCoaching(stored: unknown): boolean {
  return stored !== null && stored !== undefined;
}

/** A gated section as a visitor who has not unlocked the session receives it. */
function lockedSection(s: CoachingSection): CoachingSection {
  return { key: s.key, title: s.title, score: null, content: LOCKED_SECTION_TEXT, locked: true };
}

/**
 * The document a visitor in this gate state may receive. Until the session is unlocked the gated
 * sections (Objection Handling, Closing, Follow-Up) keep only their heading: their scores and
 * advice are dropped from the structure, so no rendering of it can carry them.
 */
export function gateDocument(doc: CoachingDocument, unlocked: boolean): CoachingDocument {
  if (unlocked) return doc;
  return {
    ...doc,
    sections: doc.sections.map((s) => (GATED_SECTIONS.includes(s.key) ? lockedSection(s) : s)),
  };
}

/**
 * The text-API rendering (spec §3) of stored coaching for this gate state; null when none is
 * stored. A legacy text leaves as it was stored, through the text gate it always went through.
 */
export function coachingText(stored: unknown, unlocked: boolean): string | null {
  if (!hasStoredCoaching(stored)) return null;
  const parsed = storedCoachingSchema.safeParse(stored);
  if (!parsed.success) return null;
  if ('legacyText' in parsed.data) return coachingForGate(parsed.data.legacyText, unlocked);
  return renderCoaching(gateDocument(parsed.data, unlocked));
}
