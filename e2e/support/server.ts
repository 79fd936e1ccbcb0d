import { startTestServer, type TestServer } from '../../server/test-support/harness';
import { ensureClientBuilt } from './build';

/**
 * The real server (PGlite, its own data folder) serving the built client. The client is
 * built first when dist/client is stale, because the server indexes static files at start.
 */
export async function startAppServer(env: Record<string, string> = {}): Promise<TestServer> {
  ensureClientBuilt();
  return startTestServer({ env });
}

export type { TestServer };
