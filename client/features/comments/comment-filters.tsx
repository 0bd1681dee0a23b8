import { useId } from 'react';
import { createListCollection } from '@ark-ui/react/select';
import { Toggle } from '@ark-ui/react/toggle';
import { ToggleGroup } from '@ark-ui/react/toggle-group';
import { commentSorts, STAR_LEVELS, type CommentSort } from '../../../shared/schemas/comment-constants';
import { useI18n } from '../../i18n';
import type { useCommentListState } from '../../lib/comment-list-state';
import { StarIcon } from '../business/icons';
import { ListSelect, type ListItem } from '../../components/ui/list-select';
import styles from './comment-filters.module.css';

type State = ReturnType<typeof useCommentListState>;

/**
 * The order of a business's comments (a select) and its filters: star levels (several may be
 * chosen) and "with photos". Everything is in the URL (lib/comment-list-state.ts). A branch
 * filter joins these controls beside the star levels.
 */
export function CommentFilters({ state }: { state: State }) {
  const { t } = useI18n();
  const l = t.comments.listing;
  const starsLabelId = useId();
  const sorts = createListCollection<ListItem>({ items: commentSorts.map((value) => ({ value, label: l.sorts[value] })) });
  const filtered = state.stars.length > 0 || state.photos;

  return (
    <div className={styles.filters}>
      <ListSelect className={styles.sort} label={l.sort} collection={sorts} value={state.sort} onChange={(next) => state.setSort(next as CommentSort)} />

      <div className={styles.group}>
        <span id={starsLabelId} className={styles.label}>
          {l.stars}
        </span>
        <ToggleGroup.Root
          multiple
          value={state.stars.map(String)}
          onValueChange={(details) => state.setStars(details.value.map(Number))}
          className={styles.levels}
          aria-labelledby={starsLabelId}
        >
          {[...STAR_LEVELS].reverse().map((level) => (
            <ToggleGroup.Item key={level} value={String(level)} className={styles.chip} aria-label={l.starLevel(level)}>
              <span aria-hidden="true">{level}</span>
              <StarIcon size={14} filled className={styles.star} />
            </ToggleGroup.Item>
          ))}
        </ToggleGroup.Root>
      </div>

      <Toggle.Root pressed={state.photos} onPressedChange={state.setPhotos} className={styles.chip}>
        {l.photos}
      </Toggle.Root>

      {filtered ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => {
            state.setStars([]);
            state.setPhotos(false);
          }}
        >
          {l.clear}
        </button>
      ) : null}
    </div>
  );
}
