import { useState } from 'react';
import { useI18n } from '../../i18n';
import styles from './comments.module.css';

/** A post's photo; a click (or Enter/Space, it is a button) toggles between thumbnail and full width. */
export function PostPicture({ src, small = false }: { src: string; small?: boolean }) {
  const { t } = useI18n();
  const [zoomed, setZoomed] = useState(false);
  return (
    <button
      type="button"
      className={styles.pictureButton}
      data-zoomed={zoomed || undefined}
      data-small={small || undefined}
      aria-pressed={zoomed}
      onClick={() => setZoomed((z) => !z)}
    >
      <img className={styles.picture} src={src} alt={t.comments.card.picture} loading="lazy" decoding="async" />
      <span className="visually-hidden">{t.comments.card.zoomIn}</span>
    </button>
  );
}
