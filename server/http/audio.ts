import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/** Call recordings: upload, status, coaching, PDF. */
export async function registerAudioRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
