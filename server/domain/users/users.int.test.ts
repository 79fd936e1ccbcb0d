import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { dbKinds, openTestDatabase } from '../../test-support/harness';
import { findUserByUsername } from './data';
import { createUser } from './mutations';
import { verifyPassword } from './password';

for (const kind of dbKinds) {
  describe(`users on ${kind}`, () => {
    let database: Database;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      const opened = await openTestDatabase(kind, 'doorstep-users-');
      database = opened.database;
      cleanup = opened.close;
    });
    afterAll(async () => cleanup?.());

    it('stores a hashed password and refuses a duplicate username', async () => {
      const created = await createUser(database.db, { username: 'sam', password: 'door-knock-42' });
      expect(created.username).toBe('sam');
      const row = await findUserByUsername(database.db, 'sam');
      expect(row?.password).not.toContain('door-knock-42');
      expect(await verifyPassword('door-knock-42', row!.password)).toBe(true);
      expect(await verifyPassword('wrong', row!.password)).toBe(false);

      await expect(createUser(database.db, { username: 'sam', password: 'other' })).rejects.toMatchObject({
        statusCode: 409,
        code: 'username_taken',
      });
      // The first user is untouched by the refused insert.
      expect(
        await verifyPassword('door-knock-42', (await findUserByUsername(database.db, 'sam'))!.password),
      ).toBe(true);
    });

    it('refuses an empty username or password and unknown fields', async () => {
      await expect(createUser(database.db, { username: '', password: 'x' })).rejects.toThrow();
      await expect(createUser(database.db, { username: 'a', password: '' })).rejects.toThrow();
      await expect(
        createUser(database.db, { username: 'b', password: 'x', admin: true } as any),
      ).rejects.toThrow();
      expect(await findUserByUsername(database.db, 'a')).toBeNull();
    });
  });
}
