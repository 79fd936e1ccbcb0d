import { ConfigError, loadConfig } from './env';
import { createServer } from './app';

/** Starts the roles named in ROLES (web and worker by default). */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const server = await createServer(config);
  const log = server.app.log;
  process.on('unhandledRejection', (reason) => {
    // A stray rejected promise must not take every live call down with it.
    log.error({ err: reason }, 'unhandled promise rejection');
  });

  if (config.roles.web) {
    const url = await server.listen();
    log.info(`Doorstep is running at ${url}`);
  } else if (server.ctx.worker) {
    await server.ctx.worker.start();
    log.info('Doorstep worker started');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing requests, ending live calls, returning jobs to the queue');
    // Past the grace period (plus time to close the database) the process exits regardless.
    const timer = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS + 5000);
    timer.unref();
    try {
      await server.close();
      log.info('shutdown complete');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(`Doorstep could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
