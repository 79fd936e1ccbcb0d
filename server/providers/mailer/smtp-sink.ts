/**
 * A real SMTP server for tests, run as its own process so a test can kill it (an outage) and
 * start it again (recovery). Every accepted message is written to DIR as a raw .eml file.
 *
 *   node --import tsx server/providers/mailer/smtp-sink.ts <port> <dir>
 *
 * Prints "listening <port>" once it accepts connections. Recipients whose address starts with
 * "unknown-" are refused with a permanent 550, like a mailbox that does not exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';

const [portArg, dir] = process.argv.slice(2);
if (!portArg || !dir) {
  console.error('usage: smtp-sink.ts <port> <dir>');
  process.exit(2);
}
fs.mkdirSync(dir, { recursive: true });

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (address.address.startsWith('unknown-')) {
      return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
    }
    callback();
  },
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const name = `${Date.now()}-${randomUUID()}.eml`;
      // Written under a temporary name first so a reader never sees half a message.
      const tmp = path.join(dir, `.${name}.tmp`);
      fs.writeFileSync(tmp, Buffer.concat(chunks));
      fs.renameSync(tmp, path.join(dir, name));
      callback();
    });
  },
});

server.on('error', (err) => console.error('smtp sink error', err.message));
server.listen(Number(portArg), '127.0.0.1', () => {
  console.log(`listening ${portArg}`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
