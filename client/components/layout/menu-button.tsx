import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useI18n } from '../../i18n';
import { useHydrated } from '../../lib/hydrated';
import { MenuIcon } from './icons';
import { useSuggestionBoxId } from './use-suggestion-box';
import styles from './nav-bar.module.css';

const loadDrawer = () => import('./nav-drawer');
const NavDrawer = lazy(loadDrawer);

/** The small-screen menu button; the drawer's code is fetched when a pointer or focus nears it. */
export function MenuButton() {
  const { t } = useI18n();
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const suggestionBoxId = useSuggestionBoxId();
  // Inert until the app has taken over a served page (lib/hydrated.ts): a press before would be lost.
  const hydrated = useHydrated();

  // Back/forward navigation closes it too, not only a click on one of its links.
  useEffect(() => setOpen(false), [location]);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={styles.menuButton}
        aria-label={t.common.nav.menu}
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={!hydrated}
        onPointerEnter={loadDrawer}
        onFocus={loadDrawer}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <MenuIcon />
      </button>
      {used ? (
        <Suspense fallback={null}>
          <NavDrawer open={open} onOpenChange={setOpen} returnFocusTo={buttonRef} suggestionBoxId={suggestionBoxId} />
        </Suspense>
      ) : null}
    </>
  );
}
