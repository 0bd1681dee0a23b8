// Kept free of zod: the first chunk's catalogs (shared/i18n/*/notifications.ts) read this, and
// nothing on a first page may load zod (docs/decisions/021; client/first-load-imports.test.ts).

/**
 * An open thread notice's replies are counted live up to this many (services/notifications,
 * liveCount); the entry then says "99+".
 */
export const THREAD_COUNT_MAX = 100;
/** A thread notice's count as its sentence writes it. */
export const threadCountText = (n: number) => (n >= THREAD_COUNT_MAX ? `${THREAD_COUNT_MAX - 1}+` : String(n));
