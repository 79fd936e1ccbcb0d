/**
 * The client's pages (spec §2, plus the operators' /status page and the optional sign-in's My
 * progress and link landing page). Any other page path is a 404.
 */
export const CLIENT_ROUTES = ['/', '/audio', '/debug', '/status', '/progress', '/sign-in'] as const;

/** Whether a request path (without the query) names one of the client's pages. */
export function isClientRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (CLIENT_ROUTES as readonly string[]).includes(path || '/');
}
