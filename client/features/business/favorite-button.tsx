import { useI18n } from '../../i18n';
import { HeartIcon } from './icons';
import styles from './favorite-button.module.css';

/** The heart: a toggle button (aria-pressed), red when a favourite, gray otherwise. */
export function FavoriteButton({
  business,
  onToggle,
  size = 24,
  disabled = false,
}: {
  business: { id: string; title: string; isFavorite: boolean };
  onToggle(business: { id: string; isFavorite: boolean }): void;
  size?: number;
  /** Until the app has taken over a server-rendered page, so no press is silently lost. */
  disabled?: boolean;
}) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      className={styles.heart}
      aria-pressed={business.isFavorite}
      aria-label={t.business.favorite.label(business.title)}
      data-on={business.isFavorite || undefined}
      onClick={() => onToggle(business)}
      disabled={disabled}
    >
      <HeartIcon size={size} filled={business.isFavorite} />
    </button>
  );
}
