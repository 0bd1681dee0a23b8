import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { closeDb, openDb, type Db } from '../../db/client';
import { users } from '../../db/schema';
import { buildApp } from '../app';
import type { Deps } from '../services/deps';
import { loadEnv, type Env } from '../env';
import { newId } from '../lib/ids';
import { createMailer, type Mailer } from '../services/ops/mail';
import { createOutbox } from '../services/ops/mail-outbox';
import { ARGON2_OPTIONS } from '../services/accounts/passwords';
import { createRateLimits } from '../services/rate-limits';
import { createSession } from '../services/accounts/sessions';
import { createCaller } from '../trpc/caller';
import type { Actor } from '../services/actor';
import { checkRepliesOf } from './openapi-replies';

export type TestContext = {
  app: FastifyInstance;
  deps: Deps;
  db: Db;
  dir: string;
  close(): Promise<void>;
};

/**
 * A real app on a fresh copy of the migrated template database in its own temp DATA_DIR.
 * `env` overrides settings (e.g. SMTP_URL of an smtp-server started by the test).
 */
export async function createTestApp(
  options: { env?: Record<string, string>; mailer?: Mailer; clientDir?: string; now?: () => number } = {},
): Promise<TestContext> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-test-'));
  const file = path.join(dir, 'recensera.sqlite');
  copyFileSync(inject('templateDb'), file);
  const env: Env = loadEnv({
    DATA_DIR: dir,
    PUBLIC_URL: 'http://localhost:8000',
    LOG_LEVEL: 'silent',
    DEMO_DATA: '0',
    // Test users are minutes old and post the same text again and again; spam.test.ts turns the rules on.
    SPAM_RULES: '0',
    // Whole test files run from one address; limits.test.ts tests the general limit with a low one.
    REQUESTS_PER_MINUTE: '1000000',
    ...options.env,
  });
  const db = openDb(file);
  const paths = {
    data: dir,
    uploads: path.join(dir, 'uploads'),
    outbox: path.join(dir, 'outbox'),
    client: options.clientDir ?? path.join(dir, 'no-client'),
    backups: path.join(dir, 'backups'),
  };
  mkdirSync(paths.uploads, { recursive: true });
  const silent = { info() {}, error() {} };
  // No polling timer: tests deliver with `await deps.outbox.deliverDue()` (or the wake-up after a queued mail).
  const outbox = createOutbox(db, options.mailer ?? createMailer(env, paths.outbox, silent), silent, { now: options.now, pollMs: null });
  const deps: Deps = { db, env, outbox, limits: createRateLimits({ enabled: env.RATE_LIMITS }), paths };
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  // Every /api reply a test receives is checked against the OpenAPI document (test/openapi-replies.ts).
  checkRepliesOf(app);
  return {
    app,
    deps,
    db,
    dir,
    async close() {
      outbox.stop();
      await outbox.deliverDue();
      await app.close();
      closeDb(db);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TestUser = { id: string; email: string; password: string; token: string; actor: NonNullable<Actor> };

let hashCache: { password: string; hash: string } | null = null;

/**
 * Inserts a confirmed user directly (test data set-up, not a code path under test) and opens a
 * session for them. Use the accounts service in tests of registration itself.
 */
export async function createTestUser(
  db: Db,
  opts: {
    email?: string;
    firstName?: string;
    lastName?: string;
    isAdmin?: boolean;
    isModerator?: boolean;
    isBanned?: boolean;
    language?: 'sv' | 'en';
    nameDisplay?: 'full' | 'initial';
  } = {},
): Promise<TestUser> {
  const password = 'Secret-pass-123';
  if (!hashCache) hashCache = { password, hash: await argon2.hash(password, ARGON2_OPTIONS) };
  const id = newId();
  const email = (opts.email ?? `user-${id}@example.com`).toLowerCase();
  const now = Date.now();
  db.insert(users)
    .values({
      id,
      email,
      passwordHash: hashCache.hash,
      firstName: opts.firstName ?? 'Test',
      lastName: opts.lastName ?? 'Person',
      isAdmin: opts.isAdmin ?? false,
      isModerator: opts.isModerator ?? false,
      isBanned: opts.isBanned ?? false,
      emailConfirmed: true,
      language: opts.language ?? 'sv',
      // Like the accounts from before the choice (migration 0017); name tests ask for 'initial'.
      nameDisplay: opts.nameDisplay ?? 'full',
      createdAt: now,
      updatedAt: now,
    })
    .run();
  const { token } = createSession(db, id);
  return {
    id,
    email,
    password,
    token,
    actor: {
      id,
      email,
      firstName: opts.firstName ?? 'Test',
      lastName: opts.lastName ?? 'Person',
      isAdmin: opts.isAdmin ?? false,
      isModerator: opts.isModerator ?? false,
      isBanned: opts.isBanned ?? false,
      language: opts.language ?? 'sv',
    },
  };
}

/** Authorization header for REST calls as this user. */
export const bearer = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });

/** A tRPC caller acting as `user` (or a visitor), going through the real router and middleware. */
export function callerFor(deps: Deps, user: TestUser | null) {
  return createCaller(deps, user?.actor ?? null);
}

/** The five kinds of actor every permission test tries. */
export async function createCast(db: Db) {
  const [owner, other, banned, admin] = await Promise.all([
    createTestUser(db, { firstName: 'Olle', lastName: 'Owner' }),
    createTestUser(db, { firstName: 'Ada', lastName: 'Other' }),
    createTestUser(db, { firstName: 'Bo', lastName: 'Banned', isBanned: true }),
    createTestUser(db, { firstName: 'Alma', lastName: 'Admin', isAdmin: true }),
  ]);
  return { visitor: null, owner, other, banned, admin };
}

/** A local port nothing listens on right now: taken from a server that is closed again at once. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * A multipart/form-data body as a browser's FormData sends it, with each file as a PNG part
 * named after its field; spread into app.inject ({ payload, headers }).
 */
export async function pngForm(fields: Record<string, string>, files: Record<string, Buffer> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, data] of Object.entries(files)) form.append(k, new Blob([new Uint8Array(data)], { type: 'image/png' }), `${k}.png`);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type') as string } };
}
