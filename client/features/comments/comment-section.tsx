import { lazy, Suspense, useCallback, useDeferredValue, useId, useMemo, useState, useSyncExternalStore } from 'react';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { SEARCH_MAX } from '../../../shared/schemas/comment-constants';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { useLoginHref } from '../accounts/sign-in';
import { useHydrated } from '../../lib/hydrated';
import { usePageList } from '../../lib/page-data';
import type { CommentCard as Comment, Page } from '../../../shared/schemas/comments';
import { useTRPC } from '../../lib/trpc';
import { useSearchParam, useSearchParamText } from '../../lib/url-state';
import { useCommentListState } from '../../lib/comment-list-state';
import { CommentFilters } from './comment-filters';
import { BRANCH_PARAM, PLACE_PARAM, SEARCH_PARAM, withParam } from '../../../shared/schemas/page-state';
import { LOCATION_MAX } from '../../../shared/schemas/comment-constants';
import { BranchFilter, type BranchFilterValue } from './branch-filter';
import { Spinner } from '../../components/ui/spinner';
import { CommentCard } from './comment-card';
import styles from './comments.module.css';
import { LoadMore } from '../../components/ui/load-more';

// Only signed-in visitors get the form (react-hook-form, zod, the upload field): it loads for them.
const CommentForm = lazy(() => import('./comment-form').then((m) => ({ default: m.CommentForm })));

const COMMENT_HASH = /^#comment-([\w-]{1,64})$/;

const readLinkedId = () => COMMENT_HASH.exec(window.location.hash)?.[1] ?? null;
function subscribeToHash(onChange: () => void) {
  window.addEventListener('hashchange', onChange);
  window.addEventListener('popstate', onChange);
  return () => {
    window.removeEventListener('hashchange', onChange);
    window.removeEventListener('popstate', onChange);
  };
}

/**
 * The comment id a link's hash points at (#comment-{id}), following hash changes. The server
 * never sees the hash: its render (and the hydration of it) has none, the browser's id follows.
 */
function useLinkedCommentId(): string | null {
  return useSyncExternalStore(subscribeToHash, readLinkedId, () => null);
}

/**
 * The comment area of a business page: the form (or a login link), a search over branch
 * location, text and author name, and the comments newest first, a page at a time. A link to
 * a comment that is not on the loaded pages (#comment-{id}) shows it on its own at the top.
 */
export function CommentSection({
  businessId,
  branches,
  places = [],
  commentCount,
}: {
  businessId: string;
  branches: { id: string; location: string; commentCount?: number }[];
  /** Other places the business's public comments name (issue 29.4): the branch filter offers them too. */
  places?: { name: string; commentCount: number }[];
  /** The business's written reviews (kept column): with none, an invitation instead of filters. */
  commentCount?: number;
}) {
  const { t, errorText } = useI18n();
  const s = t.comments.section;
  const trpc = useTRPC();
  const me = useViewer();
  const loginHref = useLoginHref('#comments');
  const headingId = useId();
  const searchId = useId();
  // The search lives in the URL (?q=…): a reload, Back and a shared link keep it.
  const { text: search, change: setSearch, clear: clearSearch, term } = useSearchParamText(SEARCH_PARAM, 300);
  // The branch filter too (?branch=…); an id that is not one of the branches (one since deleted) shows all.
  const [branchParam] = useSearchParam(BRANCH_PARAM);
  const branch = branches.some((b) => b.id === branchParam) ? branchParam : '';
  // Or another place (?place=…), by any spelling: the server groups them ignoring case and spaces.
  const [placeParam] = useSearchParam(PLACE_PARAM);
  const place = branch ? '' : placeParam.trim().slice(0, LOCATION_MAX);
  const [, navigate] = useLocation();
  const setPlace = ({ branch: nextBranch, place: nextPlace }: BranchFilterValue) => {
    const { pathname, search: current, hash } = window.location;
    const query = withParam(withParam(current, BRANCH_PARAM, nextBranch), PLACE_PARAM, nextPlace);
    if (query !== current) navigate(`${pathname}${query}${hash}`, { replace: true });
  };
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const linkedId = useLinkedCommentId();
  // The order and filters live in the URL too (?sort=, ?stars=, ?photos=).
  const listState = useCommentListState();
  const filtered = Boolean(listState.input.stars || listState.input.photos);

  const input = { businessId, search: term || undefined, branch: branch || undefined, place: place || undefined, ...listState.input };
  // The server renders a business page with its first page of comments in the default order
  // (server/plugins/spa-pages.ts): the list starts with it, so hydration finds the same cards.
  const served = usePageList<Page<Comment>>('comments.byBusiness', input);
  const query = useInfiniteQuery({
    ...trpc.comments.byBusiness.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
    ...served,
    placeholderData: keepPreviousData,
  });
  const hydrated = useHydrated();
  const comments = useMemo(() => (query.data?.pages.flatMap((p) => p.items) ?? []).filter((c) => !removed.has(c._id)), [query.data, removed]);
  // A page of cards is a lot of main-thread work; a deferred render yields between cards
  // instead of blocking input in one long task. Until it is done, the loading state stays.
  const shown = useDeferredValue(comments);
  const linkedMissing = Boolean(linkedId && query.isSuccess && !term && !filtered && !branch && !place && !comments.some((c) => c._id === linkedId));
  const linked = useQuery({ ...trpc.comments.byId.queryOptions({ id: linkedId ?? '' }), enabled: linkedMissing, retry: false });
  const linkedComment = linkedMissing && linked.data && linked.data.businessId === businessId && !removed.has(linked.data._id) ? linked.data : null;

  // Kept across renders, so the memoised cards are not rendered again for a new callback.
  const hide = useCallback((id: string) => setRemoved((prev) => new Set(prev).add(id)), []);
  // Nothing written yet and nothing asked for: search, branch and star filters would filter
  // nothing, so the section invites the first review instead (issue 29.8).
  const empty = commentCount === 0 && !term && !branch && !place && !filtered && query.isSuccess && comments.length === 0;

  let list;
  if (query.isPending || (shown !== comments && shown.length === 0 && comments.length > 0)) {
    list = <Spinner label={s.loading} showLabel />;
  } else if (query.isError) {
    list = (
      <p className="notice notice-error" role="alert">
        {query.error.data?.key ? errorText(query.error) : s.error}
      </p>
    );
  } else if (empty) {
    list = (
      <div className={`notice ${styles.invitation}`}>
        <p>
          <strong>{s.noComments}</strong>
        </p>
        <p>{me ? s.beFirst : s.beFirstVisitor}</p>
      </div>
    );
  } else if (comments.length === 0) {
    list = (
      <p className="notice">{term ? s.nothingFound : branch || place ? s.nothingAtBranch : filtered ? t.comments.listing.nothingFiltered : s.noComments}</p>
    );
  } else {
    list = (
      <ol className={styles.commentList} aria-labelledby={headingId} aria-busy={(hydrated && query.isFetching) || undefined}>
        {shown.map((comment) => (
          <li key={comment._id}>
            <CommentCard comment={comment} highlighted={comment._id === linkedId} onRemoved={hide} />
          </li>
        ))}
      </ol>
    );
  }

  return (
    <section id="comments" aria-labelledby={headingId}>
      {/* Served by the server, the search, the filters and the cards' buttons would do nothing
          until the app has taken over: they are disabled until then, so a press is not lost. */}
      <fieldset className={`${styles.section} ${styles.frame}`} disabled={!hydrated}>
        <h2 id={headingId} className={styles.sectionTitle}>
          {s.heading}
        </h2>

        {me ? (
          me.isBanned ? (
            <p className="notice notice-error">{t.messages.banned}</p>
          ) : (
            <Suspense fallback={<Spinner label={t.common.loading} />}>
              <CommentForm businessId={businessId} onPosted={clearSearch} />
            </Suspense>
          )
        ) : (
          <p className="notice">
            <Link href={loginHref}>{t.messages.commentLoginRequired}</Link>
          </p>
        )}

        {empty ? null : (
          <>
            <div className={styles.filters}>
              <div className={styles.searchBox} role="search">
                <label htmlFor={searchId} className="visually-hidden">
                  {s.searchLabel}
                </label>
                <input
                  id={searchId}
                  type="search"
                  className="input"
                  placeholder={s.searchPlaceholder}
                  value={search}
                  maxLength={SEARCH_MAX}
                  onChange={(e) => setSearch(e.target.value)}
                  aria-describedby={`${searchId}-hint`}
                />
                <p id={`${searchId}-hint`} className={styles.hint}>
                  {s.searchHint}
                </p>
              </div>
              {branches.length + places.length > 1 ? (
                <div className={styles.branchFilter}>
                  <BranchFilter branches={branches} places={places} value={{ branch, place }} onChange={setPlace} />
                </div>
              ) : null}
            </div>

            <CommentFilters state={listState} />
          </>
        )}

        {linkedComment ? (
          <div className={styles.linked}>
            <p className={styles.linkedLabel}>{s.linked}</p>
            <CommentCard comment={linkedComment} highlighted repliesOpen onRemoved={hide} />
          </div>
        ) : null}

        {list}

        <LoadMore query={query} label={s.loadMore} busyLabel={s.loading} className={styles.more} />
      </fieldset>
    </section>
  );
}
