import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/** Role-play sessions: POST /api/sessions, PUT /api/sessions/:id/transcript, POST /api/sessions/:id/coaching. */
export async function registerSessionRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
