import { isUuid } from '../../core/ids';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context';
import { getOutboxMessage, listOutbox, type OutboxRow } from '../domain/feedback/data';
import { redriveUnsentFeedback, submitFeedback } from '../domain/feedback/service';
import { captureLead, leadSchema } from '../domain/leads/service';
import { insertFeedbackSchema } from '../../core/schemas';
import { route } from './route';
import { escapeHtml } from '../email/html';
import { notFound } from '../errors';

/** POST /api/feedback, POST /api/leads, and the development outbox. */
export async function registerFeedbackRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(app, ctx.config, {
    method: 'POST',
    url: '/api/feedback',
    limit: 'feedback',
    body: { schema: insertFeedbackSchema, example: '{"name": "…", "email": "…", "sessionId": "…"}' },
    handler: async ({ body, reply }) => reply.status(201).send(await submitFeedback(ctx, body)),
  });

  route(app, ctx.config, {
    method: 'POST',
    url: '/api/leads',
    limit: 'leads',
    body: {
      schema: leadSchema,
      example: '{"email": "…", "sessionId": "…", "sessionKind": "roleplay"}',
    },
    handler: async ({ body, reply }) => reply.status(201).send(await captureLead(ctx, body)),
  });

  // Registered in every mode so that outside development /outbox is a plain 404, not the app shell.
  app.get('/outbox', async (_request, reply) => {
    if (!ctx.config.isDev) throw notFound('Page');
    const rows = await listOutbox(ctx.database.db);
    return sendPage(
      reply,
      outboxPage(rows),
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
  });

  app.get<{ Params: { id: string } }>('/outbox/:id', async (request, reply) => {
    if (!ctx.config.isDev) throw notFound('Page');
    const row = isUuid(request.params.id) ? await getOutboxMessage(ctx.database.db, request.params.id) : null;
    if (!row) throw notFound('Message');
    // The stored HTML part is shown as the recipient would see it, with scripts and forms sandboxed off.
    return sendPage(reply, row.html, "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:");
  });

  app.addHook('onReady', async () => {
    try {
      const n = await redriveUnsentFeedback(ctx.database.db);
      if (n) ctx.log.info({ count: n }, 'queued unsent feedback emails again');
    } catch (err) {
      ctx.log.error({ err }, 'could not re-queue unsent feedback emails');
    }
  });
}

function sendPage(reply: FastifyReply, html: string, csp: string) {
  return reply
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

function outboxPage(rows: OutboxRow[]): string {
  const items = rows
    .map(
      (r) => `<li>
  <article>
    <h2><a href="/outbox/${escapeHtml(r.id)}">${escapeHtml(r.subject)}</a></h2>
    <p class="meta">To <strong>${escapeHtml(r.toAddress)}</strong> from ${escapeHtml(r.fromAddress)} at
      <time datetime="${escapeHtml(r.createdAt.toISOString())}">${escapeHtml(r.createdAt.toISOString())}</time></p>
    <details><summary>Plain-text part</summary><pre>${escapeHtml(r.text)}</pre></details>
  </article>
</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox - Doorstep</title>
<style>
body{font-family:system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;color:#0f172a}
ul{list-style:none;padding:0}li{border:1px solid #e2e8f0;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
h2{font-size:1.05rem;margin:0 0 .25rem}.meta{color:#475569;margin:0 0 .5rem;font-size:.9rem}
pre{white-space:pre-wrap;background:#f8fafc;padding:.75rem;border-radius:.375rem}
</style></head>
<body><main>
<h1>Outbox</h1>
<p>Emails stored because no SMTP server is configured (set SMTP_URL to deliver them). Shown in development mode only.</p>
${rows.length ? `<ul>${items}</ul>` : '<p>No emails yet.</p>'}
</main></body></html>
`;
}
