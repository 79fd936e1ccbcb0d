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
  let url = '';
  if (config.roles.web) {
    url = await server.listen();
    server.app.log.info(`Doorstep is running at ${url}`);
  } else if (server.ctx.worker) {
    await server.ctx.worker.start();
    server.app.log.info('Doorstep worker started');
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(`Doorstep could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
