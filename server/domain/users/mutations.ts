import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { insertUserSchema, type InsertUser } from '../../../core/schemas';
import { HttpError } from '../../errors';
import { hashPassword } from './password';
import type { UserRow } from './data';

/** Creates a user; a taken username is refused with a 409 rather than a database error. */
export async function createUser(db: Db, input: InsertUser): Promise<Omit<UserRow, 'password'>> {
  const { username, password } = insertUserSchema.parse(input);
  const rows = await db
    .insert(users)
    .values({ username, password: await hashPassword(password) })
    .onConflictDoNothing({ target: users.username })
    .returning({ id: users.id, username: users.username });
  if (!rows[0]) throw new HttpError(409, 'username_taken', `The username "${username}" is already taken.`);
  return rows[0];
}
