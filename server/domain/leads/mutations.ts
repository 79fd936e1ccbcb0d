import type { Db } from '../../db/client';
import { leads } from '../../db/schema';
import type { LeadRow, SessionKind } from './data';

export async function insertLead(
  db: Db,
  values: {
    sessionId: string;
    sessionKind: SessionKind;
    email: string;
    name: string | null;
    /** "Send me coaching tips": stored in the lead's consent column; unlocking never needs it. */
    marketingOptIn: boolean;
    source: 'builtin' | 'hubspot';
  },
): Promise<LeadRow> {
  const { marketingOptIn, ...rest } = values;
  const [row] = await db
    .insert(leads)
    .values({ ...rest, consent: marketingOptIn })
    .returning();
  return row;
}
