import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import type { useMe } from '../../lib/session';
import { HeartIcon } from './icons';
import { badgeText } from './nav-rules';
import styles from './nav-bar.module.css';

type Me = NonNullable<ReturnType<typeof useMe>['me']>;

export function FavoritesLink({ me, className }: { me: Me; className?: string }) {
  const { t } = useI18n();
  const count = me.favoritesCount;
  return (
    <Link href={`/favorites/${me._id}`} className={className} aria-label={t.common.nav.favoritesCount(count)}>
      <span className={styles.iconWithBadge}>
        <HeartIcon size={22} />
        {count > 0 ? (
          <span className={styles.countBadge} aria-hidden="true">
            {badgeText(count)}
          </span>
        ) : null}
      </span>
    </Link>
  );
}
