import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/** GET /api/health and GET /api/config (public client settings). */
export async function registerHealthRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
