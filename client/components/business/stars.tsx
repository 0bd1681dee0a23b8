import { RatingGroup } from '@ark-ui/react/rating-group';
import { useI18n } from '../../i18n';
import { StarIcon } from './icons';
import styles from './stars.module.css';

/**
 * Read-only stars (precision 1, as the description sets) named for screen readers. `value` is
 * the shown average; the exact figure is written out next to it where there is room.
 */
export function Stars({ value, label, size = 20 }: { value: number; label: string; size?: number }) {
  const { t } = useI18n();
  return (
    <RatingGroup.Root
      className={styles.root}
      count={5}
      value={Math.round(value)}
      readOnly
      translations={{ ratingValueText: t.business.rating.stars }}
    >
      <RatingGroup.Label className="visually-hidden">{label}</RatingGroup.Label>
      <RatingGroup.Control className={styles.control}>
        <StarItems size={size} />
      </RatingGroup.Control>
    </RatingGroup.Root>
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
