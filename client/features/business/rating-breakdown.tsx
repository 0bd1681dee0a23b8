import { useId } from 'react';
import { Link, useSearch } from 'wouter';
import { useI18n } from '../../i18n';
import { starLevelsOf, STARS_PARAM, withStars } from '../../lib/comment-list-state';
import { StarIcon } from './icons';
import styles from './rating-breakdown.module.css';

/**
 * The breakdown of a business's ratings: a bar per star level, 5 down to 1, with its count and
 * share. Each bar links to the business's comments whose authors gave that many stars
 * (?stars=N, read by the comment list), so a reader goes from "12 one-star ratings" to them.
 */
export function RatingBreakdown({ businessId, starCounts, ratingCount }: { businessId: string; starCounts: readonly number[]; ratingCount: number }) {
  const { t, number, plural } = useI18n();
  const b = t.business.breakdown;
  const headingId = useId();
  const search = useSearch();
  const chosen = starLevelsOf(new URLSearchParams(search).get(STARS_PARAM) ?? '');
  const levels = [5, 4, 3, 2, 1];
  return (
    <div className={styles.breakdown}>
      <h3 id={headingId} className="visually-hidden">
        {b.heading}
      </h3>
      <ul className={styles.bars} aria-labelledby={headingId}>
        {levels.map((level) => {
          const count = starCounts[level - 1] ?? 0;
          const share = ratingCount > 0 ? Math.round((count / ratingCount) * 100) : 0;
          const percent = b.percent(number(share));
          const current = chosen.length === 1 && chosen[0] === level;
          return (
            <li key={level}>
              <Link
                href={`/business/${encodeURIComponent(businessId)}${withStars(search, [level])}#comments`}
                className={styles.bar}
                aria-current={current ? 'true' : undefined}
                onClick={() => window.requestAnimationFrame(() => document.getElementById('comments')?.scrollIntoView({ block: 'start' }))}
              >
                {/* The name comes from the text, visible and hidden: "5 stjärnor: 3 betyg, 75 %". */}
                <span className={styles.level}>
                  {level}
                  <StarIcon size={14} filled className={styles.star} />
                  <span className="visually-hidden"> {b.starWord(level)}: </span>
                </span>
                <span className={styles.track} aria-hidden="true">
                  <span className={styles.fill} style={{ width: `${share}%` }} />
                </span>
                <span className={styles.count}>
                  {number(count)}
                  <span className="visually-hidden"> {plural(count, t.business.rating.count)}, </span>
                </span>
                <span className={styles.percent}>{percent}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      <p className={styles.hint}>{b.filterHint}</p>
    </div>
  );
}
