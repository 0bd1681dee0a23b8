import type { ReactNode } from 'react';
import { useI18n } from '../../i18n';
import { useTitleReset } from '../../lib/document-title';
import { useSiteText } from '../../lib/site-text';
import { Footer } from './footer';
import { LoginPrompt } from './login-prompt';
import { NavBar } from './nav-bar';
import { ScrollToTop } from './scroll-to-top';
import { useHashScroll } from './use-hash-scroll';
import styles from './layout.module.css';

/** The chrome around every page: skip link, nav bar, footer, login prompt, scroll-to-top. */
export function Layout({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  useHashScroll();
  useTitleReset(useSiteText().name, t.common.pageTitles);
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        {t.common.skipToContent}
      </a>
      <NavBar />
      <main id="main" tabIndex={-1} className={styles.main}>
        {children}
      </main>
      <Footer />
      <ScrollToTop />
      <LoginPrompt />
    </div>
  );
}
