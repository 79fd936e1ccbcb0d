import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { simpleParser, type ParsedMail } from 'mailparser';

const SINK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../providers/mailer/smtp-sink.ts');

/** The test SMTP server (providers/mailer/smtp-sink.ts) in its own process, and what it received. */
export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  /** Every message received so far, oldest first. */
  messages(): Promise<ParsedMail[]>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-sink-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SINK, String(port), dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes(`listening ${port}`)) resolve();
    });
    child.stderr!.on('data', (d) => (err += d));
    child.once('exit', (code) => reject(new Error(`smtp sink exited (${code}): ${err}`)));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    async messages() {
      const files = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .sort();
      return Promise.all(files.map((f) => simpleParser(fs.readFileSync(path.join(dir, f)))));
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
