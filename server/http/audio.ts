import fs from 'node:fs';
import { hash } from 'node:crypto';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import type { AppContext } from '../context';
import { STAGES } from '../../core/stages';
import { MAX_AUDIO_BYTES } from '../../core/constants';
import {
  EMPTY_FILE_MESSAGE,
  fileExtension,
  INVALID_TYPE_MESSAGE,
  isAcceptedAudio,
  TOO_LARGE_MESSAGE,
} from '../../core/audio-validation';
import { HttpError } from '../errors';
import { PLAYLIST_MESSAGE } from '../audio/decode';
import {
  cleanFileName,
  coachAudioSession,
  createAudioSession,
  discardUpload,
  getAudioSession,
  retryAudioSession,
  sniffUpload,
  storeUpload,
  swapSpeakers,
} from '../domain/audio/service';
import { findAudioSession } from '../domain/audio/data';
import { PdfRenderer } from '../workers/pdf-pool';
import { route } from './route';
import { UploadVolume } from './upload-volume';

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

  let stored: { key: string; bytes: number } | null = null;
  let fileName = '';
  let mimeType: string | null = null;
  let stage: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'stage') stage = String(part.value);
        continue;
      }
      const file = part as MultipartFile;
      if (stored) {
        file.file.resume();
        throw oneFileOnly();
      }
      fileName = cleanFileName(file.filename);
      mimeType = file.mimetype || null;
      if (!isAcceptedAudio(file.mimetype, file.filename ?? '')) {
        file.file.resume();
        throw wrongType();
      }
      stored = await storeUpload(ctx, file.file);
      volume.add(request.ip, stored.bytes);
      // The plugin stops reading at 25 MB and marks the stream truncated.
      if (file.file.truncated) throw tooLarge();
    }
  } catch (err) {
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
  if (stored.bytes === 0) {
    await discardUpload(ctx, stored.key);
    throw new HttpError(400, 'empty_file', EMPTY_FILE_MESSAGE.description);
  }
  // Only real audio containers are kept: a playlist or other pointer file would make the
  // decoder read something other than the upload.
  const sniffed = await sniffUpload(ctx, stored.key);
  if (!sniffed.ok) {
    await discardUpload(ctx, stored.key);
    throw sniffed.reason === 'playlist' ? notARecording() : wrongType();
  }
  const chosenStage = stage?.trim() || 'General';
  if (!(STAGES as readonly string[]).includes(chosenStage)) {
    await discardUpload(ctx, stored.key);
    throw new HttpError(400, 'invalid_request', `stage must be one of ${STAGES.join(', ')}`);
  }
  const session = await createAudioSession(ctx, {
    fileName,
    stage: chosenStage,
    storageKey: stored.key,
    mimeType,
    sizeBytes: stored.bytes,
  });
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
      const session = await getAudioSession(ctx, params.id);
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
