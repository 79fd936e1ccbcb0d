import { createHash } from 'node:crypto';

/**
 * The owner of the work a client asks for (JobRow.ownerKey): a hash of its address, so the
 * queue can share the workers fairly between clients without keeping addresses in the jobs
 * table. It is a pseudonym, not anonymity (the IPv4 space is small enough to hash whole); the
 * daily retention run clears it from jobs finished more than a day ago.
 */
export function ownerKeyFor(clientAddress: string): string {
  return createHash('sha256').update(`doorstep-owner:${clientAddress}`).digest('base64url').slice(0, 22);
}
