import type { Deps } from '../deps';
import { sweepUnreferencedImages } from '../comments/images';
import { queueNotificationMails } from '../notifications/notification-mails';
import { pruneReadNotifications } from '../notifications/notifications';

/** How often waiting notifications become mails. */
const NOTIFICATION_MAILS_EVERY_MS = 15_000;
import { deleteExpiredSessions } from '../accounts/sessions';

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
  // Notification mails (services/notifications/notification-mails.ts): each minute, off the request path.
  const mails = setInterval(() => {
    try {
      queueNotificationMails(deps);
    } catch (err) {
      log.error({ err }, 'notification mails failed');
    }
  }, NOTIFICATION_MAILS_EVERY_MS);
  first.unref();
  timer.unref();
  mails.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
    clearInterval(mails);
  };
}
