import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR/server.lock names the server process using the folder, so `npm run restore` can
 * refuse while it runs. A lock left by a killed server is recognised as stale: its pid is gone,
 * or (pids are reused, e.g. PID 1 in a new container) belongs to a process started at another
 * time (Linux /proc start time).
 */
const LOCK = 'server.lock';

function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (start time); fields are counted after the parenthesised command name.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

/** Writes the lock for this process; the returned function removes it (on a clean stop). */
export function takeServerLock(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK);
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, started: startTimeOf(process.pid) })}\n`);
  return () => rmSync(file, { force: true });
}

/** The server using `dataDir` right now, or null (no lock, or a stale one). */
export function findRunningServer(dataDir: string): { pid: number } | null {
  let lock: { pid?: unknown; started?: unknown };
  try {
    lock = JSON.parse(readFileSync(path.join(dataDir, LOCK), 'utf8')) as typeof lock;
  } catch {
    return null;
  }
  if (typeof lock.pid !== 'number' || lock.pid === process.pid || !alive(lock.pid)) return null;
  const started = startTimeOf(lock.pid);
  if (started !== null && typeof lock.started === 'string' && started !== lock.started) return null;
  return { pid: lock.pid };
}
