import { useI18n } from '../../i18n';
import { StarIcon } from './icons';
import styles from './stars.module.css';

/** How much of each of the five stars an average fills: 1, 0.5 or 0 (the average to the nearest half). */
export function starFills(value: number): Array<0 | 0.5 | 1> {
  const halves = Math.min(10, Math.max(0, Math.round(value * 2)));
  return [1, 2, 3, 4, 5].map((n) => (halves >= n * 2 ? 1 : halves === n * 2 - 1 ? 0.5 : 0));
}

/**
 * Read-only stars: the average to the nearest half star, named for screen readers with the
 * figure itself ("Betyg för ICA: 4,5 av 5 stjärnor"). Plain markup, not a RatingGroup: a
 * directory page draws dozens and a state machine each cost main-thread time for a picture
 * that never changes.
 */
export function Stars({
  value,
  label,
  size = 20,
  bare = false,
}: {
  value: number;
  label: string;
  size?: number;
  /** `label` already says the figure. */ bare?: boolean;
}) {
  const { t, number } = useI18n();
  return (
    <span className={styles.root} role="img" aria-label={bare ? label : `${label}: ${t.business.rating.starsOutOf(number(value, 1))}`}>
      <span className={styles.control}>
        {starFills(value).map((fill, i) => (
          <span key={i} className={styles.item} data-readonly="" data-fill={fill}>
            <StarIcon size={size} filled={fill === 1} className={fill === 0 ? styles.off : styles.on} />
            {fill === 0.5 ? (
              // The filled left half over a star-coloured outline: one star, half full.
              <span className={styles.half}>
                <StarIcon size={size} filled className={styles.on} />
              </span>
            ) : null}
          </span>
        ))}
      </span>
    </span>
  );
}
