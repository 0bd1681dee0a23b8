import { RatingGroup } from '@ark-ui/react/rating-group';
import { useI18n } from '../../i18n';
import { StarIcon } from './icons';
import styles from './stars.module.css';

/**
 * Read-only stars (precision 1, as the description sets) named for screen readers. `value` is
 * the shown average; the exact figure is written out next to it where there is room. Plain
 * markup, not a RatingGroup: a directory page draws dozens and a state machine each cost
 * main-thread time for a picture that never changes.
 */
export function Stars({ value, label, size = 20 }: { value: number; label: string; size?: number }) {
  const { t } = useI18n();
  const shown = Math.min(5, Math.max(0, Math.round(value)));
  return (
    <span className={styles.root} role="img" aria-label={`${label}: ${t.business.rating.stars(shown)}`}>
      <span className={styles.control}>
        {[1, 2, 3, 4, 5].map((n) => (
          <span key={n} className={styles.item} data-readonly="">
            <StarIcon size={size} filled={n <= shown} className={n <= shown ? styles.on : styles.off} />
          </span>
        ))}
      </span>
    </span>
  );
}

/** The five items of a RatingGroup, drawn filled up to the highlighted one. */
export function StarItems({ size }: { size: number }) {
  return (
    <RatingGroup.Context>
      {({ items }) =>
        items.map((index) => (
          <RatingGroup.Item key={index} index={index} className={styles.item}>
            <RatingGroup.ItemContext>
              {(state) => <StarIcon size={size} filled={state.highlighted} className={state.highlighted ? styles.on : styles.off} />}
            </RatingGroup.ItemContext>
          </RatingGroup.Item>
        ))
      }
    </RatingGroup.Context>
  );
}
