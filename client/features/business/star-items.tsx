// The stars of the rating controls (RatingGroup), apart from the read-only Stars: the pages that
// only show averages (home, directory) do not load the rating state machine.
import { RatingGroup } from '@ark-ui/react/rating-group';
import { StarIcon } from './icons';
import styles from './stars.module.css';

/**
 * The five items of a RatingGroup, drawn filled up to the highlighted one. Only the chosen star
 * is checked: Ark UI reports star 1 as checked while nothing is chosen, which a screen reader
 * reads as a rating of 1.
 */
export function StarItems({ size }: { size: number }) {
  return (
    <RatingGroup.Context>
      {({ items, value }) =>
        items.map((index) => (
          <RatingGroup.Item
            key={index}
            index={index}
            className={styles.item}
            aria-checked={value >= 1 && index === Math.ceil(value)}
            data-checked={(value >= 1 && index === Math.ceil(value)) || undefined}
          >
            <RatingGroup.ItemContext>
              {(state) => <StarIcon size={size} filled={state.highlighted} className={state.highlighted ? styles.on : styles.off} />}
            </RatingGroup.ItemContext>
          </RatingGroup.Item>
        ))
      }
    </RatingGroup.Context>
  );
}
