import { StorefrontIcon } from './icons';
import styles from './business-picture.module.css';

/**
 * A business's picture for cards: its image, else its icon on a tinted panel, else a neutral
 * storefront. Lazy by default, with its size set so the grid does not jump while it loads.
 */
export function BusinessPicture({
  image,
  icon,
  height,
  lazy = true,
  className,
}: {
  image: string | null;
  icon: string | null;
  height: number;
  lazy?: boolean;
  className?: string;
}) {
  const loading = lazy ? 'lazy' : 'eager';
  if (image) {
    return (
      <div className={`${styles.frame} ${className ?? ''}`} style={{ height }}>
        <img className={styles.photo} src={image} alt="" width={480} height={height} loading={loading} decoding="async" />
      </div>
    );
  }
  const side = Math.round(height * 0.5);
  return (
    <div className={`${styles.frame} ${styles.panel} ${className ?? ''}`} style={{ height }}>
      {icon ? (
        <img className={styles.icon} src={icon} alt="" width={side} height={side} loading={loading} decoding="async" />
      ) : (
        <StorefrontIcon size={side} className={styles.placeholder} />
      )}
    </div>
  );
}
