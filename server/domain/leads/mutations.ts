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
    consent: boolean;
    source: 'builtin' | 'hubspot';
  },
): Promise<LeadRow> {
  const [row] = await db.insert(leads).values(values).returning();
  return row;
}
