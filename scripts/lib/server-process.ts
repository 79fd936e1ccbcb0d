import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The real server as a separate process (the way `npm start` runs it), so load tests do not
 * share its event loop and chaos tests can SIGKILL it.
 */
export class ServerProcess {
  child: ChildProcess | null = null;
  readonly url: string;
  output = '';

  constructor(
    readonly port: number,
    readonly env: Record<string, string>,
    /** The checkout whose server runs (another tree's, for A/B benchmarks). */
    readonly root: string = projectRoot,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  static async create(env: Record<string, string>, root: string = projectRoot): Promise<ServerProcess> {
    return new ServerProcess(await freePort(), env, root);
  }

  // SERVER_START_TIMEOUT_MS: a slower limit for heavily loaded machines.
  async start(timeoutMs = Number(process.env.SERVER_START_TIMEOUT_MS ?? 60_000)): Promise<void> {
    this.output = '';
    // SERVER_NODE_FLAGS: extra Node flags for the server only, e.g. --cpu-prof to profile a benchmark.
    const flags = (process.env.SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(
      process.execPath,
      [...flags, '--import', 'tsx', path.join(this.root, 'server/main.ts')],
      {
        cwd: this.root,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          // Tests and benchmarks never fetch models from the internet (nor share the CPU with it).
          AUTO_MODELS: 'off',
          ...this.env,
          PORT: String(this.port),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    const keep = (chunk: Buffer) => {
      // Keep the tail only: enough to explain a failure.
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`The server exited while starting:\n${this.output}`);
      }
      try {
        const res = await fetch(`${this.url}/api/health`);
        if (res.status === 200 || res.status === 503) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`The server did not start within ${timeoutMs} ms:\n${this.output}`);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Sends a signal and waits for the process to exit; resolves to its exit code (null if killed). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}

export function tempDataDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
