import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import {
  commentSchema,
  createTeamSchema,
  inviteTokenSchema,
  joinTeamSchema,
  teamFilterSchema,
  type TeamFilter,
} from '../../core/teams';
import {
  addComment,
  createInvite,
  createTeam,
  joinTeam,
  leaveTeam,
  myComments,
  myTeams,
  parseFilter,
  previewInvite,
  removeComment,
  removeTeam,
  repPage,
  teamCall,
  teamCsv,
  teamPage,
  turnOffInvite,
} from '../domain/teams/service';
import { HttpError } from '../errors';
import { checkOrigin, requireAccount } from './accounts';
import { route } from './route';

/** The team page's filters from the query string; anything else there is refused. */
function filterOf(request: FastifyRequest): TeamFilter {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const known = ['stage', 'from', 'to'];
  const unknown = Object.keys(query).find((k) => !known.includes(k));
  if (unknown) throw new HttpError(400, 'invalid_request', `Unknown filter: ${unknown.slice(0, 40)}`);
  const values = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
  const parsed = teamFilterSchema.safeParse(values);
  if (!parsed.success) {
    throw new HttpError(400, 'invalid_request', parsed.error.issues[0]?.message ?? 'Invalid filter');
  }
  return parseFilter(parsed.data);
}

/** A file name from a team's name: letters, digits and dashes only. */
function csvFileName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${slug || 'team'}-practice.csv`;
}

/**
 * Teams (docs/api.md, "Teams"). Every route needs a sign-in (401 without one) and answers for
 * the signed-in account only: team pages to that team's managers, leaving and comments on one's
 * own calls to the rep. Anything else is the same 404 whether or not it exists. Nothing here is
 * cached; changes must come from this site's own pages.
 */
export async function registerTeamRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const config = ctx.config;

  /** Signed in (401 otherwise), never cached; for changes, also this site's own Origin. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply, change = false) {
    if (change) checkOrigin(ctx, request);
    const account = await requireAccount(ctx, request);
    reply.header('cache-control', 'no-store');
    return account;
  }

  route(app, config, {
    method: 'GET',
    url: '/api/teams',
    limit: 'teams',
    handler: async ({ request, reply }) => myTeams(ctx, await signedIn(request, reply)),
  });

  route(app, config, {
    method: 'POST',
    url: '/api/teams',
    limit: 'teams',
    body: { schema: createTeamSchema, example: '{"name": "…"}' },
    handler: async ({ body, request, reply }) => {
      const account = await signedIn(request, reply, true);
      return reply.status(201).send(await createTeam(ctx, account, body.name));
    },
  });

  route(app, config, {
    method: 'POST',
    url: '/api/teams/invite',
    limit: 'teams',
    body: { schema: inviteTokenSchema, example: '{"token": "…"}' },
    handler: async ({ body, request, reply }) =>
      previewInvite(ctx, await signedIn(request, reply, true), body.token),
  });

  route(app, config, {
    method: 'POST',
    url: '/api/teams/join',
    limit: 'teams',
    body: { schema: joinTeamSchema, example: '{"token": "…", "agree": true}' },
    handler: async ({ body, request, reply }) =>
      joinTeam(ctx, await signedIn(request, reply, true), body.token),
  });

  route(app, config, {
    method: 'GET',
    url: '/api/teams/:teamId',
    limit: 'teams',
    handler: async ({ params, request, reply }) =>
      teamPage(ctx, await signedIn(request, reply), params.teamId, filterOf(request)),
  });

  route(app, config, {
    method: 'DELETE',
    url: '/api/teams/:teamId',
    limit: 'teams',
    handler: async ({ params, request, reply }) => {
      await removeTeam(ctx, await signedIn(request, reply, true), params.teamId);
      return reply.status(204).send();
    },
  });

  route(app, config, {
    method: 'POST',
    url: '/api/teams/:teamId/leave',
    limit: 'teams',
    handler: async ({ params, request, reply }) => {
      await leaveTeam(ctx, await signedIn(request, reply, true), params.teamId);
      return reply.status(204).send();
    },
  });

  route(app, config, {
    method: 'POST',
    url: '/api/teams/:teamId/invites',
    limit: 'teams',
    handler: async ({ params, request, reply }) => {
      const invite = await createInvite(ctx, await signedIn(request, reply, true), params.teamId);
      return reply.status(201).send(invite);
    },
  });

  route(app, config, {
    method: 'DELETE',
    url: '/api/teams/:teamId/invites/:inviteId',
    limit: 'teams',
    handler: async ({ params, request, reply }) => {
      await turnOffInvite(ctx, await signedIn(request, reply, true), params.teamId, params.inviteId);
      return reply.status(204).send();
    },
  });

  route(app, config, {
    method: 'GET',
    url: '/api/teams/:teamId/reps/:repId',
    limit: 'teams',
    handler: async ({ params, request, reply }) =>
      repPage(ctx, await signedIn(request, reply), params.teamId, params.repId, filterOf(request)),
  });

  route(app, config, {
    method: 'GET',
    url: '/api/teams/:teamId/calls/:kind/:callId',
    limit: 'teams',
    handler: async ({ params, request, reply }) =>
      teamCall(ctx, await signedIn(request, reply), params.teamId, params.kind, params.callId),
  });

  route(app, config, {
    method: 'POST',
    url: '/api/teams/:teamId/calls/:kind/:callId/comments',
    limit: 'teams',
    body: { schema: commentSchema, example: '{"line": 0, "text": "…"}' },
    handler: async ({ params, body, request, reply }) => {
      const account = await signedIn(request, reply, true);
      const comment = await addComment(ctx, account, params.teamId, params.kind, params.callId, body);
      return reply.status(201).send(comment);
    },
  });

  route(app, config, {
    method: 'DELETE',
    url: '/api/teams/:teamId/comments/:commentId',
    limit: 'teams',
    handler: async ({ params, request, reply }) => {
      await removeComment(ctx, await signedIn(request, reply, true), params.teamId, params.commentId);
      return reply.status(204).send();
    },
  });

  route(app, config, {
    method: 'GET',
    url: '/api/teams/:teamId/export.csv',
    limit: 'teams',
    handler: async ({ params, request, reply }) => {
      const account = await signedIn(request, reply);
      const { name, csv } = await teamCsv(ctx, account, params.teamId, filterOf(request));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvFileName(name)}"`)
        .header('x-content-type-options', 'nosniff')
        .send(csv);
    },
  });

  route(app, config, {
    method: 'GET',
    url: '/api/account/comments/:kind/:callId',
    limit: 'teams',
    handler: async ({ params, request, reply }) =>
      myComments(ctx, await signedIn(request, reply), params.kind, params.callId),
  });
}
