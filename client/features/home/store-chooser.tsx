import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Combobox } from '@ark-ui/react/combobox';
import { useListCollection } from '@ark-ui/react/collection';
import { Portal } from '@ark-ui/react/portal';
import { useLocation } from 'wouter';
import { useI18n } from '../../i18n';
import type { BusinessSummary } from './types';
import styles from './store-chooser.module.css';

type Option = { _id: string; label: string; category: string };

const fold = (text: string) => text.toLocaleLowerCase('sv');
const matches = (itemText: string, filterText: string) => fold(itemText).includes(fold(filterText.trim()));

/** What the visitor already did in the stand-in field before this arrived (store-chooser-slot.tsx). */
export type ChooserHandoff = {
  text: string;
  selection: [start: number, end: number, direction: 'forward' | 'backward' | 'none'];
  focused: 'input' | 'trigger' | null;
  open: boolean;
};

/** A combobox of every business by title: type to narrow the list, pick one to open its page. */
export function StoreChooser({ businesses, handoff }: { businesses: BusinessSummary[]; handoff: ChooserHandoff }) {
  const { t, lang } = useI18n();
  const [, navigate] = useLocation();
  const c = t.home.chooser;
  // The suggestion box is stored as "Add New" and shown in the active language.
  const options = useMemo<Option[]>(
    () =>
      businesses.map((b) => ({
        _id: b._id,
        label: b.isSuggestionBox ? t.common.nav.addNew : b.title,
        category: lang === 'en' && b.categoryEn ? b.categoryEn : b.category,
      })),
    [businesses, t, lang],
  );
  const { collection, filter, set } = useListCollection<Option>({
    initialItems: options,
    itemToString: (item) => item.label,
    itemToValue: (item) => item._id,
    filter: matches,
  });
  const inputRef = useRef<HTMLInputElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  // The collection starts from these options. New ones (another language) keep the typed text's
  // filter, which set() alone would clear; so would a set() of the first options after the
  // hand-over below has filtered them.
  const listedOptions = useRef(options);
  useEffect(() => {
    if (listedOptions.current === options) return;
    listedOptions.current = options;
    set(options);
    filter(inputRef.current?.value ?? '');
  }, [options, set, filter]);
  // Before this task ends and before paint: the stand-in was just removed with the focus, and a
  // key pressed before the focus is back here would go to the page instead. The caret goes back
  // where it was for the keys that follow (an opening list then moves it to the end, as Ark does
  // whenever its list opens).
  useLayoutEffect(() => {
    if (handoff.text) filter(handoff.text);
    const input = inputRef.current;
    if (handoff.focused === 'input' && input) {
      input.focus();
      input.setSelectionRange(...handoff.selection);
    } else if (handoff.focused === 'trigger') {
      triggerRef.current?.focus();
    }
    // Only the state at hand-over matters; later renders must not steal focus or refilter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Combobox.Root
      className={styles.root}
      collection={collection}
      onInputValueChange={(e) => filter(e.inputValue)}
      onValueChange={(e) => {
        const id = e.value[0];
        if (id) navigate(`/business/${id}`);
      }}
      openOnClick
      defaultInputValue={handoff.text}
      defaultOpen={handoff.open}
      positioning={{ sameWidth: true, gutter: 4 }}
    >
      <Combobox.Label className={styles.label}>{c.label}</Combobox.Label>
      <Combobox.Control className={styles.control}>
        <Combobox.Input ref={inputRef} className={styles.input} placeholder={c.placeholder} />
        <Combobox.Trigger ref={triggerRef} className={styles.trigger} aria-label={c.openList}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </Combobox.Trigger>
      </Combobox.Control>
      <Portal>
        <Combobox.Positioner className={styles.positioner}>
          <Combobox.Content className={styles.content}>
            {collection.items.length === 0 ? (
              <p className={styles.empty}>{options.length === 0 ? c.none : c.noMatch}</p>
            ) : (
              collection.items.map((item) => (
                <Combobox.Item key={item._id} item={item} className={styles.item}>
                  <Combobox.ItemText className={styles.itemText}>{item.label}</Combobox.ItemText>
                  <span className={styles.itemCategory}>{item.category}</span>
                </Combobox.Item>
              ))
            )}
          </Combobox.Content>
        </Combobox.Positioner>
      </Portal>
    </Combobox.Root>
  );
}
