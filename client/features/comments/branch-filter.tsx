import { useMemo } from 'react';
import { createListCollection } from '@ark-ui/react/collection';
import { useI18n } from '../../i18n';
import { ListSelect } from '../../components/ui/list-select';
import styles from './branch-picker.module.css';

const ALL = 'all';

/** The branch filter of a business's comments: "Alla filialer" or one branch. `value` '' is all. */
export function BranchFilter(props: { branches: { id: string; location: string }[]; value: string; onChange(value: string): void }) {
  const { t } = useI18n();
  const s = t.comments.section;
  const collection = useMemo(
    () => createListCollection({ items: [{ value: ALL, label: s.allBranches }, ...props.branches.map((b) => ({ value: b.id, label: b.location }))] }),
    [props.branches, s.allBranches],
  );
  return (
    <ListSelect
      className={styles.root}
      label={s.branchLabel}
      hideLabel
      collection={collection}
      value={props.value || ALL}
      onChange={(value) => props.onChange(value === ALL ? '' : value)}
    />
  );
}
