import { messageText, type MessageKey } from '../../shared/schemas/messages';

export const errorStatus = {
  BAD_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  RATE_LIMITED: 429,
  BUSY: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const trpcCodeOf = {
  BAD_INPUT: 'BAD_REQUEST',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_SUPPORTED',
  CONFLICT: 'CONFLICT',
  TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  BUSY: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<ErrorCode, string>;

/** Retry-After of a 429 or 503 whose cause knows no better time (a limiter says its own). */
export const DEFAULT_RETRY_AFTER_S = 5;

/**
 * The one error type of the domain. `key` names a message in shared/schemas/messages.ts, so
 * REST sends its English text and the client shows its translation. `fields` maps form field
 * names to message keys for validation errors. `retryAfterS` (a full queue, a limit) becomes the
 * Retry-After header of the reply; every RATE_LIMITED and BUSY error has one.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly key: MessageKey;
  /** Per field: a MessageKey, or a text to show as it is. */
  readonly fields?: Record<string, string>;
  readonly status: number;
  readonly retryAfterS?: number;
  /** A person's own words the reply carries as they are (the reason of a ban): REST `banReason`, tRPC `data.banReason`. */
  readonly banReason?: string;

  constructor(code: ErrorCode, key: MessageKey, fields?: Record<string, string>, options: { retryAfterS?: number; banReason?: string } = {}) {
    super(messageText(key));
    this.name = 'AppError';
    this.code = code;
    this.key = key;
    this.fields = fields;
    this.status = errorStatus[code];
    this.banReason = options.banReason;
    this.retryAfterS = options.retryAfterS ?? (code === 'RATE_LIMITED' || code === 'BUSY' ? DEFAULT_RETRY_AFTER_S : undefined);
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** @fastify/multipart's limit errors by code: a file too large, or too many fields, parts or files. */
export function multipartLimitError(code: string | undefined): AppError | null {
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('TOO_LARGE', 'imageTooLarge');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('TOO_LARGE', 'formTooManyFields');
    case 'FST_FILES_LIMIT':
      return new AppError('TOO_LARGE', 'formTooManyFiles');
    default:
      return null;
  }
}
