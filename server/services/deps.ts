import path from 'node:path';
import type { Db, DbOrTx } from '../../db/client';
import type { Env } from '../env';
import type { Mail } from './ops/mail';
import type { RateLimits } from './rate-limits';

/** The durable mail queue every service writes to; made by createOutbox (services/ops/mail-outbox.ts). */
export type Outbox = {
  /** Queues a mail (see enqueueMail) and wakes the worker. */
  enqueue(mail: Mail, options?: { db?: DbOrTx; contactMessageId?: string; sendAt?: number }): string;
  /** Sends every mail due now, joining a run in progress; resolves when none is left due. */
  deliverDue(): Promise<void>;
  /** Stops the timer and further runs; await deliverDue() after it for the run in flight. */
  stop(): void;
};

/** What every service may need beyond its arguments; built once in index.ts (or per test). */
export type Deps = {
  db: Db;
  env: Env;
  /** Every mail goes through the durable outbox (services/ops/mail-outbox.ts), never straight out. */
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
