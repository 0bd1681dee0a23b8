import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, migrateDb, openDb } from '../db/client';
import { createTestUser, freePort } from './test/helpers';

let dir: string;
let server: ChildProcess | null = null;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-shutdown-'));
});
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Issue 21 (7): a SIGTERM while an authenticated upload trickles in must not wait for the
 * upload: the server exits 0 within 8 s (before a container runtime's SIGKILL at 10 s), with
 * the database closed (its WAL checkpointed away).
 */
describe('stopping the server', { timeout: 40_000 }, () => {
  it('exits 0 within 8 s of SIGTERM during a slow upload, with the database closed', async () => {
    const dbFile = path.join(dir, 'recensera.sqlite');
    const db = openDb(dbFile);
    migrateDb(db);
    const user = await createTestUser(db);
    closeDb(db);

    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: '0', LOG_LEVEL: 'info', PUBLIC_URL: `http://127.0.0.1:${port}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    let log = '';
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: performance.now() })));
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Recensera is up')) resolve();
      });
      child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      void exited.then(() => reject(new Error(`server exited before it was up:\n${log}`)));
    });

    // An upload that announces 5 MB and sends a byte every 100 ms.
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    socket.on('error', () => undefined);
    const boundary = 'trickle';
    socket.write(
      [
        'POST /api/images HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Authorization: Bearer ${user.token}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        'Content-Length: 5000000',
        '',
        `--${boundary}`,
        'Content-Disposition: form-data; name="image"; filename="slow.png"',
        'Content-Type: image/png',
        '',
        '',
      ].join('\r\n'),
    );
    const trickle = setInterval(() => socket.write('x'), 100);
    const socketClosed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // SIGTERM only once the server is reading the upload (on a busy machine it may not be yet).
    await new Promise<void>((resolve) => {
      const seen = () => log.includes('"url":"/api/images"') && resolve();
      seen();
      child.stdout?.on('data', seen);
    });

    const sentAt = performance.now();
    child.kill('SIGTERM');
    const { code, at } = await exited;
    clearInterval(trickle);
    server = null;

    expect(code, log).toBe(0);
    expect(at - sentAt).toBeLessThan(8_000);
    await socketClosed;
    // The lock is removed only after the database was closed.
    expect(existsSync(path.join(dir, 'server.lock'))).toBe(false);
    // SQLite removes the WAL when the last connection closes after a checkpoint.
    const wal = `${dbFile}-wal`;
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
  });
});
