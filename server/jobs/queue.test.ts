import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../db/client';
import { feedbackEmailJob } from '../domain/feedback/service';
import { transcribeAudioJob } from '../domain/audio/transcription';
import { purgeRecordingsJob } from '../domain/audio/retention';
import { jobKinds } from '../domain/jobs';
import { defineJob, enqueue, InvalidJobPayloadError } from './queue';

/** A database that records every call; a refused payload must never reach it. */
function recordingDb(): { db: Db; calls: string[] } {
  const calls: string[] = [];
  const db = new Proxy(
    {},
    {
      get: (_t, prop) => () => {
        calls.push(String(prop));
        throw new Error(`database used: ${String(prop)}`);
      },
    },
  ) as unknown as Db;
  return { db, calls };
}

describe('typed jobs', () => {
  const example = defineJob({
    name: 'example',
    schema: z.object({ id: z.string().min(1), count: z.number().int() }),
    handle: async () => undefined,
  });

  it('refuses a payload that fails its schema before anything is stored', async () => {
    const { db, calls } = recordingDb();
    const bad = { id: '', count: 1.5 };
    await expect(enqueue(db, example, bad)).rejects.toThrow(InvalidJobPayloadError);
    await expect(enqueue(db, example, bad)).rejects.toThrow(/Invalid payload for job "example": id:/);
    // A payload from outside the type system (parsed JSON, say) is checked too.
    await expect(enqueue(db, example, JSON.parse('{"id":"x"}'))).rejects.toThrow(/count:/);
    expect(calls).toEqual([]);
  });

  it("refuses bad payloads for the app's own kinds", async () => {
    const { db, calls } = recordingDb();
    await expect(enqueue(db, feedbackEmailJob, { feedbackId: 'not-an-id' })).rejects.toThrow(
      /Invalid payload for job "feedback-email": feedbackId: not a feedback id/,
    );
    await expect(enqueue(db, transcribeAudioJob, {} as never)).rejects.toThrow(
      /Invalid payload for job "transcribe-audio": audioSessionId:/,
    );
    expect(calls).toEqual([]);
  });

  it('accepts a payload that matches and gets as far as the database', async () => {
    const { db, calls } = recordingDb();
    await expect(
      enqueue(db, feedbackEmailJob, { feedbackId: '0b5e8f9e-2a1c-4c4e-9d1f-3c2b1a0f9e8d' }),
    ).rejects.toThrow(/database used: insert/);
    expect(calls).toEqual(['insert']);
  });

  it('registers every kind once, each with a schema and a handler', () => {
    const names = jobKinds.map((k) => k.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([feedbackEmailJob.name, transcribeAudioJob.name, purgeRecordingsJob.name]),
    );
    for (const kind of jobKinds) {
      expect(kind.schema).toBeDefined();
      expect(typeof kind.handle).toBe('function');
    }
  });
});
