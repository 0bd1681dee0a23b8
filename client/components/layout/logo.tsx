import { Link } from 'wouter';
import { useSiteText } from '../../lib/site-text';
import styles from './nav-bar.module.css';

/** The site's wordmark (its name, "Recensera" unless an admin set another); always leads home. */
export function Logo({ className }: { className?: string }) {
  const site = useSiteText();
  return (
    <Link href="/" className={`${styles.logo} ${className ?? ''}`}>
      <svg className={styles.logoMark} viewBox="0 0 64 64" width="32" height="32" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" fill="currentColor" />
        <path d="M32 12l5.9 12 13.1 1.9-9.5 9.3 2.2 13.1L32 42.1 20.3 48.3l2.2-13.1L13 25.9 26.1 24z" fill="var(--color-accent)" />
      </svg>
      <span className={styles.logoText}>{site.name}</span>
    </Link>
  );
}
