/**
 * What anonymous public replies tell shared caches (a CDN, nginx's proxy_cache, Varnish; issue
 * 32 items 5–6): the same reply for every visitor, fresh for SHARED_FRESH_S seconds, then served
 * stale for at most SHARED_STALE_S more while the cache asks again in the background. A new post
 * reaches visitors behind such a cache within PROMISED_VISIBLE_S seconds; the server's own public
 * cache (public-cache.ts) is exact and needs none of this. Anything personal says
 * `private, no-store` (session.ts) and varies by Cookie and Authorization.
 */
export const SHARED_FRESH_S = 5;
export const SHARED_STALE_S = 5;
/** The longest a visitor behind a shared cache that obeys these headers sees a reply from before a write. */
export const PROMISED_VISIBLE_S = SHARED_FRESH_S + SHARED_STALE_S;

/** Cache-Control of an anonymous public list, page or feed. */
export const SHARED_PUBLIC = `public, max-age=0, s-maxage=${SHARED_FRESH_S}, stale-while-revalidate=${SHARED_STALE_S}`;

/**
 * Cache-Control of an uploaded picture: browsers keep it (its name never changes), shared caches
 * only for a minute, so a picture a moderator removed leaves them within that minute.
 */
export const SHARED_UPLOAD = 'public, max-age=31536000, s-maxage=60, stale-while-revalidate=60, immutable';
