import fs from 'node:fs';
import { hash } from 'node:crypto';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import type { AppContext } from '../context';
import { STAGES } from '../../core/stages';
import { MAX_AUDIO_BYTES } from '../../core/constants';
import { CONTAINER_TYPES } from '../../core/audio-sniff';
import {
  EMPTY_FILE_MESSAGE,
  fileExtension,
  INVALID_TYPE_MESSAGE,
  TOO_LARGE_MESSAGE,
} from '../../core/audio-validation';
import { HttpError } from '../errors';
import { PLAYLIST_MESSAGE } from '../audio/decode';
import { UploadGate, UploadTooLargeError } from '../audio/upload-gate';
import {
  checkRecordingRoom,
  cleanFileName,
  coachAudioSession,
  createAudioSession,
  discardUpload,
  getAudioSession,
  reportInput,
  retryAudioSession,
  storeUpload,
  swapSpeakers,
} from '../domain/audio/service';
import { findAudioSession } from '../domain/audio/data';
import { PdfRenderer } from '../pdf/pool';
import { route } from './route';
import { UploadVolume } from './upload-volume';
import { recordOwner } from './accounts';
import { ownerKeyFor } from '../jobs/owner';

const swapBody = z.object({ swapped: z.boolean({ error: 'swapped must be true or false' }) }).strict();

const tooLarge = () => new HttpError(413, 'payload_too_large', TOO_LARGE_MESSAGE.description);
const oneFileOnly = () =>
  new HttpError(
    400,
    'one_file_per_upload',
    'Send one recording per upload. This upload had more than one file.',
  );
const wrongType = () => new HttpError(415, 'unsupported_media_type', INVALID_TYPE_MESSAGE.description);
const notARecording = () => new HttpError(415, 'unsupported_media_type', PLAYLIST_MESSAGE);

/** Multipart framing around a 25 MB file never comes near this. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const TYPE_BY_EXTENSION: Record<string, string> = {
  mp3: 'audio/mpeg',
  mpeg: 'audio/mpeg',
  mpga: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  webm: 'audio/webm',
  ogg: 'audio/ogg',
};

/** The type the recording is served with: what the browser sent if it is audio, else by extension. */
function servedType(mimeType: string | null, fileName: string): string {
  const sent = (mimeType ?? '').toLowerCase().split(';')[0].trim();
  if (sent === 'audio/mp3') return 'audio/mpeg';
  if (sent === 'audio/m4a') return 'audio/mp4';
  if (sent.startsWith('audio/')) return sent;
  return TYPE_BY_EXTENSION[fileExtension(fileName)] ?? 'application/octet-stream';
}

function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Reads and drops what is left of a refused upload's body, up to what an upload may carry; a
 * client that keeps sending past that is cut off.
 */
function drainRest(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  let left = MAX_AUDIO_BYTES + MULTIPART_OVERHEAD_BYTES;
  raw.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) raw.socket?.destroy();
  });
  raw.resume();
}

const badStage = () => new HttpError(400, 'invalid_request', `stage must be one of ${STAGES.join(', ')}`);
const isStage = (stage: string) => (STAGES as readonly string[]).includes(stage);

/**
 * The upload, checked while it streams in and before anything is kept: the stage (when the
 * field comes before the file, as the page sends it), the first bytes (a recording in a known
 * container, whatever its name or declared type), then the size (the stream fails at the byte
 * past 25 MB, so storage never completes the file). A stage sent after the file can only be read
 * once the file was stored; a bad one then removes it.
 */
async function handleUpload(
  ctx: AppContext,
  volume: UploadVolume,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (!request.isMultipart()) {
    throw new HttpError(
      400,
      'invalid_request',
      "Send the recording as multipart/form-data with the file in 'audio'.",
    );
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_AUDIO_BYTES + MULTIPART_OVERHEAD_BYTES) throw tooLarge();
  volume.check(request.ip, Number.isFinite(declared) ? declared - MULTIPART_OVERHEAD_BYTES : 0);
  // A client with its recordings already queued is told before the file is read.
  const owner = ownerKeyFor(request.ip);
  await checkRecordingRoom(ctx, owner);

  let stored: { key: string; bytes: number } | null = null;
  let fileName = '';
  let mimeType: string | null = null;
  let stage: string | undefined;
  // Why the upload is refused, once known; the rest of the form is still read through (and
  // dropped), so the answer goes back on a connection the client can use again.
  let refusal: HttpError | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'stage') {
          stage = String(part.value).trim();
          if (stage && !isStage(stage)) refusal ??= badStage();
        }
        continue;
      }
      const file = part as MultipartFile;
      if (refusal || stored) {
        file.file.resume();
        refusal ??= oneFileOnly();
        continue;
      }
      fileName = cleanFileName(file.filename);
      const gate = new UploadGate(MAX_AUDIO_BYTES);
      file.file.on('error', (err) => gate.destroy(err));
      file.file.pipe(gate);
      const sniffed = await gate.sniffed;
      if (gate.errored) throw gate.errored;
      if (!sniffed.ok) {
        file.file.unpipe(gate);
        gate.destroy();
        file.file.resume();
        refusal =
          gate.bytes === 0
            ? new HttpError(400, 'empty_file', EMPTY_FILE_MESSAGE.description)
            : sniffed.reason === 'playlist'
              ? notARecording()
              : wrongType();
        continue;
      }
      // The type it is served with comes from what the file is, not from what the browser said.
      mimeType = CONTAINER_TYPES[sniffed.container];
      try {
        stored = await storeUpload(ctx, gate);
      } catch (err) {
        file.file.resume();
        if (!(err instanceof UploadTooLargeError)) throw err;
        refusal = tooLarge();
        continue;
      }
      volume.add(request.ip, stored.bytes);
    }
    if (refusal) throw refusal;
  } catch (err) {
    drainRest(request);
    if (stored) await discardUpload(ctx, stored.key);
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT') throw oneFileOnly();
    if (err instanceof HttpError) throw err;
    if (typeof (err as { statusCode?: number }).statusCode === 'number') {
      throw new HttpError(400, 'invalid_request', 'The upload could not be read. Please try again.');
    }
    throw err;
  }
  if (!stored)
    throw new HttpError(400, 'invalid_request', "Attach the recording as the multipart file field 'audio'.");
  const chosenStage = stage || 'General';
  if (!isStage(chosenStage)) {
    await discardUpload(ctx, stored.key);
    throw badStage();
  }
  let session;
  try {
    session = await createAudioSession(
      ctx,
      { fileName, stage: chosenStage, storageKey: stored.key, mimeType, sizeBytes: stored.bytes },
      owner,
    );
  } catch (err) {
    await discardUpload(ctx, stored.key);
    throw err;
  }
  await recordOwner(ctx, request, reply, 'audio', session.id);
  return reply.status(201).send({ ...session, sessionId: session.id });
}

/** Serves the recording with byte ranges so the player can seek. */
async function sendRecording(ctx: AppContext, id: string, request: FastifyRequest, reply: FastifyReply) {
  const row = await findAudioSession(ctx.database.db, id);
  if (!row) throw new HttpError(404, 'not_found', 'Recording not found');
  const storage = ctx.providers.get('storage');
  const stat = await storage.stat(row.storageKey);
  if (!stat) throw new HttpError(404, 'not_found', 'The recording file is no longer stored');
  const size = stat.bytes;
  reply.header('content-type', servedType(row.mimeType, row.fileName));
  reply.header('accept-ranges', 'bytes');
  reply.header('content-disposition', contentDisposition('inline', row.fileName));
  reply.header('cache-control', 'private, max-age=0');
  const range = request.headers.range;
  if (range && (storage.localPath || storage.getRange)) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    let start = m && m[1] !== '' ? Number(m[1]) : NaN;
    let end = m && m[2] !== '' ? Number(m[2]) : NaN;
    if (m && m[1] === '' && m[2] !== '') {
      start = Math.max(0, size - Number(m[2]));
      end = size - 1;
    } else if (m && Number.isNaN(end)) {
      end = size - 1;
    }
    if (!m || Number.isNaN(start) || start >= size || end < start) {
      reply.header('content-range', `bytes */${size}`);
      throw new HttpError(416, 'range_not_satisfiable', 'The requested byte range is outside the recording', {
        'content-range': `bytes */${size}`,
      });
    }
    end = Math.min(end, size - 1);
    reply.status(206);
    reply.header('content-range', `bytes ${start}-${end}/${size}`);
    reply.header('content-length', String(end - start + 1));
    return reply.send(
      storage.localPath
        ? fs.createReadStream(storage.localPath(row.storageKey), { start, end })
        : await storage.getRange!(row.storageKey, start, end),
    );
  }
  reply.header('content-length', String(size));
  return reply.send(await storage.get(row.storageKey));
}

/** If-None-Match (a list of tags, or *) names this tag; compared weakly, as RFC 9110 asks. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || (t.startsWith('W/') ? t.slice(2) : t) === etag;
  });
}

/** Call recordings: upload, status, retry, swap speakers, file, coaching, PDF. */
export async function registerAudioRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config } = ctx;
  const volume = new UploadVolume(config.UPLOAD_MB_PER_HOUR);
  const reports = new PdfRenderer();
  app.addHook('onClose', () => reports.close());
  route(app, config, {
    method: 'POST',
    url: '/api/audio/upload',
    limit: 'upload',
    longBody: true,
    handler: ({ request, reply }) => handleUpload(ctx, volume, request, reply),
  });

  // Polled every 2 s while a recording is transcribed. Every poll reads the row; the ETag only
  // spares sending the same body again (304), and no-cache makes browsers revalidate each time.
  route(app, config, {
    method: 'GET',
    url: '/api/audio/:id',
    handler: async ({ params, request, reply }) => {
      const body = JSON.stringify(await getAudioSession(ctx, params.id));
      const etag = `"${hash('sha1', body, 'base64url')}"`;
      reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  });

  route(app, config, {
    method: 'POST',
    url: '/api/audio/:id/retry',
    limit: 'retry',
    handler: ({ params }) => retryAudioSession(ctx, params.id),
  });

  route(app, config, {
    method: 'POST',
    url: '/api/audio/:id/swap-speakers',
    limit: 'edits',
    body: { schema: swapBody, example: '{"swapped": true}' },
    handler: ({ params, body }) => swapSpeakers(ctx, params.id, body.swapped),
  });

  route(app, config, {
    method: 'POST',
    url: '/api/audio/:id/coaching',
    limit: 'coaching',
    handler: ({ params }) => coachAudioSession(ctx, params.id),
  });

  route(app, config, {
    method: 'GET',
    url: '/api/audio/:id/file',
    handler: ({ params, request, reply }) => sendRecording(ctx, params.id, request, reply),
  });

  route(app, config, {
    method: 'GET',
    url: '/api/audio/:id/pdf',
    limit: 'reports',
    handler: async ({ params, reply }) => {
      const session = await reportInput(ctx, params.id);
      const pdf = await reports.render(session);
      const base = session.fileName.replace(/\.[a-z0-9]+$/i, '') || 'recording';
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition('inline', `${base} - coaching report.pdf`))
        .header('content-length', String(pdf.length))
        .send(pdf);
    },
  });
}
