import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Portal } from '@ark-ui/react/portal';
import { SegmentGroup } from '@ark-ui/react/segment-group';
import { createListCollection } from '@ark-ui/react/select';
import { Tooltip } from '@ark-ui/react/tooltip';
import { directorySorts, type DirectorySort } from '../../../shared/schemas/directory-constants';
import { useI18n } from '../../i18n';
import { useHydrated } from '../../lib/hydrated';
import { ListSelect, type ListItem } from '../../components/ui/list-select';
import styles from './directory-filters.module.css';

export type DirectoryFilterOptions = {
  categories: Array<{ id: string; nameSv: string; nameEn: string; count: number }>;
  cities: Array<{ name: string; count: number }>;
};

const ALL = '*';
const fold = (text: string) => text.normalize('NFC').toLocaleLowerCase('sv-SE');

/**
 * The directory's category chips (one row that scrolls sideways on a phone), city list and sort,
 * with a tooltip on how "highest rated" weighs the number of ratings. The values are the URL's
 * (the page keeps them there); `category` is a category's Swedish name.
 */
export function DirectoryFilters({
  options,
  category,
  city,
  sort,
  onCategory,
  onCity,
  onSort,
}: {
  options: DirectoryFilterOptions | undefined;
  category: string;
  city: string;
  sort: DirectorySort;
  onCategory(value: string): void;
  onCity(value: string): void;
  onSort(value: DirectorySort): void;
}) {
  const { t, lang, number } = useI18n();
  const f = t.business.directory.filters;
  // Inert until the app has taken over the served directory (lib/hydrated.ts): no press is lost.
  const disabled = !useHydrated();
  const chosen = options?.categories.find((c) => fold(c.nameSv) === fold(category) || fold(c.nameEn) === fold(category));

  const cities = useMemo(
    () =>
      createListCollection({
        items: [
          { value: ALL, label: f.allCities },
          ...(options?.cities ?? []).map((c) => ({ value: c.name, label: f.withCount(c.name, number(c.count)) })),
          // A shared link may name a place the list no longer has: it stays shown as chosen.
          ...(city && !options?.cities.some((c) => c.name === city) ? [{ value: city, label: city }] : []),
        ],
      }),
    [options, city, f, number],
  );
  // On a phone the chips scroll sideways: the chosen one (from a shared link, say) is scrolled into view.
  const chips = useRef<HTMLDivElement>(null);
  const chosenId = chosen?.id ?? ALL;
  useEffect(() => {
    const row = chips.current;
    const chip = row?.querySelector<HTMLElement>('[data-state="checked"]');
    if (!row || !chip || row.scrollWidth <= row.clientWidth) return;
    const left = chip.offsetLeft;
    if (left < row.scrollLeft || left + chip.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = left - 16;
  }, [chosenId, options]);
  const sorts = useMemo(() => createListCollection<ListItem>({ items: directorySorts.map((value) => ({ value, label: f.sorts[value] })) }), [f]);

  return (
    <div className={styles.root} role="group" aria-label={f.label}>
      <SegmentGroup.Root
        ref={chips}
        className={styles.chips}
        disabled={disabled}
        value={chosen?.id ?? (category ? null : ALL)}
        onValueChange={(details) => {
          const picked = options?.categories.find((c) => c.id === details.value);
          onCategory(picked ? picked.nameSv : '');
        }}
      >
        <SegmentGroup.Label className="visually-hidden">{f.category}</SegmentGroup.Label>
        {[{ id: ALL, label: f.allCategories }, ...chipsOf(options, lang)].map((chip) => (
          <SegmentGroup.Item key={chip.id} value={chip.id} className={styles.chip}>
            <SegmentGroup.ItemText>{chip.label}</SegmentGroup.ItemText>
            <SegmentGroup.ItemControl />
            <SegmentGroup.ItemHiddenInput />
          </SegmentGroup.Item>
        ))}
      </SegmentGroup.Root>

      <div className={styles.selects}>
        <ListSelect
          className={styles.select}
          label={f.city}
          disabled={disabled}
          collection={cities}
          value={city || ALL}
          onChange={(value) => onCity(value === ALL ? '' : value)}
        />
        <ListSelect
          className={styles.select}
          label={f.sort}
          disabled={disabled}
          beside={<RatingSortTip label={f.ratingInfoLabel} text={f.ratingInfo} disabled={disabled} />}
          collection={sorts}
          value={sort}
          onChange={(value) => onSort((directorySorts as readonly string[]).includes(value) ? (value as DirectorySort) : 'name')}
        />
      </div>
    </div>
  );
}

const collators = { sv: new Intl.Collator('sv'), en: new Intl.Collator('en') };

/** The category chips named and ordered in the active language. */
function chipsOf(options: DirectoryFilterOptions | undefined, lang: 'sv' | 'en') {
  return (options?.categories ?? [])
    .map((c) => ({ id: c.id, label: lang === 'en' ? c.nameEn : c.nameSv }))
    .sort((a, b) => collators[lang].compare(a.label, b.label));
}

/** An "i" beside the sort: hover or focus opens it, and a tap too (touch screens have no hover); Escape or leaving closes it. */
function RatingSortTip({ label, text, disabled }: { label: string; text: string; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <Tooltip.Root
      ids={{ trigger: id }}
      open={open}
      onOpenChange={(details) => setOpen(details.open)}
      openDelay={150}
      closeOnPointerDown={false}
      closeOnClick={false}
      interactive
    >
      <Tooltip.Trigger className={styles.info} aria-label={label} onClick={() => setOpen(true)} disabled={disabled}>
        <span aria-hidden="true">i</span>
      </Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content className={styles.tip}>{text}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}
