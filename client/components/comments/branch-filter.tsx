import { useMemo } from 'react';
import { createListCollection } from '@ark-ui/react/collection';
import { Portal } from '@ark-ui/react/portal';
import { Select } from '@ark-ui/react/select';
import { useI18n } from '../../i18n';
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
    <Select.Root
      className={styles.root}
      collection={collection}
      value={[props.value || ALL]}
      onValueChange={(e) => props.onChange(e.value[0] === ALL ? '' : (e.value[0] ?? ''))}
      positioning={{ sameWidth: true, gutter: 4 }}
    >
      <Select.Label className="visually-hidden">{s.branchLabel}</Select.Label>
      <Select.Control className={styles.control}>
        <Select.Trigger className={`${styles.input} ${styles.selectTrigger}`}>
          <Select.ValueText />
          <Select.Indicator className={styles.indicator}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </Select.Indicator>
        </Select.Trigger>
      </Select.Control>
      <Portal>
        <Select.Positioner className={styles.positioner}>
          <Select.Content className={styles.content}>
            {collection.items.map((item) => (
              <Select.Item key={item.value} item={item} className={styles.item}>
                <Select.ItemText>{item.label}</Select.ItemText>
                <Select.ItemIndicator className={styles.check}>✓</Select.ItemIndicator>
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Positioner>
      </Portal>
      <Select.HiddenSelect />
    </Select.Root>
  );
}
