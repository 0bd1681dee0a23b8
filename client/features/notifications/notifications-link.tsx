import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { BellIcon } from '../../components/layout/icons';
import { badgeText } from '../../components/layout/nav-rules';
import styles from '../../components/layout/nav-bar.module.css';
import { useUnreadCount } from './use-unread';

/** The bell of the header: the unread count as a badge; its name says the count. */
export function NotificationsLink({ className }: { className?: string }) {
  const { t } = useI18n();
  const unread = useUnreadCount();
  return (
    <Link href="/notifications" className={className} aria-label={t.notifications.bell(unread)} data-testid="notifications-bell">
      <span className={styles.iconWithBadge}>
        <BellIcon size={22} />
        {unread > 0 ? (
          <span className={styles.countBadge} aria-hidden="true">
            {badgeText(unread)}
          </span>
        ) : null}
      </span>
    </Link>
  );
}

/** The drawer's entry (phones): the word, and the count at the end. */
export function NotificationsDrawerItem({ className, countClassName }: { className?: string; countClassName?: string }) {
  const { t } = useI18n();
  const unread = useUnreadCount();
  return (
    <Link href="/notifications" className={className} data-testid="notifications-drawer-item">
      <BellIcon size={20} />
      {t.notifications.menuItem}
      {/* The name is the visible text and then the hidden word (WCAG 2.5.3): "Notiser 3 olästa". */}
      {unread > 0 ? (
        <>
          <span className={countClassName}> {badgeText(unread)}</span>
          <span className="visually-hidden"> {t.notifications.unreadSuffix}</span>
        </>
      ) : null}
    </Link>
  );
}
