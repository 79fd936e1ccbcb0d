import { z } from 'zod';

/** 'basic' for the embedded offline defaults, 'enhanced' for real models and services. */
export const engineQualitySchema = z.enum(['basic', 'enhanced']);
export type EngineQuality = z.infer<typeof engineQualitySchema>;

/**
 * Which engine produced a stored result (a transcript, a coaching text), as the page shows it
 * beside that result (docs/api.md `engine`, `sttEngine`, `coachingEngine`).
 */
export const servedBySchema = z.object({
  id: z.string(),
  label: z.string(),
  quality: engineQualitySchema,
});
export type ServedBy = z.infer<typeof servedBySchema>;

/**
 * How a result's engine is stored with it: the served-by view plus the coach's note, if any.
 * Rows written before set-up hints moved to the operator page may hold one; it is read and dropped.
 */
export const storedServedBySchema = servedBySchema.extend({
  note: z.string().optional(),
  upgradeHint: z.string().optional(),
});

/**
 * Reads a stored engine description. Older rows hold a bare engine id, which reads as a basic
 * engine of that name; nothing stored reads as null.
 */
export function parseServedBy(stored: string | null): { engine: ServedBy; note?: string } | null {
  if (!stored) return null;
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    json = undefined;
  }
  const parsed = storedServedBySchema.safeParse(json);
  if (!parsed.success) return { engine: { id: stored, label: stored, quality: 'basic' } };
  const { note, upgradeHint: _operatorOnly, ...engine } = parsed.data;
  return note ? { engine, note } : { engine };
}

/**
 * How the voices of a one-channel recording were told apart (speaker embeddings or voice
 * features), stored as `speakers` beside its speech-to-text engine. `fallback` says why a
 * speaker model was not used; it is for operators and may name files.
 */
export const storedSpeakerEngineSchema = servedBySchema.extend({ fallback: z.string().optional() });

/** The speaker split stored with a recording's engine, as reps may see it; null when none was stored. */
export function parseSpeakerEngine(stored: string | null): ServedBy | null {
  if (!stored) return null;
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    return null;
  }
  const parsed = z.object({ speakers: storedSpeakerEngineSchema }).safeParse(json);
  if (!parsed.success) return null;
  const { fallback: _operatorOnly, ...engine } = parsed.data.speakers;
  return engine;
}
