import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  authorization?: string;
}

/** What the fake server does with one request: answer text, stream pieces, fail, or hang. */
export type FakeReply =
  | { kind: 'text'; content: string }
  | { kind: 'stream'; pieces: string[]; gapMs?: number }
  | { kind: 'status'; status: number; body: string }
  | { kind: 'hang' };

/** A local server speaking the OpenAI chat-completions API, for tests of the LLM paths. */
export async function startFakeChatServer(reply: (req: FakeChatRequest, n: number) => FakeReply) {
  const requests: FakeChatRequest[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('not found');
        return;
      }
      const parsed = JSON.parse(body) as FakeChatRequest;
      parsed.authorization = req.headers.authorization;
      requests.push(parsed);
      let r = reply(parsed, requests.length);
      // A client that asked for a stream gets the same text as server-sent events.
      if (r.kind === 'text' && parsed.stream)
        r = { kind: 'stream', pieces: r.content.match(/[\s\S]{1,40}/g) ?? [] };
      if (r.kind === 'hang') {
        open.add(res);
        return;
      }
      if (r.kind === 'status') {
        res.writeHead(r.status, { 'content-type': 'text/plain' }).end(r.body);
        return;
      }
      if (r.kind === 'text') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            choices: [
              { index: 0, message: { role: 'assistant', content: r.content }, finish_reason: 'stop' },
            ],
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      open.add(res);
      let i = 0;
      const send = () => {
        if (i < r.pieces.length) {
          const chunk = { choices: [{ index: 0, delta: { content: r.pieces[i++] } }] };
          res.write(`data: ${JSON.stringify(chunk)}\n\n`);
          setTimeout(send, r.gapMs ?? 0);
        } else {
          res.end('data: [DONE]\n\n');
          open.delete(res);
        }
      };
      send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
