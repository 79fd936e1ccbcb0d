import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/** The /api/voice WebSocket: one live role-play call per connection. */
export async function registerVoiceRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
