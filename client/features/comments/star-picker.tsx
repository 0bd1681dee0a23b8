import { useId, useRef } from 'react';
import { RatingGroup } from '@ark-ui/react/rating-group';
import { useI18n } from '../../i18n';
import { StarItems } from '../business/star-items';
import { CloseIcon } from '../../components/layout/icons';
import styles from './comments.module.css';

/**
 * The optional stars of the comment form: the author's rating of the business, sent with the
 * comment (0 means none). "Remove rating", a button that looks like one, takes a choice back before posting.
 */
export function StarPicker({ value, onChange, disabled = false }: { value: number; onChange(value: number): void; disabled?: boolean }) {
  const { t } = useI18n();
  const s = t.comments.stars;
  const hintId = useId();
  const controlRef = useRef<HTMLDivElement>(null);
  const clear = () => {
    onChange(0);
    // The button goes away with the stars it clears: focus moves to the first star, not the body.
    controlRef.current?.querySelector<HTMLElement>('[role="radio"]')?.focus();
  };
  return (
    <div className={styles.starPicker}>
      <RatingGroup.Root
        count={5}
        value={value}
        onValueChange={(details) => onChange(details.value)}
        disabled={disabled}
        translations={{ ratingValueText: t.business.rating.stars }}
        className={styles.starGroup}
        aria-describedby={hintId}
      >
        <RatingGroup.Label className={styles.starLabel}>{s.label}</RatingGroup.Label>
        <div className={styles.starRow}>
          <RatingGroup.Control ref={controlRef}>
            <StarItems size={28} />
          </RatingGroup.Control>
          {value > 0 ? (
            <button type="button" className={`btn btn-outline btn-sm ${styles.clearStars}`} onClick={clear} disabled={disabled}>
              <CloseIcon size={16} />
              {s.clear}
            </button>
          ) : null}
        </div>
        <RatingGroup.HiddenInput />
      </RatingGroup.Root>
      <p id={hintId} className={styles.hint}>
        {s.hint}
      </p>
    </div>
  );
}
