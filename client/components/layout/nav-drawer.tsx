import type { MouseEvent, RefObject } from 'react';
import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { Link, useLocation } from 'wouter';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { CloseIcon, HeartIcon, HomeIcon, MailIcon, PlusIcon, StoreIcon } from './icons';
import { ModerationLink } from '../../features/moderation/moderation-link';
import { NotificationsDrawerItem } from '../../features/notifications/notifications-link';
import { LanguageToggle } from './language-toggle';
import { activeSection, badgeText } from './nav-rules';
import { UserButton } from './user-button';
import styles from './nav-bar.module.css';

type Props = {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The menu button, which gets focus back when the drawer closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  suggestionBoxId: string | null;
};

/**
 * The small-screen menu: a 240 px drawer from the left, an Ark UI Dialog (focus trap, Escape,
 * click outside). Loaded on first use, so pages do not pay for it until someone opens it.
 */
export default function NavDrawer({ open, onOpenChange, returnFocusTo, suggestionBoxId }: Props) {
  const { t } = useI18n();
  const me = useViewer();
  const [location] = useLocation();
  const nav = t.common.nav;
  const section = activeSection(location);

  const closeOnLink = (event: MouseEvent) => {
    if ((event.target as Element).closest('a')) onOpenChange(false);
  };

  return (
    <Dialog.Root open={open} onOpenChange={(e) => onOpenChange(e.open)} finalFocusEl={() => returnFocusTo.current} lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop className={styles.drawerBackdrop} />
        <Dialog.Positioner className={styles.drawerPositioner}>
          <Dialog.Content className={styles.drawer}>
            <div className={styles.drawerHead}>
              <Dialog.Title className={styles.drawerTitle}>{nav.menu}</Dialog.Title>
              <Dialog.CloseTrigger className={styles.drawerClose} aria-label={nav.closeMenu}>
                <CloseIcon />
              </Dialog.CloseTrigger>
            </div>
            <nav aria-label={nav.mainNav} onClick={closeOnLink}>
              <ul className={styles.drawerList}>
                <li>
                  <UserButton className={styles.drawerItem} />
                </li>
                <li>
                  <Link href="/" className={styles.drawerItem} aria-current={section === 'home' ? 'page' : undefined}>
                    <HomeIcon size={20} />
                    {nav.home}
                  </Link>
                </li>
                <li>
                  <Link href="/business" className={styles.drawerItem} aria-current={section === 'business' ? 'page' : undefined}>
                    <StoreIcon size={20} />
                    {nav.business}
                  </Link>
                </li>
                {suggestionBoxId ? (
                  <li>
                    <Link href={`/business/${suggestionBoxId}`} className={styles.drawerItem}>
                      <PlusIcon size={20} />
                      {nav.addNew}
                    </Link>
                  </li>
                ) : null}
                {me ? (
                  <li>
                    <Link href={`/favorites/${me._id}`} className={styles.drawerItem} aria-label={nav.favoritesCount(me.favoritesCount)}>
                      <HeartIcon size={20} />
                      {nav.favorites}
                      {me.favoritesCount > 0 ? (
                        <span className={styles.drawerCount} aria-hidden="true">
                          {badgeText(me.favoritesCount)}
                        </span>
                      ) : null}
                    </Link>
                  </li>
                ) : null}
                {me && !me.isBanned && (me.isAdmin || me.isModerator) ? (
                  <li>
                    <ModerationLink className={styles.drawerItem} badgeClassName={styles.drawerCount} current={location === '/mod-queue'} />
                  </li>
                ) : null}
                {me ? (
                  <li>
                    <NotificationsDrawerItem className={styles.drawerItem} countClassName={styles.drawerCount} />
                  </li>
                ) : null}
                <li>
                  <Link href="/contact" className={styles.drawerItem} aria-current={location === '/contact' ? 'page' : undefined}>
                    <MailIcon size={20} />
                    {nav.contact}
                  </Link>
                </li>
              </ul>
            </nav>
            <div className={styles.drawerFoot}>
              <LanguageToggle className={styles.langToggle} />
            </div>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
