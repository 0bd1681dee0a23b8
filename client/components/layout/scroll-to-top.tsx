import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { useI18n } from '../../i18n';
import { ArrowUpIcon } from './icons';
import { scrollBehavior } from './motion';
import { scrollThreshold } from './nav-rules';
import styles from './scroll-to-top.module.css';

export function ScrollToTop() {
  const { t } = useI18n();
  const [location] = useLocation();
  const threshold = scrollThreshold(location);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (threshold === null) {
      setVisible(false);
      return;
    }
    let frame = 0;
    const update = () => {
      frame = 0;
      setVisible(window.scrollY > threshold);
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [threshold]);

  if (!visible) return null;
  return (
    <button
      type="button"
      className={styles.button}
      aria-label={t.common.scrollToTop}
      onClick={() => {
        window.scrollTo({ top: 0, behavior: scrollBehavior() });
        // The button disappears at the top; keep keyboard users at the start of the page.
        document.getElementById('main')?.focus({ preventScroll: true });
      }}
    >
      <ArrowUpIcon />
    </button>
  );
}
