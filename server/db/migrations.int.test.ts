import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { coachingText } from '../../core/coaching-document';
import { dbKinds, createTestDatabase } from '../test-support/harness';
import { openDatabase } from './client';

const migrations = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-migrations-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The migrations folder as it stood with only the first migration. */
function firstMigrationOnly(): string {
  const dir = path.join(tmp, `first-${Math.random().toString(36).slice(2)}`);
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8'));
  const first = journal.entries[0];
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: [first] }));
  fs.copyFileSync(path.join(migrations, `${first.tag}.sql`), path.join(dir, `${first.tag}.sql`));
  return dir;
}

const LEGACY =
  '**Summary**\nYou listened well.\n\n**Best: Warm opener**\nScore: 8/10\nYou greeted her by name.\n';

describe.each(dbKinds)('migrations on %s', (kind) => {
  it('keeps coaching stored as text before coaching was a document, and reads it the same', async () => {
    const dataDir = fs.mkdtempSync(path.join(tmp, 'db-'));
    const pgDb = kind === 'postgres' ? await createTestDatabase() : null;
    try {
      const old = await openDatabase({
        databaseUrl: pgDb?.url,
        dataDir,
        migrationsFolder: firstMigrationOnly(),
      });
      await old.db.execute(
        sql`insert into sessions (stage, coaching) values ('Windows', ${LEGACY}), ('HVAC', ${'not the format'})`,
      );
      await old.db.execute(
        sql`insert into audio_sessions (file_name, stage, storage_key, coaching) values ('a.wav', 'General', 'k', ${LEGACY})`,
      );
      await old.close();

      const now = await openDatabase({ databaseUrl: pgDb?.url, dataDir });
      const read = async (table: string) => {
        const r = await now.db.execute(sql.raw(`select stage, coaching from ${table} order by stage`));
        return ((r as any).rows ?? r) as { stage: string; coaching: unknown }[];
      };
      const s = await read('sessions');
      expect(s.map((r) => r.coaching)).toEqual([{ legacyText: 'not the format' }, { legacyText: LEGACY }]);
      // Read back through the API's renderer: unlocked, the very text that was stored.
      expect(coachingText(s[1].coaching, true)).toBe(LEGACY);
      expect(coachingText(s[0].coaching, false)).toBe('not the format');
      expect((await read('audio_sessions'))[0].coaching).toEqual({ legacyText: LEGACY });
      await now.close();
    } finally {
      await pgDb?.drop();
    }
  });
});
