/**
 * While a call is live, leaving the page would end it: in-app links ask first (`confirmLeave`)
 * and a reload or a closed tab gets the browser's own "Leave site?" (`beforeunload`).
 */
let message: string | null = null;

export const LEAVE_CALL_MESSAGE = 'Leave this page? Your call will end.';

function onBeforeUnload(event: BeforeUnloadEvent) {
  if (!message) return;
  event.preventDefault();
  // Older browsers show the dialog only when returnValue is set.
  event.returnValue = message;
}

/** Turns the guard on (a call is live) or off. */
export function setLeaveGuard(active: boolean): void {
  const next = active ? LEAVE_CALL_MESSAGE : null;
  if (next === message) return;
  message = next;
  if (typeof window === 'undefined') return;
  if (next) window.addEventListener('beforeunload', onBeforeUnload);
  else window.removeEventListener('beforeunload', onBeforeUnload);
}

/** True when the page may be left: no live call, or the rep confirmed. */
export function confirmLeave(): boolean {
  return !message || window.confirm(message);
}
