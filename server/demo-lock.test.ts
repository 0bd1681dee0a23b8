import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, openDb } from '../db/client';
import { sessions, users } from '../db/schema';
import { newId } from './lib/ids';
import { PUBLISHED_DEMO_PASSWORD } from './services/ops/demo-lock';
import { createSession } from './services/accounts/sessions';
import { freePort } from './test/helpers';

let dir: string;
let server: ChildProcess | null = null;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-demo-lock-'));
});
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts server/index.ts on `dir`; resolves with its port and log once it listens. */
async function startServer(): Promise<{ port: number; log: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    // DEMO_DATA on, as in a 0.1.0 container: demo accounts exist, so nothing is seeded.
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: '1', LOG_LEVEL: 'info', BACKUP_EVERY: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let log = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Recensera is up')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    void exited.then(() => reject(new Error(`server exited before it was up:\n${log}`)));
  });
  return {
    port,
    log: () => log,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      server = null;
    },
  };
}

/**
 * Issue 26 (3): a 0.1.0 site upgraded in place keeps its demo accounts with the password its
 * README published. The next start locks each one that still has it, and only those.
 */
describe('demo accounts with the published password', { timeout: 60_000 }, () => {
  it('are locked at start (password gone, signed out), logged in one line; others keep theirs', async () => {
    const db = openDb(path.join(dir, 'recensera.sqlite'));
    migrateDb(db);
    const published = await argon2.hash(PUBLISHED_DEMO_PASSWORD, { type: argon2.argon2id });
    const own = await argon2.hash('Ett-eget-losenord-9', { type: argon2.argon2id });
    const now = Date.now();
    const insert = (email: string, passwordHash: string, isAdmin = false) => {
      const id = newId();
      db.insert(users)
        .values({ id, email, passwordHash, firstName: 'Demo', lastName: 'Konto', isAdmin, emailConfirmed: true, createdAt: now, updatedAt: now })
        .run();
      return id;
    };
    const admin = insert('admin@demo.recensera.se', published, true);
    const anna = insert('anna@demo.recensera.se', published);
    const erik = insert('erik@demo.recensera.se', own);
    // Not a demo address: whatever its password, the lock leaves it alone.
    const stranger = insert('someone@example.se', published);
    const adminSession = createSession(db, admin).token;
    const erikSession = createSession(db, erik).token;
    closeDb(db);

    const first = await startServer();
    const base = `http://127.0.0.1:${first.port}`;
    const logIn = (email: string, password: string) =>
      fetch(`${base}/api/users/logIn`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    const check = (token: string) => fetch(`${base}/api/users/auth/check`, { headers: { authorization: `Bearer ${token}` } });
    try {
      expect((await logIn('admin@demo.recensera.se', PUBLISHED_DEMO_PASSWORD)).status).toBe(401);
      expect((await check(adminSession)).status).toBe(401);
      expect((await logIn('erik@demo.recensera.se', 'Ett-eget-losenord-9')).status).toBe(200);
      expect((await check(erikSession)).status).toBe(200);
      expect((await logIn('someone@example.se', PUBLISHED_DEMO_PASSWORD)).status).toBe(200);

      const lines = first
        .log()
        .split('\n')
        .filter((l) => l.includes('demo account'));
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]) as { level: number; msg: string; accounts: string[] };
      expect(line.accounts.sort()).toEqual(['admin@demo.recensera.se', 'anna@demo.recensera.se']);
      expect(line.msg).toContain('Locked 2 demo account(s)');
      expect(line.msg).toContain('npm run admin -- you@example.se');
      expect(line.level).toBe(40);
    } finally {
      await first.stop();
    }

    const after = openDb(path.join(dir, 'recensera.sqlite'));
    try {
      for (const id of [admin, anna]) expect(after.select().from(users).where(eq(users.id, id)).get()?.passwordHash).toBeNull();
      // Still the same password (its login re-hashed it with today's parameters, services/passwords).
      expect(await argon2.verify(after.select().from(users).where(eq(users.id, stranger)).get()?.passwordHash ?? '', PUBLISHED_DEMO_PASSWORD)).toBe(true);
      expect(after.select().from(sessions).where(eq(sessions.userId, admin)).all()).toEqual([]);
    } finally {
      closeDb(after);
    }

    // The next start has nothing left to lock and says nothing about it.
    const second = await startServer();
    await second.stop();
    expect(second.log()).not.toContain('demo account');
  });
});
