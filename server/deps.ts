import path from 'node:path';
import type { Db } from '../db/client';
import type { Env } from './env';
import type { Outbox } from './services/mail-outbox';
import type { RateLimits } from './services/rate-limits';

/** What every service may need beyond its arguments; built once in index.ts (or per test). */
export type Deps = {
  db: Db;
  env: Env;
  /** Every mail goes through the durable outbox (services/mail-outbox.ts), never straight out. */
  outbox: Outbox;
  /** Per-key limits (services/rate-limits.ts), one set per app so apps never share counts. */
  limits: RateLimits;
  paths: { data: string; uploads: string; outbox: string; client: string; backups: string };
};

export function dataPaths(env: Env, clientDir: string): Deps['paths'] {
  const data = path.resolve(env.DATA_DIR);
  const backups = env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : path.join(data, 'backups');
  return { data, uploads: path.join(data, 'uploads'), outbox: path.join(data, 'outbox'), client: clientDir, backups };
}
