import { Link } from 'wouter';
import type { DirectoryCard } from './types';
import { useI18n } from '../../i18n';
import { BusinessPicture } from './business-picture';
import { FavoriteButton } from './favorite-button';
import { useLocalized } from './localized';
import { Stars } from './stars';
import { useBusinessTitle } from './business-title';
import styles from './business-card.module.css';

export { useBusinessTitle };

/** A directory card; the whole card links to the business page, the heart toggles on its own. */
export function BusinessCard({
  business,
  onToggleFavorite,
  eager = false,
}: {
  business: DirectoryCard;
  onToggleFavorite(business: { id: string; isFavorite: boolean }): void;
  eager?: boolean;
}) {
  const { t, number, plural } = useI18n();
  const title = useBusinessTitle()(business);
  const excerpt = useLocalized().excerpt(business);
  return (
    <article className={`card ${styles.card}`} data-suggestion={business.isSuggestionBox || undefined}>
      <BusinessPicture image={business.image} icon={business.icon} height={240} lazy={!eager} />
      <div className={styles.body}>
        <h2 className={styles.title}>
          <Link href={`/business/${business.id}`} className={styles.link}>
            {title}
          </Link>
        </h2>
        <p className={styles.excerpt} lang={excerpt.lang}>
          {excerpt.cut ? `${excerpt.text.trimEnd()}...` : excerpt.text}
        </p>
        {/* The suggestion box collects suggestions: no rating, no heart (docs/product.md §4). */}
        {business.isSuggestionBox ? null : (
          <div className={styles.footer}>
            {business.rate === null ? (
              <span className={styles.noRating}>{t.business.rating.none}</span>
            ) : (
              <span className={styles.rating}>
                <Stars value={business.rate} label={t.business.rating.label(title)} />
                <span className={styles.average} aria-hidden="true">
                  {number(business.rate, 1)}
                </span>
                <span className={styles.count}>
                  ({number(business.ratingCount)} {plural(business.ratingCount, t.business.rating.count)})
                </span>
              </span>
            )}
            <FavoriteButton business={{ ...business, title }} onToggle={onToggleFavorite} />
          </div>
        )}
      </div>
    </article>
  );
}
