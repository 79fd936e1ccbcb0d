import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { STAGES } from '../../core/stages';
import { saveTranscriptSchema } from '../../core/schemas';
import { coachSession, createSession, getSession, saveTranscript } from '../domain/sessions/service';
import { route } from './route';
import { recordOwner } from './accounts';

const createBody = z
  .object({ stage: z.enum(STAGES, { error: `stage must be one of ${STAGES.join(', ')}` }) })
  .strict();

/** Role-play sessions: POST /api/sessions, PUT /api/sessions/:id/transcript, POST /api/sessions/:id/coaching. */
export async function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(app, ctx.config, {
    method: 'POST',
    url: '/api/sessions',
    limit: 'sessions',
    body: { schema: createBody, example: '{"stage": "General"}' },
    handler: async ({ body, request, reply }) => {
      const session = await createSession(ctx, body.stage);
      await recordOwner(ctx, request, reply, 'roleplay', session.id);
      return reply.status(201).send(session);
    },
  });

  route(app, ctx.config, {
    method: 'GET',
    url: '/api/sessions/:id',
    limit: 'reads',
    // The transcript and coaching are the id holder's alone: no cache keeps a copy.
    handler: async ({ params, reply }) => {
      reply.header('cache-control', 'no-store');
      return getSession(ctx, params.id);
    },
  });

  route(app, ctx.config, {
    method: 'PUT',
    url: '/api/sessions/:id/transcript',
    limit: 'transcripts',
    body: {
      schema: saveTranscriptSchema,
      example:
        '{"transcript": [{"role", "transcript", "timestamp", "transcriptType"}], "duration": "seconds"}',
    },
    handler: ({ params, body }) => saveTranscript(ctx, params.id, body),
  });

  route(app, ctx.config, {
    method: 'POST',
    url: '/api/sessions/:id/coaching',
    limit: 'coaching',
    handler: ({ params }) => coachSession(ctx, params.id),
  });
}
