import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, isAppError, multipartLimitError } from '../lib/errors';
import { fieldsFromIssues } from '../lib/validation';
import { messageText } from '../../shared/schemas/messages';

export type ErrorBody = { message: string; key: string; errors?: Record<string, string>; banReason?: string };

export function appErrorBody(err: AppError): ErrorBody {
  const body: ErrorBody = { message: err.message, key: err.key };
  if (err.fields) body.errors = Object.fromEntries(Object.entries(err.fields).map(([k, v]) => [k, messageText(v)]));
  if (err.banReason) body.banReason = err.banReason;
  return body;
}

/**
 * The one place errors become HTTP replies: AppError by its code, schema and parse errors as
 * 400, framework limits by their status, anything else a 500 whose detail stays in the log.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isAppError(error)) {
      if (error.retryAfterS !== undefined) reply.header('retry-after', String(error.retryAfterS));
      else if (error.status >= 500) request.log.error({ err: error }, 'app error');
      return reply.status(error.status).send(appErrorBody(error));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldsFromIssues(
        error.validation.map((v) => ({
          path: String(v.instancePath ?? '')
            .split('/')
            .filter(Boolean),
          message: v.message ?? 'invalidInput',
          code: v.keyword,
          ...(v.params as { origin?: string; expected?: string }),
        })),
      );
      const app = new AppError('BAD_INPUT', 'invalidInput', fields);
      return reply.status(400).send(appErrorBody(app));
    }
    const status = error.statusCode ?? 500;
    const limit = multipartLimitError(error.code);
    if (limit) return reply.status(413).send(appErrorBody(limit));
    if (status === 413) {
      return reply.status(413).send(appErrorBody(new AppError('TOO_LARGE', 'bodyTooLarge')));
    }
    if (status === 429 || status === 503) {
      const app = status === 429 ? new AppError('RATE_LIMITED', 'tooManyRequests') : new AppError('BUSY', 'serverBusy');
      // @fastify/rate-limit has set its own Retry-After (the seconds left of its window).
      if (!reply.hasHeader('retry-after')) reply.header('retry-after', String(app.retryAfterS));
      return reply.status(status).send(appErrorBody(app));
    }
    if (status === 415) {
      return reply.status(415).send(appErrorBody(new AppError('UNSUPPORTED_MEDIA', 'unsupportedContentType')));
    }
    if (status >= 400 && status < 500) {
      return reply
        .status(status)
        .send(appErrorBody(new AppError(status === 404 ? 'NOT_FOUND' : 'BAD_INPUT', status === 404 ? 'routeNotFound' : 'invalidInput')));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: messageText('internal'), key: 'internal' } satisfies ErrorBody);
  });
}
