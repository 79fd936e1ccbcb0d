/**
 * The coaching gate (spec §2): the last three sections stay hidden until an email is given.
 * Owned by the lead-capture feature; the coaching card renders <UnlockGate> and reads useGateState.
 */
export interface GateProps {
  sessionKind: 'roleplay' | 'audio';
  sessionId: string | null;
}

export function useGateState(
  _sessionKind: GateProps['sessionKind'],
  _sessionId: string | null,
): { unlocked: boolean } {
  return { unlocked: false };
}

export function UnlockGate(_props: GateProps) {
  return (
    <div role="region" aria-label="Unlock Full Coaching Results">
      <h3>Unlock Full Coaching Results</h3>
      <p>
        Get detailed feedback on Objection Handling, Closing, and Follow-Up techniques. Enter your email to
        see the complete analysis.
      </p>
    </div>
  );
}
