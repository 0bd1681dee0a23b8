import { useMemo, useRef, useState } from 'react';
import { Combobox } from '@ark-ui/react/combobox';
import { useListCollection } from '@ark-ui/react/collection';
import { Portal } from '@ark-ui/react/portal';
import { useI18n } from '../../i18n';
import styles from './branch-picker.module.css';

/** The choice that opens the free-text field for a place that is none of the branches. */
export const OTHER_PLACE = 'other';

type Option = { value: string; label: string };

const fold = (text: string) => text.toLocaleLowerCase('sv').normalize('NFD').replace(/\p{M}/gu, '');

/**
 * The branch a comment is about: a combobox of the business's branches (type to narrow them)
 * and, always last, "Annan plats…" for free text. `value` is a branch id, OTHER_PLACE or ''.
 * `onChange` also hands over what was typed, so "Annan plats…" can start from it.
 *
 * Text typed and left without picking anything is not thrown away (issue 29.4): leaving the
 * field takes it as the branch it names (case and accents aside) or else as another place, and
 * the field then reads "Annan plats: Umeå" (`otherText`, the free text the form holds).
 */
export function BranchPicker(props: {
  id: string;
  branches: { id: string; location: string }[];
  value: string;
  /** `kept`: the typed text was taken as another place on leaving the field (no pick). */
  onChange(value: string, typed: string, kept?: boolean): void;
  /** The free text of "Annan plats", shown in the field while that is the choice. */
  otherText?: string;
  invalid: boolean;
  describedBy?: string;
}) {
  const { t } = useI18n();
  const f = t.comments.form;
  const options = useMemo<Option[]>(
    () => [...props.branches.map((b) => ({ value: b.id, label: b.location })), { value: OTHER_PLACE, label: f.otherPlace }],
    [props.branches, f.otherPlace],
  );
  const { collection, filter } = useListCollection<Option>({
    initialItems: options,
    itemToString: (item) => item.label,
    itemToValue: (item) => item.value,
    filter: (itemText, filterText, item) => item.value === OTHER_PLACE || fold(itemText).includes(fold(filterText.trim())),
  });
  const typed = useRef('');
  // While the person types, the field shows their text; otherwise the choice's label.
  const [typing, setTyping] = useState<string | null>(null);
  // Held here so leaving the field closes the list for sure: the choice made then would
  // otherwise open it again, over whatever the pointer was pressing (the "Publicera" button).
  const [open, setOpen] = useState(false);
  const controlRef = useRef<HTMLDivElement>(null);
  const labelOf = (value: string) => options.find((o) => o.value === value)?.label ?? '';
  const shown =
    typing ?? (props.value === OTHER_PLACE && props.otherText?.trim() ? f.otherPlaceIs(props.otherText.trim()) : props.value ? labelOf(props.value) : '');

  const keepTyped = () => {
    setOpen(false);
    if (typing === null) return;
    setTyping(null);
    const text = typing.trim();
    if (text === '') return;
    const branch = props.branches.find((b) => fold(b.location) === fold(text));
    if (branch) props.onChange(branch.id, '');
    else props.onChange(OTHER_PLACE, text, true);
  };

  return (
    <Combobox.Root
      className={styles.root}
      collection={collection}
      value={props.value ? [props.value] : []}
      inputValue={shown}
      open={open}
      // The list opens only while the field (or its button) has focus: the field showing the
      // kept place as it is left opened it again, over the "Publicera" button being pressed.
      onOpenChange={(e) => setOpen(e.open && Boolean(controlRef.current?.contains(document.activeElement)))}
      onInputValueChange={(e) => {
        // Only typing narrows the list; a chosen item's label in the field shows all again.
        if (e.reason === 'input-change') {
          typed.current = e.inputValue;
          setTyping(e.inputValue);
          filter(e.inputValue);
        } else filter('');
      }}
      onValueChange={(e) => {
        setTyping(null);
        props.onChange(e.value[0] ?? '', typed.current);
      }}
      openOnClick
      ids={{ input: props.id }}
      invalid={props.invalid}
      positioning={{ sameWidth: true, gutter: 4 }}
    >
      <Combobox.Label className={styles.label}>{f.location}</Combobox.Label>
      <Combobox.Control ref={controlRef} className={styles.control}>
        <Combobox.Input className={styles.input} placeholder={f.branchPlaceholder} aria-describedby={props.describedBy} onBlur={keepTyped} />
        <Combobox.Trigger className={styles.trigger} aria-label={f.openBranches}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </Combobox.Trigger>
      </Combobox.Control>
      <Portal>
        <Combobox.Positioner className={styles.positioner}>
          <Combobox.Content className={styles.content}>
            {collection.items.map((item) => (
              <Combobox.Item key={item.value} item={item} className={item.value === OTHER_PLACE ? `${styles.item} ${styles.other}` : styles.item}>
                <Combobox.ItemText>{item.label}</Combobox.ItemText>
                <Combobox.ItemIndicator className={styles.check}>✓</Combobox.ItemIndicator>
              </Combobox.Item>
            ))}
          </Combobox.Content>
        </Combobox.Positioner>
      </Portal>
    </Combobox.Root>
  );
}
