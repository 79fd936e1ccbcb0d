import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isClientRoute as isKnownClientRoute } from '../../core/routes';
import type { Config } from '../env';
import { errorBody } from './replies';

export const clientDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/client');

/** Uploads live under DATA_DIR and must never be reachable as static files. */
export function checkDataDirOutsideClient(config: Config): void {
  const clientDistReal = fs.existsSync(clientDist) ? fs.realpathSync(clientDist) : clientDist;
  if (config.dataDir === clientDistReal || config.dataDir.startsWith(clientDistReal + path.sep)) {
    throw new Error(`DATA_DIR (${config.dataDir}) must not be inside the served folder ${clientDistReal}.`);
  }
}

/**
 * Unknown URLs: the page for client-side routes (/, /audio, /debug, /status), and the app's own
 * 404 page with a real 404 status for any other page, so crawlers and monitors see it is missing;
 * a JSON 404 for the API and for missing assets.
 */
export function registerClientRoutes(app: FastifyInstance): void {
  const indexHtml = path.join(clientDist, 'index.html');
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const lastSegment = url.slice(url.lastIndexOf('/') + 1);
    const isClientRoute =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.startsWith('/api/') &&
      url !== '/api' &&
      url !== '/metrics' &&
      // A missing asset (/assets/x.js) is a 404, not the page.
      !lastSegment.includes('.') &&
      fs.existsSync(indexHtml);
    if (!isClientRoute) {
      return reply.status(404).send(errorBody('not_found', `No route for ${request.method} ${url}`));
    }
    // Client-side routes (/, /audio, /debug, /status); any other page gets the app's own 404 page
    // with a real 404 status, so crawlers and monitors see it is missing.
    return reply
      .status(isKnownClientRoute(url) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html')
      .sendFile('index.html', clientDist);
  });
}

/**
 * The built client. Assets carry a content hash in their names, so they are cached for a year
 * and never revalidated; the page itself revalidates every time. Text files are sent as the
 * brotli or gzip copy the build wrote beside them (vite.config.ts), whichever the browser takes.
 */
export async function registerClient(app: FastifyInstance): Promise<void> {
  if (!fs.existsSync(clientDist)) return;
  await app.register(fastifyStatic, {
    root: clientDist,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // A byte range of a compressed copy is not a range of the file: pages and assets go whole.
    acceptRanges: false,
    // Otherwise `send` writes its own `public, max-age=0` over the header set below.
    cacheControl: false,
    setHeaders(res, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (COMPRESSED_COPIES.test(filePath)) res.setHeader('vary', 'accept-encoding');
    },
  });
}

/** Files the build wrote compressed copies of (vite.config.ts), and those copies themselves. */
const COMPRESSED_COPIES = /\.(js|mjs|css|html|svg|json|txt|webmanifest)(\.br|\.gz)?$/;
