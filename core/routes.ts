/** The client's pages (spec §2, plus the operators' /status page). Any other page path is a 404. */
export const CLIENT_ROUTES = ['/', '/audio', '/debug', '/status'] as const;

/** Whether a request path (without the query) names one of the client's pages. */
export function isClientRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (CLIENT_ROUTES as readonly string[]).includes(path || '/');
}
