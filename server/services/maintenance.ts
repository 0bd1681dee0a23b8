import type { Deps } from '../deps';
import { sweepUnreferencedImages } from './images';
import { pruneReadNotifications } from './notifications';
import { deleteExpiredSessions } from './sessions';

type Log = { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/** Hourly housekeeping: expired sessions, uploads nothing has referenced for 24 h, read notifications older than 90 days. */
export function startMaintenance(deps: Deps, log: Log): () => void {
  const run = async () => {
    try {
      const sessions = deleteExpiredSessions(deps.db);
      const images = await sweepUnreferencedImages(deps);
      const notifications = pruneReadNotifications(deps.db);
      if (sessions || images || notifications) log.info({ sessions, images, notifications }, 'maintenance swept');
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
