import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/** POST /api/feedback, POST /api/leads, and the development outbox. */
export async function registerFeedbackRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
