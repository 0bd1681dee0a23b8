import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, openDb } from '../../db/client';
import { emailTokens, sessions, users } from '../../db/schema';
import { hashEmailToken } from '../services/accounts/account-mail';
import { createTestUser } from '../test/helpers';

const run = promisify(execFile);
let dir: string;
let email: string;
let bannedEmail: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-admin-'));
  const db = openDb(path.join(dir, 'recensera.sqlite'));
  migrateDb(db);
  email = (await createTestUser(db, { email: 'Blivande.Admin@example.se' })).email;
  bannedEmail = (await createTestUser(db, { isBanned: true })).email;
  closeDb(db);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function makeAdmin(arg: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/run-cli.mjs', 'admin', arg], {
      env: { ...process.env, DATA_DIR: dir, DEMO_DATA: '0', PUBLIC_URL: 'https://recensioner.example.se' },
    });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

const isAdmin = (address: string) => {
  const db = openDb(path.join(dir, 'recensera.sqlite'));
  try {
    return db.select().from(users).where(eq(users.email, address)).get()?.isAdmin;
  } finally {
    closeDb(db);
  }
};

// Each case starts tsx twice; on a busy machine that alone can take several seconds.
describe('npm run admin -- <email>', { timeout: 60_000 }, () => {
  it('promotes an existing account (any letter case), and says so when it already is admin', async () => {
    const first = await makeAdmin('BLIVANDE.admin@example.se');
    expect(first).toEqual({ code: 0, out: 'BLIVANDE.admin@example.se is now an admin.\n' });
    expect(isAdmin(email)).toBe(true);
    expect((await makeAdmin(email)).out).toBe(`${email} is already an admin.\n`);
  });

  it('creates a confirmed admin for an unknown address and prints a one-time set-password link', async () => {
    const created = await makeAdmin('Ny.Chef@example.se');
    expect(created.code).toBe(0);
    const link = created.out.match(/^(https:\/\/recensioner\.example\.se\/reset-password\?token=(\S+))$/m);
    expect(created.out).toContain('Created a confirmed admin account for Ny.Chef@example.se.');
    expect(link).not.toBeNull();
    const db = openDb(path.join(dir, 'recensera.sqlite'));
    try {
      const user = db.select().from(users).where(eq(users.email, 'ny.chef@example.se')).get();
      expect(user).toMatchObject({ isAdmin: true, emailConfirmed: true, passwordHash: null, firstName: 'Ny Chef' });
      const token = db
        .select()
        .from(emailTokens)
        .where(eq(emailTokens.tokenHash, hashEmailToken(decodeURIComponent(link?.[2] ?? ''))))
        .get();
      expect(token).toMatchObject({ userId: user?.id, kind: 'reset', usedAt: null });
    } finally {
      closeDb(db);
    }
  });

  it('takes an unconfirmed account away from whoever registered it: password, links and sessions go', async () => {
    const db = openDb(path.join(dir, 'recensera.sqlite'));
    const eve = await createTestUser(db, { email: 'chef@example.se', firstName: 'Eve' });
    db.update(users).set({ emailConfirmed: false }).where(eq(users.id, eve.id)).run();
    closeDb(db);

    const claimed = await makeAdmin('chef@example.se');
    expect(claimed.code).toBe(0);
    expect(claimed.out).toContain('chef@example.se was registered but never confirmed: its password, sessions and pending links are removed');
    expect(claimed.out).toMatch(/^https:\/\/recensioner\.example\.se\/reset-password\?token=\S+$/m);
    const after = openDb(path.join(dir, 'recensera.sqlite'));
    try {
      expect(after.select().from(users).where(eq(users.id, eve.id)).get()).toMatchObject({
        isAdmin: true,
        emailConfirmed: true,
        passwordHash: null,
        firstName: 'Chef',
      });
      expect(after.select().from(sessions).where(eq(sessions.userId, eve.id)).all()).toEqual([]);
    } finally {
      closeDb(after);
    }
  });

  it('fails clearly for a banned user and for a malformed address', async () => {
    const banned = await makeAdmin(bannedEmail);
    expect(banned.code).toBe(1);
    expect(banned.out).toContain('a banned user cannot be made admin');
    expect(isAdmin(bannedEmail)).toBe(false);
    const malformed = await makeAdmin('not-an-address');
    expect(malformed).toEqual({ code: 2, out: 'Usage: npm run admin -- <email>\n' });
  });
});
