/**
 * The client's pages (spec §2, plus the operators' /status page and the optional sign-in's My
 * progress and link landing page). Any other page path is a 404.
 */
export const CLIENT_ROUTES = [
  '/',
  '/audio',
  '/debug',
  '/status',
  '/progress',
  '/sign-in',
  '/teams',
  '/join',
] as const;

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** Team pages: a team, one of its reps, one of its reps' calls. */
const TEAM_PAGES = new RegExp(`^/teams/${UUID}(?:/reps/${UUID}|/calls/(?:roleplay|audio)/${UUID})?$`);

/** Whether a request path (without the query) names one of the client's pages. */
export function isClientRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (CLIENT_ROUTES as readonly string[]).includes(path || '/') || TEAM_PAGES.test(path);
}
