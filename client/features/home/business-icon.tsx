import styles from './business-icon.module.css';

/** A business icon, or its first letter on a tinted square when it has none. */
export function BusinessIcon({ src, title, size, lazy = false }: { src: string | null; title: string; size: number; lazy?: boolean }) {
  if (src) {
    return <img className={styles.icon} src={src} alt="" width={size} height={size} loading={lazy ? 'lazy' : 'eager'} decoding="async" />;
  }
  return (
    <span className={styles.fallback} style={{ width: size, height: size, fontSize: size * 0.45 }} aria-hidden="true">
      {[...title.trim()][0]?.toLocaleUpperCase('sv') ?? '?'}
    </span>
  );
}
