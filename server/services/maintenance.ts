import type { Deps } from '../deps';
import { sweepUnreferencedImages } from './images';
import { deleteExpiredSessions } from './sessions';

type Log = { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/** Hourly housekeeping: expired sessions and uploads nothing has referenced for 24 h. */
export function startMaintenance(deps: Deps, log: Log): () => void {
  const run = async () => {
    try {
      const sessions = deleteExpiredSessions(deps.db);
      const images = await sweepUnreferencedImages(deps);
      if (sessions || images) log.info({ sessions, images }, 'maintenance swept');
    } catch (err) {
      log.error({ err }, 'maintenance failed');
    }
  };
  const first = setTimeout(() => void run(), 5_000);
  const timer = setInterval(() => void run(), 60 * 60 * 1000);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
