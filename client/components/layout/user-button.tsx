import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { useMe } from '../../lib/session';
import { useLoginHref } from '../../lib/login-href';
import { UserIcon } from './icons';
import styles from './nav-bar.module.css';

/** "Logga in" for visitors; the first name (and an admin badge) linking to /user when signed in. */
export function UserButton({ className }: { className?: string }) {
  const { t } = useI18n();
  const { me, isLoading } = useMe();
  const loginHref = useLoginHref();
  const nav = t.common.nav;
  // Keeps the place while the session is read, so a signed-in user never sees "Logga in" flash.
  if (isLoading) return <span className={`${className ?? ''} ${styles.userPending}`} aria-hidden="true" />;
  if (!me) {
    return (
      <Link href={loginHref} className={className}>
        <UserIcon size={20} />
        <span>{nav.login}</span>
      </Link>
    );
  }
  const label = me.isAdmin ? `${nav.userMenu(me.firstName)}, ${nav.adminBadge}` : nav.userMenu(me.firstName);
  return (
    <Link href="/user" className={className} aria-label={label}>
      <span className={styles.avatar}>
        {me.image ? <img src={me.image} alt="" width={28} height={28} /> : <UserIcon size={20} />}
        {me.isAdmin ? (
          <span className={styles.adminBadge} aria-hidden="true">
            A
          </span>
        ) : null}
      </span>
      <span className={styles.userName}>{me.firstName}</span>
    </Link>
  );
}
