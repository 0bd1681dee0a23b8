import { useMemo } from 'react';
import { createListCollection } from '@ark-ui/react/collection';
import { useI18n } from '../../i18n';
import { ListSelect } from '../../components/ui/list-select';
import styles from './branch-picker.module.css';

const ALL = 'all';
/** A place's value in the list: its name after this prefix (branch ids never start with it). */
const PLACE = 'place:';

/** What the filter picks: '' for all, a branch by id, or another place by name. */
export type BranchFilterValue = { branch: string; place: string };

/**
 * The branch filter of a business's comments: "Alla filialer", one branch, or one of the other
 * places authors typed (issue 29.4), each with its number of public comments.
 */
export function BranchFilter(props: {
  branches: { id: string; location: string; commentCount?: number }[];
  places: { name: string; commentCount: number }[];
  value: BranchFilterValue;
  onChange(value: BranchFilterValue): void;
}) {
  const { t } = useI18n();
  const s = t.comments.section;
  const collection = useMemo(
    () =>
      createListCollection({
        items: [
          { value: ALL, label: s.allBranches },
          ...props.branches.map((b) => ({ value: b.id, label: b.commentCount === undefined ? b.location : s.branchOption(b.location, b.commentCount) })),
          ...props.places.map((p) => ({ value: `${PLACE}${p.name}`, label: s.placeOption(p.name, p.commentCount) })),
        ],
      }),
    [props.branches, props.places, s],
  );
  const value = props.value.branch || (props.value.place ? `${PLACE}${props.value.place}` : ALL);
  return (
    <ListSelect
      className={styles.root}
      label={s.branchLabel}
      hideLabel
      collection={collection}
      value={value}
      onChange={(next) =>
        props.onChange(
          next === ALL ? { branch: '', place: '' } : next.startsWith(PLACE) ? { branch: '', place: next.slice(PLACE.length) } : { branch: next, place: '' },
        )
      }
    />
  );
}
