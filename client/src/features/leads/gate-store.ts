/**
 * Which kind of session a gate belongs to. Whether it is unlocked is the server's answer alone
 * (a lead row for the session): the coaching and the session read carry `unlocked`, and until
 * then the gated sections' content never reaches the page.
 */
export type GateSessionKind = 'roleplay' | 'audio';
