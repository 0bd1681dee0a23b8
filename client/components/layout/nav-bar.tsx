import { Link, useLocation } from 'wouter';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { ModerationLink } from '../../features/moderation/moderation-link';
import { NotificationsLink } from '../../features/notifications/notifications-link';
import { FavoritesLink } from './favorites-link';
import { LanguageToggle } from './language-toggle';
import { Logo } from './logo';
import { MenuButton } from './menu-button';
import { activeSection } from './nav-rules';
import { UserButton } from './user-button';
import { useSuggestionBoxId } from './use-suggestion-box';
import styles from './nav-bar.module.css';

/**
 * Small screens: a menu button (opening the drawer) and the logo. Large screens: Home, Business,
 * Add New, Contact, the favourites icon, the centred logo, the user button and the language
 * toggle: the same places as the drawer lists (issue 29.16).
 */
export function NavBar() {
  const { t } = useI18n();
  const me = useViewer();
  const [location] = useLocation();
  const nav = t.common.nav;
  const section = activeSection(location);
  const suggestionBoxId = useSuggestionBoxId();
  return (
    <header className={styles.header}>
      <nav className={`container ${styles.bar}`} aria-label={nav.mainNav}>
        <div className={styles.start}>
          <MenuButton />
          <ul className={`${styles.links} ${styles.wide}`}>
            <li>
              <Link href="/" className={styles.link} aria-current={section === 'home' ? 'page' : undefined}>
                {nav.home}
              </Link>
            </li>
            <li>
              <Link href="/business" className={styles.link} aria-current={section === 'business' ? 'page' : undefined}>
                {nav.business}
              </Link>
            </li>
            {suggestionBoxId ? (
              <li>
                <Link
                  href={`/business/${suggestionBoxId}`}
                  className={styles.link}
                  aria-current={location === `/business/${suggestionBoxId}` ? 'page' : undefined}
                >
                  {nav.addNew}
                </Link>
              </li>
            ) : null}
            <li>
              <Link href="/contact" className={styles.link} aria-current={location === '/contact' ? 'page' : undefined}>
                {nav.contact}
              </Link>
            </li>
            {me ? (
              <li>
                <FavoritesLink me={me} className={styles.iconLink} />
              </li>
            ) : null}
            {me && !me.isBanned && (me.isAdmin || me.isModerator) ? (
              <li>
                <ModerationLink className={styles.link} current={location === '/mod-queue'} />
              </li>
            ) : null}
            {me ? (
              <li>
                <NotificationsLink className={`${styles.iconLink} ${styles.bellLink}`} />
              </li>
            ) : null}
          </ul>
        </div>
        <Logo />
        <div className={`${styles.end} ${styles.wide}`}>
          <UserButton className={styles.userButton} />
          <LanguageToggle className={styles.langToggle} />
        </div>
      </nav>
    </header>
  );
}
