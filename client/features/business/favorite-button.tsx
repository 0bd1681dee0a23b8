import { useI18n } from '../../i18n';
import { useHydrated } from '../../lib/hydrated';
import { HeartIcon } from './icons';
import styles from './favorite-button.module.css';

/** The heart: a toggle button (aria-pressed), red when a favourite, gray otherwise. */
export function FavoriteButton({
  business,
  onToggle,
  size = 24,
}: {
  business: { id: string; title: string; isFavorite: boolean };
  onToggle(business: { id: string; isFavorite: boolean }): void;
  size?: number;
}) {
  const { t } = useI18n();
  // Inert until the app has taken over a served page (lib/hydrated.ts), so no press is silently lost.
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      className={styles.heart}
      aria-pressed={business.isFavorite}
      aria-label={t.business.favorite.label(business.title)}
      data-on={business.isFavorite || undefined}
      onClick={() => onToggle(business)}
      disabled={!hydrated}
    >
      <HeartIcon size={size} filled={business.isFavorite} />
    </button>
  );
}
