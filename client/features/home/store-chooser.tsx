import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Combobox } from '@ark-ui/react/combobox';
import { createListCollection } from '@ark-ui/react/collection';
import { Portal } from '@ark-ui/react/portal';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { SEARCH_PARAM, withParam } from '../../../shared/schemas/page-state';
import { useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { chooserQuery } from './store-chooser-query';
import styles from './store-chooser.module.css';

type Option = { _id: string; label: string; category: string };

/** The last option's value when the search finds more than the list shows: the directory. No id looks like it. */
const ALL = '*all';

/** How long typing pauses before the list is asked for again: one request per word, not per key. */
const SEARCH_DELAY_MS = 150;

/** What the visitor already did in the stand-in field before this arrived (store-chooser-slot.tsx). */
export type ChooserHandoff = {
  text: string;
  selection: [start: number, end: number, direction: 'forward' | 'backward' | 'none'];
  focused: 'input' | 'trigger' | null;
  open: boolean;
};

/**
 * A combobox that finds a business by what is typed and opens its page. The list is the
 * directory's search on the server (`business.directoryPage`, at most CHOOSER_LIMIT cards), so it
 * stays as small at ten thousand businesses as at ten; when the search finds more, the last option
 * opens the directory with the same search.
 */
export function StoreChooser({ handoff }: { handoff: ChooserHandoff }) {
  const { t, lang, number } = useI18n();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const c = t.home.chooser;
  const [text, setText] = useState(handoff.text);
  // What was handed over is asked for at once; later typing when it pauses.
  const [search, setSearch] = useState(handoff.text);
  useEffect(() => {
    if (text === search) return;
    const timer = window.setTimeout(() => setSearch(text), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text, search]);
  const asked = chooserQuery(search);
  // The list found for the previous words stays until the new one is there (no flash of "loading").
  const page = useQuery({ ...trpc.business.directoryPage.queryOptions(asked), staleTime: 60_000, placeholderData: keepPreviousData });
  const found = page.data;
  const more = found !== undefined && found.total > found.items.length;
  // The words the shown list was found for: while the next words' list is on its way, the list
  // (and the count in its last option) are still the previous words'.
  const shownFor = useRef(asked.search);
  if (found !== undefined && !page.isPlaceholderData) shownFor.current = asked.search;
  const shownSearch = shownFor.current;

  const options = useMemo<Option[]>(() => {
    const list: Option[] = (found?.items ?? []).map((b) => ({
      _id: b.id,
      // The suggestion box is stored as "Add New" and shown in the active language.
      label: b.isSuggestionBox ? t.common.nav.addNew : b.title,
      category: lang === 'en' && b.categoryEn ? b.categoryEn : b.category,
    }));
    if (found && more) list.push({ _id: ALL, label: (shownSearch ? c.allMatches : c.allStores)(number(found.total)), category: '' });
    return list;
  }, [found, more, shownSearch, t, c, lang, number]);
  const collection = useMemo(
    () => createListCollection<Option>({ items: options, itemToString: (item) => item.label, itemToValue: (item) => item._id }),
    [options],
  );

  const inputRef = useRef<HTMLInputElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(handoff.open);
  const highlighted = useRef<string | null>(null);
  /** The directory with the words in the field now (it runs the same search itself). */
  const openDirectory = () => navigate(`/business${withParam('', SEARCH_PARAM, chooserQuery(text).search ?? '')}`);
  // Before this task ends and before paint: the stand-in was just removed with the focus, and a
  // key pressed before the focus is back here would go to the page instead. The caret goes back
  // where it was for the keys that follow (an opening list then moves it to the end, as Ark does
  // whenever its list opens).
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (handoff.focused === 'input' && input) {
      input.focus();
      input.setSelectionRange(...handoff.selection);
    } else if (handoff.focused === 'trigger') {
      triggerRef.current?.focus();
    }
    // Only the state at hand-over matters; later renders must not steal focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  let status: string | null = null;
  if (found === undefined) status = page.isError ? c.error : c.loading;
  else if (found.items.length === 0) status = shownSearch ? c.noMatch : c.none;

  return (
    <Combobox.Root
      className={styles.root}
      collection={collection}
      onInputValueChange={(e) => setText(e.inputValue)}
      onValueChange={(e) => {
        const id = e.value[0];
        if (id === ALL) openDirectory();
        else if (id) navigate(`/business/${id}`);
      }}
      onHighlightChange={(e) => {
        highlighted.current = e.highlightedValue;
      }}
      onOpenChange={(e) => setOpen(e.open)}
      openOnClick
      // Choosing navigates away: the field keeps the typed words rather than asking for the chosen name.
      selectionBehavior="preserve"
      defaultInputValue={handoff.text}
      defaultOpen={handoff.open}
      positioning={{ sameWidth: true, gutter: 4 }}
    >
      <Combobox.Label className={styles.label}>{c.label}</Combobox.Label>
      <Combobox.Control className={styles.control}>
        <Combobox.Input
          ref={inputRef}
          className={styles.input}
          placeholder={c.placeholder}
          onKeyDown={(e) => {
            // Enter on typed words with no store picked: their matches in the directory (the
            // combobox itself would only close its list).
            if (e.key === 'Enter' && !e.nativeEvent.isComposing && highlighted.current === null && text.trim()) openDirectory();
          }}
        />
        <Combobox.Trigger ref={triggerRef} className={styles.trigger} aria-label={c.openList}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </Combobox.Trigger>
      </Combobox.Control>
      <Portal>
        <Combobox.Positioner className={styles.positioner}>
          {/* Beside the list, not in it: a listbox holds options only, and a status is announced. */}
          {open && status !== null ? (
            <p role="status" className={styles.status}>
              {status}
            </p>
          ) : null}
          <Combobox.Content className={styles.content} aria-busy={page.isFetching}>
            {status === null
              ? collection.items.map((item) => (
                  <Combobox.Item key={item._id} item={item} className={item._id === ALL ? `${styles.item} ${styles.all}` : styles.item}>
                    <Combobox.ItemText className={styles.itemText}>{item.label}</Combobox.ItemText>
                    {item.category ? <span className={styles.itemCategory}>{item.category}</span> : null}
                  </Combobox.Item>
                ))
              : null}
          </Combobox.Content>
        </Combobox.Positioner>
      </Portal>
    </Combobox.Root>
  );
}
