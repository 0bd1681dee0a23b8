import styles from './comments.module.css';

/** The author's avatar, or their initials on a tinted circle when they have none. */
export function Avatar({ name, image, size = 40 }: { name: string; image: string | null; size?: number }) {
  if (image) return <img className={styles.avatar} src={image} alt="" width={size} height={size} loading="lazy" decoding="async" />;
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => Array.from(part)[0]?.toLocaleUpperCase('sv-SE'))
    .join('');
  return (
    <span className={styles.avatarFallback} style={{ width: size, height: size, fontSize: size * 0.4 }} aria-hidden="true">
      {initials || '?'}
    </span>
  );
}
