import { installGroupCommit, installGroupCommitBarrier } from './lib/group-commit';
import { countCommitChanges, moveStampAfterRollback } from './lib/data-stamp';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { constants as zlib } from 'node:zlib';
import { isUtf8 } from 'node:buffer';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { version } from '../package.json';
import type { Deps } from './services/deps';
import { connectionsPerIp } from './env';
import { capConnections } from './lib/connection-cap';
import { AppError, DEFAULT_RETRY_AFTER_S, isAppError } from './lib/errors';
import { JSON_BODY_LIMIT, jsonTooDeep, LARGE_JSON_BODY_LIMIT } from './lib/json-limits';
import { requestLogValue, responseLogValue } from './lib/log-redact';
import { clientKeyOf } from './lib/networks';
import { replySerializerCompiler } from './lib/reply-serializer';
import { appErrorBody, registerErrorHandler } from './plugins/errors';
import { registerSecurity } from './plugins/security';
import { cacheFirstServer, createPublicCache, registerPublicCache } from './plugins/public-cache';
import { registerSession } from './plugins/session';
import { registerHeadAfterCompression, registerHeadAsGet, registerMethodCheck } from './plugins/methods';
import { registerSiteFiles } from './plugins/site-files';
import { registerSpa } from './plugins/spa';
import { pageKeptWhile } from './plugins/spa-pages';
import { restRoutes } from './rest';
import { unsubscribeRoutes } from './rest/unsubscribe';
import { documentBuilder, documentInfo, securitySchemes } from './rest/openapi';
import { MAX_UPLOAD_BYTES } from '../shared/schemas/common';
import { createContextFactory } from './trpc/context';
import { answerPlainQueries } from './trpc/plain-queries';
import { isPublicCacheQuery, publicCacheKeptWhile } from './trpc/procedures';
import { appRouter, type AppRouter } from './trpc/router';
import { SHARED_UPLOAD } from './plugins/shared-cache';

// Only the REST API is documented; tRPC, uploads and pages are not part of it.
const zodTransform = createJsonSchemaTransform({});
const zodTransformObject = createJsonSchemaTransformObject({});

export type BuildOptions = {
  logger?: FastifyServerOptions['logger'];
  /** false sends every tRPC request through tRPC's own handler (the differential test compares both). */
  plainQueries?: boolean;
  /** How often the count of replies the public cache answered (unlogged one by one) is logged. */
  cacheSummaryEveryMs?: number;
};

/** Logger options whose request lines carry no link tokens or sign-in codes (lib/log-redact). */
function withRedaction(logger: NonNullable<FastifyServerOptions['logger']>): FastifyServerOptions['logger'] {
  if (logger === false) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req: requestLogValue, res: responseLogValue } };
}

/** A JSON Content-Type without a charset, or with UTF-8 (any case, quoted or not). */
function isUtf8Declared(contentType: string | undefined): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset);
}

/**
 * The reply a connection past CONNECTIONS_PER_IP gets, in the shape of every other refusal
 * (plugins/errors.ts), written before its request is read.
 */
const CONNECTION_REFUSAL = (() => {
  const body = JSON.stringify(appErrorBody(new AppError('RATE_LIMITED', 'tooManyRequests')));
  return [
    'HTTP/1.1 429 Too Many Requests',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Retry-After: 10',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
})();

/** Static files (the client's and uploads) and the health check count against no request limit. */
function isUncounted(url: string, config: unknown): boolean {
  if (url.startsWith('/assets/') || url.startsWith('/uploads/') || url === '/healthz' || url.startsWith('/healthz?')) return true;
  // @fastify/static names the file it serves in each of its routes' config.
  return typeof config === 'object' && config !== null && 'rootPath' in config;
}

/** Builds the whole site as a Fastify instance that does not listen; index.ts and tests use it. */
export async function buildApp(deps: Deps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { env } = deps;
  const publicCache = createPublicCache(deps.db);
  let cacheAnswers = 0;
  const app = Fastify({
    // Cached public replies are answered before Fastify sees the request (plugins/public-cache),
    // so they get no log line of their own: they are counted, and the count logged (below).
    // Each client address holds at most CONNECTIONS_PER_IP connections (lib/connection-cap).
    serverFactory: (handler, serverOptions) =>
      capConnections(
        cacheFirstServer(publicCache, handler, serverOptions, () => cacheAnswers++),
        { max: connectionsPerIp(env), refusal: CONNECTION_REFUSAL },
      ),
    logger: withRedaction(options.logger ?? { level: env.LOG_LEVEL }),
    // Believe X-Forwarded-For only for the configured number of proxy hops, so a client cannot
    // pick its own IP (and escape per-IP limits) by sending the header itself.
    trustProxy: env.TRUST_PROXY > 0 ? (_address: string, hop: number) => hop < env.TRUST_PROXY : false,
    genReqId: () => crypto.randomUUID(),
    // The largest body read whole: tRPC's (REST JSON has its own, smaller limit below; multipart
    // bodies have theirs in the multipart plugin).
    bodyLimit: LARGE_JSON_BODY_LIMIT,
    routerOptions: { maxParamLength: 200 },
    // Malformed URLs and similar router errors get the same JSON shape as every other error.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as unknown as FastifyReply).status(400).send(appErrorBody(new AppError('BAD_INPUT', 'invalidInput')));
    },
  });
  // Documented DELETE calls send no body, but many clients still set Content-Type: application/json.
  // The body is read as UTF-8 (RFC 8259 allows nothing else); one declared in another charset
  // would be garbled, so it is refused with 415 instead.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Bodies are bounded in size (JSON_BODY_LIMIT unless a route sets its own bodyLimit) and in
  // nesting depth, checked in one pass before the parse (lib/json-limits). Bytes that are not
  // UTF-8 are refused (400) rather than read with replacement characters.
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: JSON_BODY_LIMIT }, (request, body, done) => {
    if (!isUtf8Declared(request.headers['content-type'])) return done(new AppError('UNSUPPORTED_MEDIA', 'unsupportedContentType'), undefined);
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(new AppError('BAD_INPUT', 'invalidUtf8'), undefined);
    const text = bytes.toString('utf8');
    if (jsonTooDeep(text)) return done(new AppError('BAD_INPUT', 'invalidInput'), undefined);
    return text === '' ? done(null, undefined) : parseJson(request, text, done);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(replySerializerCompiler);
  registerErrorHandler(app);

  // One line a minute (and at the stop) while the cache answers anything: how many it answered.
  const cacheSummaryEveryMs = options.cacheSummaryEveryMs ?? 60_000;
  const logCacheAnswers = () => {
    if (cacheAnswers === 0) return;
    app.log.info({ publicCacheAnswers: cacheAnswers, periodMs: cacheSummaryEveryMs }, 'answered from the public cache');
    cacheAnswers = 0;
  };
  const cacheSummary = setInterval(logCacheAnswers, cacheSummaryEveryMs);
  cacheSummary.unref();
  app.addHook('onClose', async () => {
    clearInterval(cacheSummary);
    logCacheAnswers();
  });

  // First of the onSend hooks: no reply (nor the public cache's copy of one) leaves before the
  // COMMIT of the group of writes open when it is sent (lib/group-commit.ts, docs/decisions/023).
  if (env.GROUP_COMMIT) {
    const group = installGroupCommit(deps.db.$client, {
      onError: (err) => {
        app.log.error({ err }, 'group commit failed; its writes were rolled back');
        moveStampAfterRollback(deps.db);
      },
      onCommitChanges: (changes) => countCommitChanges(deps.db, changes),
    });
    installGroupCommitBarrier(app, group);
    app.addHook('onClose', async () => group.uninstall());
  }

  await registerSecurity(app, env);
  // Replies built per request (searches, signed-in views) are compressed in one synchronous call
  // up to 256 KB, not through a zlib stream, and Brotli runs at quality 2: on a small VPS the
  // compression must cost less than answering. Kept public replies are compressed once, harder
  // (plugins/public-cache-store.ts). Measurements: docs/decisions/007 (64 KB until a 68 KB
  // directory search page showed the stream path costing ~100 ms of CPU a reply under load).
  await app.register(compress, {
    global: true,
    threshold: 1024,
    syncThreshold: 256 * 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 2 } },
  });
  // One limiter: REQUESTS_PER_MINUTE per client (IPv4 address, IPv6 /64) on every route and on
  // the pages (plugins/spa.ts), except static files and /healthz; routes with a config.rateLimit
  // of their own count against that instead. RATE_LIMITS=0 turns these off with the domain's
  // limits (without the plugin the config is inert).
  if (env.RATE_LIMITS) {
    await app.register(rateLimit, {
      global: true,
      max: env.REQUESTS_PER_MINUTE,
      timeWindow: '1 minute',
      keyGenerator: (request) => clientKeyOf(request.ip),
      allowList: (request) => isUncounted(request.url, request.routeOptions.config),
      errorResponseBuilder: () => ({ statusCode: 429, ...appErrorBody(new AppError('RATE_LIMITED', 'tooManyRequests')) }),
      // Retry-After only, as every other limit answers: no undocumented x-ratelimit-* headers.
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
      addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    });
  }
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 3, fields: 40, fieldSize: 100_000, parts: 50 } });
  registerHeadAfterCompression(app);
  await registerSession(app, deps.db, env);
  await registerPublicCache(app, publicCache, isPublicCacheQuery, publicCacheKeptWhile, (url) => pageKeptWhile(deps, url));

  // The document: each route's schemas plus what rest/openapi.ts adds (shared error, bodies, statuses).
  const siteUrl = env.PUBLIC_URL.replace(/\/+$/, '');
  const document = documentBuilder({ transform: zodTransform, transformObject: zodTransformObject }, [{ url: siteUrl, description: 'This site' }]);
  await app.register(swagger, {
    openapi: {
      info: documentInfo(version, siteUrl),
      components: { securitySchemes },
    },
    transform: (route) => (route.url.startsWith('/api/') ? document.transform(route) : { schema: { ...route.schema, hide: true }, url: route.url }),
    transformObject: document.transformObject,
  });

  // Compiled once: the container's health check polls this, and preparing took most of its time.
  // Logged from warn up only: at info every poll wrote two lines (incoming request, completed).
  const alive = deps.db.$client.prepare('select 1');
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/healthz', { logLevel: 'warn', schema: { hide: true, response: { 200: z.object({ ok: z.literal(true), version: z.string() }) } } }, async () => {
      alive.get();
      return { ok: true as const, version };
    });

  registerMethodCheck(app);
  await app.register(restRoutes(deps), { prefix: '/api' });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  const trpcOptions = {
    router: appRouter,
    createContext: createContextFactory(deps),
    // A 429 or 503 says when to come back, as REST's do (the errors' own Retry-After).
    responseMeta({ errors }) {
      const waits = errors.map((e) => (isAppError(e.cause) ? e.cause.retryAfterS : undefined)).filter((s) => s !== undefined);
      const busy = errors.some((e) => e.code === 'TOO_MANY_REQUESTS' || e.code === 'SERVICE_UNAVAILABLE');
      return busy ? { headers: new Headers({ 'retry-after': String(waits.length > 0 ? Math.max(...waits) : DEFAULT_RETRY_AFTER_S) }) } : {};
    },
    onError({ error, path: procedure, req }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error, procedure }, 'trpc error');
    },
  } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'];
  await app.register(
    async (trpcScope) => {
      registerHeadAsGet(trpcScope);
      // tRPC parses its JSON itself, after this: a body nested too deep never gets there.
      trpcScope.addHook('preValidation', async (req) => {
        if (typeof req.body === 'string' && jsonTooDeep(req.body)) throw new AppError('BAD_INPUT', 'invalidInput');
      });
      // tRPC's plugin reads JSON bodies with its own parser, so the charset rule is checked here.
      trpcScope.addHook('onRequest', async (req) => {
        if (req.headers['content-type']?.toLowerCase().startsWith('application/json') && !isUtf8Declared(req.headers['content-type'])) {
          throw new AppError('UNSUPPORTED_MEDIA', 'unsupportedContentType');
        }
      });
      // Plain GET queries skip the fetch adapter; the rest (and any error) goes to tRPC's handler.
      if (options.plainQueries !== false) {
        trpcScope.addHook('preHandler', async (req, reply) => {
          const body = await answerPlainQueries(deps, req, reply);
          // A Buffer, so Fastify adds no charset: tRPC's own handler says just application/json.
          if (body !== null) return reply.header('content-type', 'application/json').header('vary', 'trpc-accept').send(Buffer.from(body));
        });
      }
      await trpcScope.register(fastifyTRPCPlugin, { trpcOptions });
    },
    { prefix: '/trpc' },
  );

  await app.register(fastifyStatic, {
    root: deps.paths.uploads,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    // Cache-Control is set below (SHARED_UPLOAD): a year in browsers, a minute in shared caches.
    cacheControl: false,
    setHeaders(res) {
      res.header('Cache-Control', SHARED_UPLOAD);
      res.header('X-Content-Type-Options', 'nosniff');
      res.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    },
  });

  // The SPA answers every other GET with index.html; API paths answer JSON 404s.
  await app.register(unsubscribeRoutes(deps));
  await registerSiteFiles(app, deps);
  await registerSpa(app, deps);

  return app;
}
