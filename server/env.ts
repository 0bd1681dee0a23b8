import { z } from 'zod';

const bool = z.enum(['0', '1', 'true', 'false', 'yes', 'no']).transform((v) => v === '1' || v === 'true' || v === 'yes');

import { isTileTemplate, OSM_ATTRIBUTION, OSM_TILES } from '../shared/schemas/map-settings';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** A duration such as 30m, 1h, 7d, more than zero. */
const positiveDuration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.string().regex(/^[1-9]\d*(m|h|d)$/, 'a number with m, h or d (30m, 1h, 7d)'))
    .transform((v) => durationMs(v));

/** An https:// address (a page of the community's elsewhere), or unset. */
const httpsUrl = z
  .string()
  .url()
  .refine((v) => v.startsWith('https://'), 'an https:// address')
  .optional();

/** Every setting of the server, validated once at start. README.md documents each. */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Unset: http://localhost:<PORT> (loadEnv fills it in), so links point where the server listens. */
  PUBLIC_URL: z
    .string()
    .url()
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  SMTP_URL: optionalString.pipe(z.string().url().optional()),
  MAIL_FROM: z.string().min(3).default('Recensera <no-reply@localhost>'),
  CONTACT_EMAIL: optionalString.pipe(z.string().email().optional()),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER: z
    .string()
    .url()
    .default('https://accounts.google.com')
    .transform((v) => v.replace(/\/+$/, '')),
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().email())),
  DEMO_DATA: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Proxies in front of the server whose X-Forwarded-For may be believed: 0 (none), 1, 2 … */
  TRUST_PROXY: z.union([bool.transform((on) => (on ? 1 : 0)), z.coerce.number().int().min(0).max(10)]).default(0),
  /** How many users' open reports hide a comment or reply until a moderator decides. */
  REPORT_HIDE_THRESHOLD: z.coerce.number().int().min(1).max(1000).default(3),
  /** A reporter counts towards a hide once their account is this old (and has an older public post). */
  REPORT_TRUST_AGE: positiveDuration('72h'),
  /** 0 turns off the spam rules for new posts (server/services/moderation/spam.ts); tests of other things. */
  SPAM_RULES: bool.default(true),
  /** A rating burst (services/moderation/rating-bursts.ts): this many star ratings on one business … */
  RATING_BURST_RATINGS: z.coerce.number().int().min(2).max(10_000).default(3),
  /** … within this window … */
  RATING_BURST_WINDOW: positiveDuration('24h'),
  /** … from accounts younger than this puts an entry in the moderation queue. */
  RATING_BURST_ACCOUNT_AGE: positiveDuration('7d'),
  /** 0 turns off the per-IP and per-user limits; only for load benchmarks on a private machine. */
  RATE_LIMITS: bool.default(true),
  /** Write transactions of one event-loop turn share one COMMIT (lib/group-commit.ts, docs/decisions/023); 0 turns it off. */
  GROUP_COMMIT: bool.default(true),
  /**
   * Requests one client (an IPv4 address, an IPv6 /64) may make a minute, over every route
   * without a limit of its own; static files and /healthz are not counted.
   */
  REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  /**
   * Connections one client address may hold open at once; 0: no cap. Unset: 64, or 0 when
   * TRUST_PROXY is set (every connection then comes from the proxy, which should cap instead).
   */
  CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(100_000).optional(),
  /** How often the server backs itself up: 30m, 6h, 24h, 7d …; 0 or off: never. */
  BACKUP_EVERY: z
    .string()
    .default('24h')
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.string().regex(/^(0|off|\d+(m|h|d))$/, 'a number with m, h or d (30m, 24h, 7d), or 0 / off'))
    .transform((v) => durationMs(v)),
  /** How many scheduled backups to keep (the oldest go first). */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /** Where backups go; unset: DATA_DIR/backups. */
  BACKUP_DIR: optionalString,
  /** The community's own pages, linked from the footer; an unset one shows no icon. */
  SOCIAL_FACEBOOK_URL: optionalString.pipe(httpsUrl),
  SOCIAL_INSTAGRAM_URL: optionalString.pipe(httpsUrl),
  SOCIAL_LINKEDIN_URL: optionalString.pipe(httpsUrl),
  /**
   * Map tiles for the business and directory maps: an https template with {z}, {x}, {y} (and
   * optionally {s}); unset: OpenStreetMap's standard tiles; off: no maps, no third-party tiles.
   */
  MAP_TILE_URL: z
    .string()
    .default(OSM_TILES)
    .transform((v) => v.trim() || OSM_TILES)
    .pipe(z.string().refine((v) => v.toLowerCase() === 'off' || isTileTemplate(v), 'off, or an https:// address with {z}, {x} and {y}'))
    .transform((v) => (v.toLowerCase() === 'off' ? null : v)),
  /** The attribution shown on the map (HTML); unset: OpenStreetMap's, which its tiles require. */
  MAP_TILE_ATTRIBUTION: z.string().default(OSM_ATTRIBUTION),
});

/** '30m', '24h', '7d' as milliseconds; '0' and 'off' as 0 (no schedule). */
function durationMs(value: string): number {
  const m = /^(\d+)(m|h|d)$/.exec(value);
  if (!m) return 0;
  return Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm' | 'h' | 'd'];
}

export type Env = Readonly<z.infer<typeof envSchema> & { PUBLIC_URL: string }>;

/** Settings that may hold a password or key (SMTP_URL carries the mail server's password). */
const SECRET_SETTINGS = new Set(['SMTP_URL', 'GOOGLE_CLIENT_SECRET']);

export class EnvError extends Error {}

/** Parses settings from `source` (process.env by default); throws EnvError naming each bad value. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty variable (PORT=) means "not set", never an empty or zero value.
  const picked = Object.fromEntries(Object.keys(envSchema.shape).map((k) => [k, source[k] === '' ? undefined : source[k]]));
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      // A secret setting's value is never printed: start-up errors end up in logs.
      const got = SECRET_SETTINGS.has(name) ? 'value not shown: it may hold a secret' : `got ${JSON.stringify(picked[name])}`;
      return `  ${i.path.join('.')}: ${i.message} (${got})`;
    });
    throw new EnvError(`Invalid settings:\n${lines.join('\n')}`);
  }
  return Object.freeze({ ...parsed.data, PUBLIC_URL: parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}` });
}

/** Loads the settings or, with a bad value, prints what is wrong and exits (start and CLI scripts). */
export function loadEnvOrExit(source: Record<string, string | undefined> = process.env): Env {
  try {
    return loadEnv(source);
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
}

/** CONNECTIONS_PER_IP as it applies: set, or 64 without a proxy in front, 0 (no cap) behind one. */
export const connectionsPerIp = (env: Env) => env.CONNECTIONS_PER_IP ?? (env.TRUST_PROXY > 0 ? 0 : 64);

export const googleEnabled = (env: Env) => Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);
export const secureCookies = (env: Env) => env.PUBLIC_URL.startsWith('https://');
