import styles from './spinner.module.css';

/** A spinner with a text for screen readers (and optionally shown). */
export function Spinner({ label, showLabel = false, size = 28 }: { label: string; showLabel?: boolean; size?: number }) {
  return (
    <span className={styles.wrap} role="status">
      <span className={styles.spinner} style={{ width: size, height: size }} aria-hidden="true" />
      <span className={showLabel ? styles.label : 'visually-hidden'}>{label}</span>
    </span>
  );
}
