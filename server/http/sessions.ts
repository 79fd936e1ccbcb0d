import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { STAGES } from '../../core/stages';
import { saveTranscriptSchema } from '../../core/schemas';
import { coachSession, createSession, getSession, saveTranscript } from '../domain/sessions/service';
import { parseBody } from './validation';

const createBody = z
  .object({ stage: z.enum(STAGES, { error: `stage must be one of ${STAGES.join(', ')}` }) })
  .strict();

type IdParams = { Params: { id: string } };

/** Role-play sessions: POST /api/sessions, PUT /api/sessions/:id/transcript, POST /api/sessions/:id/coaching. */
export async function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/api/sessions', async (request, reply) => {
    const { stage } = parseBody(createBody, request.body, '{"stage": "General"}');
    const session = await createSession(ctx, stage);
    return reply.status(201).send(session);
  });

  app.get<IdParams>('/api/sessions/:id', async (request) => getSession(ctx, request.params.id));

  app.put<IdParams>('/api/sessions/:id/transcript', async (request) => {
    const body = parseBody(
      saveTranscriptSchema,
      request.body,
      '{"transcript": [{"role", "transcript", "timestamp", "transcriptType"}], "duration": "seconds"}',
    );
    return saveTranscript(ctx, request.params.id, body);
  });

  app.post<IdParams>('/api/sessions/:id/coaching', async (request) => coachSession(ctx, request.params.id));
}
