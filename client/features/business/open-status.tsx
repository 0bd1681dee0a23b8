import { useEffect, useState } from 'react';
import { openStatus, type OpeningHours } from '../../../shared/schemas/opening-hours-status';
import { useI18n } from '../../i18n';
import { useHydrated } from '../../lib/hydrated';
import styles from './places.module.css';

/**
 * "Öppet nu · stänger 21:00" / "Stängt · öppnar 10:00", in Stockholm time, from the visitor's
 * clock (`now`, injectable), checked again every minute. Shown once hydrated: the server's shared
 * render of the page is kept for a while, so it cannot know the time it is read at.
 */
export function OpenStatus({ hours, now = () => Date.now() }: { hours: OpeningHours; now?: () => number }) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  const [time, setTime] = useState(now);
  useEffect(() => {
    const timer = setInterval(() => setTime(now()), 60_000);
    return () => clearInterval(timer);
  }, [now]);
  if (!hydrated) return null;
  const status = openStatus(hours, new Date(time));
  const p = t.places;
  const text = status.open
    ? status.closes === '00:00' && hours.weekly.some((w) => w.opens === '00:00' && w.closes === '00:00')
      ? p.openAllDay
      : p.openNow(status.closes)
    : status.opens === null
      ? p.closed
      : p.closedOpens(status.opens, status.inDays, status.weekday);
  return (
    <p className={status.open ? styles.open : styles.closed} data-testid="open-status">
      {text}
    </p>
  );
}
