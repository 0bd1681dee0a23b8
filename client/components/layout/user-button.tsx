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
  // The name comes from the text, "Din profil, Anna, Administratör" with the visible first name
  // in it: an aria-label hid the name behind other words and the badge's "A" (WCAG 2.5.3).
  return (
    <Link href="/user" className={className}>
      <span className="visually-hidden">{nav.userMenu}</span>
      <span className={styles.avatar}>
        {me.image ? <img src={me.image} alt="" width={28} height={28} /> : <UserIcon size={20} />}
        {me.isAdmin ? (
          <span className={styles.adminBadge} aria-hidden="true">
            A
          </span>
        ) : null}
      </span>
      <span className={styles.userName}>{me.firstName}</span>
      {me.isAdmin ? <span className="visually-hidden">, {nav.adminBadge}</span> : null}
    </Link>
  );
}
