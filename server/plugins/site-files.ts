import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../services/deps';
import { createSitemap, robotsTxt } from '../services/site/sitemap';

/**
 * /robots.txt, /sitemap.xml and /sitemaps/<file>.xml for search engines. Before this, the SPA's
 * fallback answered them with the app's HTML. Not part of the documented API.
 */
export async function registerSiteFiles(app: FastifyInstance, deps: Deps) {
  const robots = robotsTxt(deps.env.PUBLIC_URL);
  const sitemap = createSitemap(deps.db, deps.env.PUBLIC_URL);
  const xml = (name: string, reply: FastifyReply) => {
    const body = sitemap.file(name);
    if (body === null) return reply.callNotFound();
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600').send(body);
  };

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=86400').send(robots),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => xml('sitemap.xml', reply));
  app.get<{ Params: { file: string } }>('/sitemaps/:file', { schema: { hide: true } }, async (request, reply) => xml(request.params.file, reply));
}
