import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { isAppError, trpcCodeOf } from '../lib/errors';
import { fieldsFromIssues } from '../lib/validation';
import { messageText, isMessageKey, type MessageKey } from '../../shared/schemas/messages';
import { requireActive, requireAdmin, requireSignedIn } from '../services/actor';
import type { StampScope } from '../lib/data-stamp';
import type { Context } from './context';

const frameworkKeys: Partial<Record<TRPCError['code'], MessageKey>> = {
  NOT_FOUND: 'routeNotFound',
  PAYLOAD_TOO_LARGE: 'bodyTooLarge',
  UNSUPPORTED_MEDIA_TYPE: 'unsupportedContentType',
  TOO_MANY_REQUESTS: 'tooManyRequests',
};

/** What a procedure declares about itself; read by the HTTP layer (server/trpc/procedures.ts). */
export type ProcedureMeta = {
  /**
   * The anonymous answer of this query depends only on its input and the data, so the public
   * reply cache (plugins/public-cache.ts) may keep it while the data stamp holds.
   */
  publicCache?: boolean;
  /**
   * What those kept answers depend on (lib/data-stamp.ts, `scopedStamp`): `all` the data unless
   * the answer is made of businesses, branches, categories and images alone (`businesses`).
   */
  keptWhile?: StampScope;
};

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // Errors reach the client as { message (English), data.key (message key), data.fields }.
    // The client shows the key's translation. Internal errors keep their detail in the log only.
    errorFormatter({ shape, error }) {
      const cause = error.cause;
      if (isAppError(cause)) {
        return {
          ...shape,
          message: cause.message,
          data: { ...shape.data, stack: undefined, key: cause.key, fields: cause.fields ?? null, banReason: cause.banReason ?? null },
        };
      }
      if (cause instanceof ZodError) {
        const fields = fieldsFromIssues(cause.issues);
        return {
          ...shape,
          message: messageText('invalidInput'),
          data: { ...shape.data, stack: undefined, key: 'invalidInput', fields: fields ?? null },
        };
      }
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        return { ...shape, message: messageText('internal'), data: { ...shape.data, stack: undefined, key: 'internal', fields: null } };
      }
      // tRPC's own errors (a body that is not JSON, an unknown procedure) carry English text of the
      // framework's; the client gets the product's message for them instead.
      if (isMessageKey(error.message)) return { ...shape, data: { ...shape.data, stack: undefined, key: error.message, fields: null } };
      const key = frameworkKeys[error.code] ?? 'invalidInput';
      return { ...shape, message: messageText(key), data: { ...shape.data, stack: undefined, key, fields: null } };
    },
  });

/**
 * tRPC wraps anything thrown that is not a TRPCError as INTERNAL_SERVER_ERROR (HTTP 500). An
 * AppError is the domain saying exactly what went wrong, so it gets its own code and status.
 */
const appErrorCodes = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: trpcCodeOf[cause.code], message: cause.message, cause });
  }
  return result;
});
const procedure = t.procedure.use(appErrorCodes);

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = procedure;
/** A public query the public reply cache may answer for visitors (see ProcedureMeta). */
export const cachedPublicProcedure = procedure.meta({ publicCache: true });
/**
 * The same for a query answered from the directory's kept cards and the business lists alone: its
 * kept answers outlive writes that cannot change them (a reaction, a reply, a renamed user).
 */
export const cachedBusinessesProcedure = procedure.meta({ publicCache: true, keptWhile: 'businesses' });

/** Signed in (banned users too: they may log out, export and delete their account). */
export const signedInProcedure = procedure.use(({ ctx, next }) => next({ ctx: { ...ctx, actor: requireSignedIn(ctx.actor) } }));
/** Signed in and not banned. */
export const activeProcedure = procedure.use(({ ctx, next }) => next({ ctx: { ...ctx, actor: requireActive(ctx.actor) } }));
export const adminProcedure = procedure.use(({ ctx, next }) => next({ ctx: { ...ctx, actor: requireAdmin(ctx.actor) } }));
