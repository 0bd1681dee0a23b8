import { useState } from 'react';
import { useI18n } from '../../i18n';
import styles from './comments.module.css';

/**
 * A post's photo; a click (or Enter/Space, it is a button) toggles between thumbnail and full
 * width. The button says what it will do next ("Förstora bilden" / "Förminska bilden"), so it
 * carries no pressed state, which would contradict a name that changes.
 */
export function PostPicture({ src, small = false }: { src: string; small?: boolean }) {
  const { t } = useI18n();
  const [zoomed, setZoomed] = useState(false);
  return (
    <button
      type="button"
      className={styles.pictureButton}
      data-zoomed={zoomed || undefined}
      data-small={small || undefined}
      onClick={() => setZoomed((z) => !z)}
    >
      <img className={styles.picture} src={src} alt={t.comments.card.picture} loading="lazy" decoding="async" />
      <span className="visually-hidden">{zoomed ? t.comments.card.zoomOut : t.comments.card.zoomIn}</span>
    </button>
  );
}
