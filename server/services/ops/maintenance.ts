import type { Deps } from '../deps';
import { sweepUnreferencedImages } from '../comments/images';
import { DIGEST_EVERY_MS, MAIL_BATCH, mailQueueHasMore, queueNotificationMails } from '../notifications/notification-mails';
import { favoriteMailPullDone, pullFavoriteReviewsForMail } from '../notifications/favorite-reviews';
import { drainNotificationEvents, pruneReadNotifications } from '../notifications/notifications';

/** How often waiting notifications become mails. */
const NOTIFICATION_MAILS_EVERY_MS = 15_000;
/** How often queued replies and reactions become notifications when no read asks first (docs/decisions/020). */
const NOTIFICATION_EVENTS_EVERY_MS = 1_000;
/**
 * Events one slice of that fan-out works off at most: a larger batch writes each index page it
 * touches once for more rows (docs/decisions/020). A thousand first reactions take 50–130 ms.
 */
export const FAN_OUT_SLICE = 1_000;
/**
 * The longest one slice holds the event loop before requests get a turn. A reply in a long
 * thread tells up to 50 repliers (about 1 ms of rows): a thousand of them in one slice held every
 * request for over a second (the bench's reply row, p99 0.8–1.8 s at scale 1).
 */
export const FAN_OUT_SLICE_MS = 50;
/** The longest the mail job's favourite pull holds the event loop before requests get a turn. */
export const MAIL_PULL_SLICE_MS = 10;
/** Waiting notifications the mail job turns into mails per slice (about 1 ms each at scale 10). */
export const MAIL_SLICE_ROWS = 50;
import { deleteExpiredSessions } from '../accounts/sessions';
import { unshownWrite } from '../../lib/data-stamp';

type Log = { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/** Hourly housekeeping: expired sessions, uploads nothing has referenced for 24 h, read notifications older than 90 days. */
export function startMaintenance(deps: Deps, log: Log): () => void {
  const run = async () => {
    try {
      // Rows only their signed-in owner reads: the public cache and kept cards stay (data-stamp.ts).
      const sessions = unshownWrite(deps.db, () => deleteExpiredSessions(deps.db));
      const images = await sweepUnreferencedImages(deps);
      const notifications = unshownWrite(deps.db, () => pruneReadNotifications(deps.db));
      if (sessions || images || notifications) log.info({ sessions, images, notifications }, 'maintenance swept');
    } catch (err) {
      log.error({ err }, 'maintenance failed');
    }
  };
  const first = setTimeout(() => void run(), 5_000);
  const timer = setInterval(() => void run(), 60 * 60 * 1000);
  // Notification mails (services/notifications/notification-mails.ts), off the request path. New
  // reviews of favourites are pulled for their mail readers first, in slices of at most
  // MAIL_PULL_SLICE_MS with a turn for requests between them (setImmediate), then the mails go.
  // Their writes (notification rows, watermarks, the mail queue) are personal and leave the data
  // stamp where it is (unshownWrite): after a start at scale 10 the pull writes for minutes, and
  // each write emptied the public cache and the directory snapshot.
  let mailRun: NodeJS.Immediate | null = null;
  let mailing = false;
  let mailSlices = 0;
  const mailSlice = () => {
    mailRun = null;
    try {
      unshownWrite(deps.db, () => pullFavoriteReviewsForMail(deps.db, Date.now(), DIGEST_EVERY_MS, performance.now() + MAIL_PULL_SLICE_MS));
      if (!favoriteMailPullDone(deps.db)) {
        mailRun = setImmediate(mailSlice);
        return;
      }
      // Then the mails, MAIL_SLICE_ROWS waiting rows a slice, up to a batch's worth a run.
      unshownWrite(deps.db, () => queueNotificationMails(deps, Date.now(), MAIL_SLICE_ROWS));
      if (mailQueueHasMore(deps.db) && ++mailSlices < MAIL_BATCH / MAIL_SLICE_ROWS) {
        mailRun = setImmediate(mailSlice);
        return;
      }
    } catch (err) {
      log.error({ err }, 'notification mails failed');
    }
    mailing = false;
  };
  const mails = setInterval(() => {
    if (mailing) return;
    mailing = true;
    mailSlices = 0;
    mailSlice();
  }, NOTIFICATION_MAILS_EVERY_MS);
  // Queued replies and reactions (services/notifications/notifications.ts), in batches off the
  // request path: everything that came in since the last tick, FAN_OUT_SLICE events or
  // FAN_OUT_SLICE_MS a slice, whichever comes first, with a turn for requests between slices (a cap
  // of one batch a second let the queue grow under load).
  let fanOutRun: NodeJS.Immediate | null = null;
  const fanOutSlice = () => {
    fanOutRun = null;
    try {
      const until = { at: performance.now() + FAN_OUT_SLICE_MS, now: () => performance.now() };
      const done = unshownWrite(deps.db, () => drainNotificationEvents(deps.db, FAN_OUT_SLICE, until));
      if (done === FAN_OUT_SLICE || (done > 0 && until.now() >= until.at)) fanOutRun = setImmediate(fanOutSlice);
    } catch (err) {
      log.error({ err }, 'notification fan-out failed');
    }
  };
  const fanOut = setInterval(() => {
    if (fanOutRun === null) fanOutSlice();
  }, NOTIFICATION_EVENTS_EVERY_MS);
  first.unref();
  timer.unref();
  mails.unref();
  fanOut.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
    clearInterval(mails);
    if (mailRun) clearImmediate(mailRun);
    clearInterval(fanOut);
    if (fanOutRun) clearImmediate(fanOutRun);
  };
}
