import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Deps } from '../deps';
import { AppError } from '../lib/errors';
import { appErrorBody } from './errors';

/**
 * The built client: hashed assets (immutable, pre-compressed) and index.html for every other
 * GET, so client-side routes load on a reload. API paths answer JSON 404s instead.
 */
export async function registerSpa(app: FastifyInstance, deps: Deps) {
  const indexHtml = path.join(deps.paths.client, 'index.html');
  const hasClient = existsSync(indexHtml);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: deps.paths.client,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        res.header(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const isApi = url.startsWith('/api') || url.startsWith('/trpc') || url.startsWith('/uploads/') || url.startsWith('/assets/');
    if (!isApi && hasClient && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html', deps.paths.client);
    }
    return reply.status(404).send(appErrorBody(new AppError('NOT_FOUND', 'routeNotFound')));
  });
}
