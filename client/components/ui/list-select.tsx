import type { ReactNode } from 'react';
import { Portal } from '@ark-ui/react/portal';
import { Select, type ListCollection } from '@ark-ui/react/select';
import styles from './list-select.module.css';

export type ListItem = { value: string; label: string };

type Props = {
  label: string;
  /** The label is read by screen readers only (the control's place says what it is). */
  hideLabel?: boolean;
  /** Shown after the label, outside it (a tooltip's button). */
  beside?: ReactNode;
  collection: ListCollection<ListItem>;
  value: string;
  onChange(value: string): void;
  /** The root's size and place in its row. */
  className?: string;
  disabled?: boolean;
};

/**
 * One choice from a list: Ark UI's Select (keyboard, focus and listbox semantics are its own)
 * with the app's look. The directory's city and sort, and a business's comment order and branch.
 */
export function ListSelect({ label, hideLabel, beside, collection, value, onChange, className, disabled = false }: Props) {
  const labelElement = <Select.Label className={hideLabel ? 'visually-hidden' : styles.label}>{label}</Select.Label>;
  return (
    <Select.Root
      className={className ? `${styles.select} ${className}` : styles.select}
      collection={collection}
      value={[value]}
      onValueChange={(details) => {
        if (details.value[0]) onChange(details.value[0]);
      }}
      positioning={{ sameWidth: true, gutter: 4 }}
      disabled={disabled}
      lazyMount
      unmountOnExit
    >
      {hideLabel ? (
        labelElement
      ) : (
        <div className={styles.labelRow}>
          {labelElement}
          {beside}
        </div>
      )}
      <Select.Control>
        <Select.Trigger className={styles.trigger}>
          <Select.ValueText className={styles.valueText} />
          <Select.Indicator className={styles.indicator} aria-hidden="true">
            ▾
          </Select.Indicator>
        </Select.Trigger>
      </Select.Control>
      <Portal>
        <Select.Positioner>
          <Select.Content className={styles.content}>
            {collection.items.map((item) => (
              <Select.Item key={item.value} item={item} className={styles.item}>
                <Select.ItemText>{item.label}</Select.ItemText>
                <Select.ItemIndicator aria-hidden="true">✓</Select.ItemIndicator>
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Positioner>
      </Portal>
      <Select.HiddenSelect />
    </Select.Root>
  );
}
