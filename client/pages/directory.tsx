import { lazy, Suspense, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { BusinessCard } from '../features/business/business-card';

import { BusinessCardSkeletons } from '../features/business/business-card-skeleton';
import { useFavoriteToggle } from '../features/business/use-favorite';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { usePageList } from '../lib/page-data';
import type { DirectoryPage } from '../features/business/types';
import { useTRPC } from '../lib/trpc';
import { useSearchParam, useSearchParamText } from '../lib/url-state';
import { directoryStateOf, SEARCH_PARAM } from '../../shared/schemas/page-state';
import { CATEGORY_PARAM, CITY_PARAM, DEFAULT_DIRECTORY_SORT, DIRECTORY_PAGE, SORT_PARAM } from '../../shared/schemas/directory-constants';
import { DirectoryFilters } from '../features/business/directory-filters';
import styles from './directory.module.css';
import { BranchesMap } from '../features/business/branches-map';
import { mapSettings } from '../features/business/map-settings';
import { useHydrated } from '../lib/hydrated';
import { byDistance } from '../features/business/near-me';
import { inSiteName } from '../../shared/schemas/site-settings';
import { useSiteText } from '../lib/site-text';

// Only an admin of an empty site sees it: its code loads then.
const FirstRunPrompt = lazy(() => import('../features/business/first-run-prompt').then((m) => ({ default: m.FirstRunPrompt })));

/** Cards in the first rows load their pictures at once; the rest wait until scrolled near. */
const EAGER_CARDS = 4;

export default function DirectoryPage() {
  const { t, number, errorText } = useI18n();
  const trpc = useTRPC();
  // The search lives in the URL (?q=…): a reload, Back and a shared link keep it.
  const { text, change, term: search } = useSearchParamText(SEARCH_PARAM, 250);
  const searching = search !== '';
  // So do the category, city and sort (?category=Livsmedel&city=Malmö&sort=rating).
  const [, setCategory] = useSearchParam(CATEGORY_PARAM);
  const [, setCity] = useSearchParam(CITY_PARAM);
  const [, setSort] = useSearchParam(SORT_PARAM);
  const { category, city, sort } = directoryStateOf(useSearch());
  // No filter and the default order: no input at all, the query the first paint asks for early.
  const view =
    category || city || sort !== DEFAULT_DIRECTORY_SORT
      ? { ...(category && { category }), ...(city && { city }), ...(sort !== DEFAULT_DIRECTORY_SORT && { sort }) }
      : undefined;
  const filtered = view !== undefined && !!(category || city);
  // The counts follow the other filters and the search (issue 31.3).
  const filterInput = category || city || search ? { ...(category && { category }), ...(city && { city }), ...(search && { search }) } : undefined;
  const options = useQuery({ ...trpc.business.directoryFilters.queryOptions(filterInput), placeholderData: keepPreviousData });
  // "Närmast mig" and the map: the positions of every business the filters keep; the visitor's
  // own position stays in the browser (near-me.ts), asked for only when chosen.
  const hydrated = useHydrated();
  const [showMap, setShowMap] = useState(false);
  const [here, setHere] = useState<[number, number] | null>(null);
  // How many pages of the nearest businesses "Närmast mig" shows.
  const [nearPages, setNearPages] = useState(1);
  const [locating, setLocating] = useState<'idle' | 'asking' | 'denied'>('idle');
  const placeInput = { ...view, ...(search && { search }) };
  const places = useQuery({ ...trpc.business.directoryPlaces.queryOptions(placeInput), enabled: showMap || here !== null });
  const nearMe = () => {
    setNearPages(1);
    if (here) return setHere(null);
    if (!('geolocation' in navigator)) return setLocating('denied');
    setLocating('asking');
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setHere([pos.coords.latitude, pos.coords.longitude]);
        setLocating('idle');
      },
      () => setLocating('denied'),
      { maximumAge: 300_000, timeout: 15_000 },
    );
  };
  // The nearest first, a page of cards at a time (business.directoryCards): no reply holds every card.
  const nearIds = useMemo(() => (here && places.data ? [...byDistance(places.data, here).keys()] : null), [here, places.data]);
  const nearPageIds = nearIds
    ? Array.from({ length: Math.min(nearPages, Math.ceil(nearIds.length / DIRECTORY_PAGE)) }, (_, p) =>
        nearIds.slice(p * DIRECTORY_PAGE, (p + 1) * DIRECTORY_PAGE),
      )
    : [];
  const near = useQueries({ queries: nearPageIds.map((ids) => trpc.business.directoryCards.queryOptions({ ids })) });
  // The pages that have arrived, in order, up to the first still on its way.
  const nearLoaded = near.findIndex((q) => !q.data);
  // Until the first has arrived the list stays as it was.
  const nearCards = nearIds === null || nearLoaded === 0 ? null : near.slice(0, nearLoaded === -1 ? near.length : nearLoaded).flatMap((q) => q.data ?? []);
  const nearMore = {
    hasNextPage: nearIds !== null && nearPageIds.length * DIRECTORY_PAGE < nearIds.length,
    isFetchingNextPage: near.some((q) => q.isFetching),
    fetchNextPage: () => Promise.resolve(setNearPages((n) => n + 1)),
  };
  // A page of cards at a time (business.directoryPage), the next when the visitor scrolls near
  // the end or presses "Visa fler": the reply does not grow with the number of businesses.
  const nextPage = { getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined };
  // The server may have rendered the first page of the default list (server/plugins/spa-pages.ts).
  const served = usePageList<DirectoryPage>('business.directoryPage', view ?? {});
  const all = useInfiniteQuery({ ...trpc.business.directoryPage.infiniteQueryOptions(view ?? {}, nextPage), ...served, placeholderData: keepPreviousData });
  const found = useInfiniteQuery({
    ...trpc.business.directoryPage.infiniteQueryOptions({ ...view, search }, nextPage),
    enabled: searching,
    placeholderData: keepPreviousData,
  });
  const toggleFavorite = useFavoriteToggle();

  // A search without a match says so and shows no list under it (issue 31.4); until its first
  // answer arrives the list stays as it was.
  const foundTotal = found.data?.pages[0]?.total;
  const noMatch = searching && foundTotal === 0;
  const showingResults = searching && foundTotal !== undefined;
  const list = showingResults ? found : all;
  const cards = nearCards ?? list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = nearCards ? nearIds!.length : (list.data?.pages[0]?.total ?? 0);
  const hasMore = nearCards ? nearMore.hasNextPage : list.hasNextPage;
  const { fetchNextPage, isFetchingNextPage } = nearCards ? nearMore : list;
  const showMore = () => {
    if (!isFetchingNextPage) void fetchNextPage();
  };
  const sentinel = useRef<HTMLDivElement>(null);
  const shown = cards.length;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '0px 0px 600px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
    // `shown` re-arms the observer, so a sentinel still in view after a page loads the next one.
  }, [hasMore, fetchNextPage, isFetchingNextPage, shown]);
  const d = t.business.directory;
  const site = useSiteText();
  // The first cards render in a deferred pass that yields to input; the skeleton stays until then.
  const visible = useDeferredValue(cards.length === 0 ? null : cards);

  return (
    <div className="container page">
      <h1 className="page-title">{d.title}</h1>
      <p className={styles.intro}>{d.intro}</p>

      <search className={styles.search}>
        <label htmlFor="business-search" className="visually-hidden">
          {d.searchLabel}
        </label>
        <input
          id="business-search"
          className="input"
          type="search"
          value={text}
          onChange={(e) => change(e.target.value)}
          placeholder={d.searchPlaceholder}
          autoComplete="off"
          enterKeyHint="search"
          maxLength={100}
          disabled={!hydrated}
        />
        {searching && found.isFetching ? <Spinner label={d.searching} size={20} /> : null}
      </search>

      <DirectoryFilters
        options={options.data}
        category={category}
        city={city}
        sort={sort}
        onCategory={setCategory}
        onCity={setCity}
        onSort={(next) => setSort(next === DEFAULT_DIRECTORY_SORT ? '' : next)}
      />

      <div className={styles.placeTools}>
        <button type="button" className="btn btn-outline" aria-pressed={here !== null} onClick={nearMe} disabled={!hydrated}>
          {t.places.nearMe.sort}
        </button>
        {hydrated && mapSettings() ? (
          <button type="button" className="btn btn-outline" aria-expanded={showMap} onClick={() => setShowMap(!showMap)}>
            {showMap ? t.places.map.hide : t.places.map.show}
          </button>
        ) : null}
        <p className="muted" aria-live="polite">
          {locating === 'asking' ? t.places.nearMe.asking : locating === 'denied' ? t.places.nearMe.denied : here ? t.places.nearMe.note : ''}
        </p>
      </div>
      {showMap && places.data ? (
        <BranchesMap
          label={t.places.map.directoryLabel}
          places={places.data.flatMap((p) =>
            p.positions.map(([lat, lng], i) => ({ id: `${p.id}-${i}`, lat, lng, label: p.title, href: `/business/${encodeURIComponent(p.id)}` })),
          )}
        />
      ) : null}

      <div aria-live="polite">
        {noMatch ? <p className={`notice ${styles.status}`}>{d.nothingFound}</p> : null}
        {found.isError && searching ? <p className="notice notice-error">{errorText(found.error)}</p> : null}
      </div>

      {noMatch ? null : all.isPending || (visible === null && cards.length > 0) ? (
        <BusinessCardSkeletons count={EAGER_CARDS * 2} label={t.common.loading} className={styles.grid} />
      ) : all.isError ? (
        <p className="notice notice-error" role="alert">
          {errorText(all.error)}
        </p>
      ) : cards.length === 0 && filtered ? (
        <div className={styles.empty}>
          <p className="notice">{d.filters.noMatch}</p>
          <div>
            <button
              type="button"
              className="btn btn-outline"
              disabled={!hydrated}
              onClick={() => {
                setCategory('');
                setCity('');
              }}
            >
              {d.filters.clear}
            </button>
          </div>
        </div>
      ) : cards.length === 0 ? (
        <div className={styles.empty}>
          <p className="notice">{inSiteName(d.empty, site.name)}</p>
          <Suspense fallback={null}>
            <FirstRunPrompt />
          </Suspense>
        </div>
      ) : (
        <>
          <ul className={styles.grid} aria-label={d.listLabel}>
            {cards.map((business, i) => (
              <li key={business.id}>
                <BusinessCard business={business} onToggleFavorite={toggleFavorite} eager={i < EAGER_CARDS} />
              </li>
            ))}
          </ul>
          <div ref={sentinel} className={styles.more}>
            <p className="muted" aria-live="polite">
              {d.shownOf(number(shown), number(total))}
            </p>
            {hasMore ? (
              <button type="button" className="btn btn-outline" onClick={showMore} disabled={!hydrated || isFetchingNextPage}>
                {d.showMore}
              </button>
            ) : null}
          </div>
        </>
      )}

      <p className={`notice ${styles.notice}`}>{d.notice}</p>
    </div>
  );
}
