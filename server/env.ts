import { z } from 'zod';

const bool = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** Every setting of the server, validated once at start. README.md documents each. */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.string().url().default('http://localhost:8000').transform((v) => v.replace(/\/+$/, '')),
  SMTP_URL: optionalString.pipe(z.string().url().optional()),
  MAIL_FROM: z.string().min(3).default('Recensera <no-reply@localhost>'),
  CONTACT_EMAIL: optionalString.pipe(z.string().email().optional()),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com').transform((v) => v.replace(/\/+$/, '')),
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
  TRUST_PROXY: z
    .union([bool.transform((on) => (on ? 1 : 0)), z.coerce.number().int().min(0).max(10)])
    .default(0),
  /** 0 turns off the per-IP and per-user limits; only for load benchmarks on a private machine. */
  RATE_LIMITS: bool.default(true),
});

export type Env = Readonly<z.infer<typeof envSchema>>;

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
  return Object.freeze(parsed.data);
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

export const googleEnabled = (env: Env) => Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);
export const secureCookies = (env: Env) => env.PUBLIC_URL.startsWith('https://');
