import { memo, useDeferredValue, useId, useMemo, type CSSProperties } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { FEED_EXCERPT_CHARS, type FeedFilter } from '../../../shared/schemas/comment-constants';
import type { CommentCard, Page } from '../../../shared/schemas/comments';
import { useI18n } from '../../i18n';
import { usePageList } from '../../lib/page-data';
import { useTRPC } from '../../lib/trpc';
import { useHydrated } from '../../lib/hydrated';
import { useSearchParam } from '../../lib/url-state';
import { asFeedFilter, FEED_FILTER_PARAM } from '../../../shared/schemas/page-state';
import { useBusinessTitle } from '../business/business-title';
import { capitalised, excerpt } from './emoji';
import { FeedSkeletonGrid } from './feed-skeleton';
import { PostDate } from './post-header';
import { Stars } from '../business/stars';
import { ChatIcon, SmileIcon } from './icons';
import styles from './comment-feed.module.css';
import { LoadMore } from '../../components/ui/load-more';

/**
 * The community feed on the home page: three exclusive filters (All Comments by default, with
 * Load More; MOST REPLIED and TOP RATED show at most 12), cards linking to the comment on its
 * business page and to the comment's own page.
 */
export function CommentFeed() {
  const { t } = useI18n();
  const f = t.comments.feed;
  const trpc = useTRPC();
  const headingId = useId();
  // The filter lives in the URL (?filter=…): a reload, Back and a shared link keep it.
  const [filterParam, setFilterParam] = useSearchParam(FEED_FILTER_PARAM);
  const filter = asFeedFilter(filterParam);
  const setFilter = (next: FeedFilter) => setFilterParam(next === 'all' ? '' : next);
  // The server may have rendered the page with the feed's first page (server/plugins/spa-pages.ts):
  // the list starts with it, so the cards the visitor already sees are not repainted or asked for.
  const served = usePageList<Page<CommentCard>>('comments.feed', { filter });
  const query = useInfiniteQuery({
    ...trpc.comments.feed.infiniteQueryOptions({ filter }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
    ...served,
  });
  const labels: Record<FeedFilter, string> = { mostReplied: f.mostReplied, topRated: f.topRated, all: f.all };
  const errors: Record<FeedFilter, string> = { mostReplied: f.errorMostReplied, topRated: f.errorTopRated, all: f.errorAll };
  // The description lists them in this order; the default is All Comments.
  const order: FeedFilter[] = ['mostReplied', 'topRated', 'all'];
  const all = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  // Rendered in a deferred pass that yields to input; the skeleton stays until it is done.
  const items = useDeferredValue(all);
  const preparing = items !== all && items.length === 0 && all.length > 0;
  // The served feed's controls wait for the app to take the page over (lib/hydrated.ts).
  const hydrated = useHydrated();

  return (
    <section className={styles.feed} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.title}>
        {f.title}
      </h2>
      {/* Native radios, styled as a segmented control: no component library in the home page's
          scripts (its JS budget), and the arrow keys, labels and form semantics come for free. */}
      <div role="radiogroup" aria-label={f.filters} className={styles.filters}>
        {order.map((value) => (
          <label key={value} className={styles.filter} data-state={value === filter ? 'checked' : 'unchecked'}>
            <span>{labels[value]}</span>
            <input
              type="radio"
              className="visually-hidden"
              name={`${headingId}-filter`}
              value={value}
              checked={value === filter}
              disabled={!hydrated}
              onChange={() => setFilter(value)}
            />
          </label>
        ))}
      </div>

      {query.isPending || preparing ? (
        <FeedSkeletonGrid label={f.loading} />
      ) : query.isError ? (
        <p className="notice notice-error" role="alert">
          {errors[filter]}
        </p>
      ) : items.length === 0 ? (
        <p className="notice">{f.empty}</p>
      ) : (
        <ul className={styles.grid} aria-label={labels[filter]}>
          {items.map((comment) => (
            <li key={comment._id}>
              <FeedCard comment={comment} />
            </li>
          ))}
        </ul>
      )}

      {filter === 'all' ? <LoadMore query={query} label={f.loadMore} busyLabel={f.loading} className={styles.more} primary disabled={!hydrated} /> : null}
    </section>
  );
}

/** FNV-1a of the title: each business keeps its own tint wherever its cards appear. */
function hueOf(title: string): number {
  let hash = 0x811c9dc5;
  for (const char of title) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % 360;
}

/** First letters of the first two words of the title ("ICA Maxi" → "IM"). */
const initialsOf = (title: string) =>
  title
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0])
    .join('')
    .toLocaleUpperCase('sv-SE') || '?';

/**
 * Where a card's photo would be when the comment has none: the business's own icon (or its
 * initials) on a soft tint of its own colour. Decoration only; the card says everything else.
 */
function NoPhoto({ title, icon }: { title: string; icon: string | null }) {
  return (
    <div className={styles.noPhoto} style={{ '--tint': hueOf(title) } as CSSProperties} aria-hidden="true" data-testid="no-photo">
      {icon ? (
        <img className={styles.noPhotoIcon} src={icon} alt="" width={64} height={64} loading="lazy" decoding="async" />
      ) : (
        <span className={styles.noPhotoInitials}>{initialsOf(title)}</span>
      )}
    </div>
  );
}

/**
 * A comment in the feed: business, photo, text (three lines at most, cut by CSS), author with
 * their stars and the date, counts. The text is the card's link (stretched over the card); the
 * author's name links to their profile above it. Memoised: the feed's own re-render (hydration
 * ending enables its filters) leaves unchanged cards alone.
 */
const FeedCard = memo(function FeedCard({ comment }: { comment: CommentCard }) {
  const { t, number, plural } = useI18n();
  const f = t.comments.feed;
  const business = useBusinessTitle()({ title: comment.businessTitle, isSuggestionBox: comment.businessIsSuggestionBox });
  // A comment a moderator removed stays for its replies, without its text.
  const shown = comment.removed ? t.moderation.report.removed : excerpt(comment.text, FEED_EXCERPT_CHARS);
  const name = `${comment.firstName} ${comment.lastName}`.trim();
  return (
    <article className={`card ${styles.card}`}>
      <div className={styles.business}>
        {comment.businessIcon ? (
          <img className={styles.icon} src={comment.businessIcon} alt="" width={36} height={36} loading="lazy" decoding="async" />
        ) : (
          <span className={styles.iconFallback} aria-hidden="true" />
        )}
        <span className={styles.businessTitle}>{business}</span>
      </div>
      {comment.image ? (
        <img className={styles.photo} src={comment.image} alt="" width={320} height={180} loading="lazy" decoding="async" />
      ) : (
        <NoPhoto title={business} icon={comment.businessIcon} />
      )}
      <h3 className={styles.text}>
        <Link href={`/business/${comment.businessId}#comment-${comment._id}`} className={styles.mainLink}>
          {shown}
          <span className="visually-hidden"> – {f.cardLabel(business, capitalised(comment.businessLocation))}</span>
        </Link>
      </h3>
      <p className={styles.byline}>
        <Link href={`/u/${encodeURIComponent(comment.userId)}`} className={styles.author} data-testid="author-link">
          {name}
        </Link>
        {comment.authorRate === null || comment.businessIsSuggestionBox ? null : (
          <Stars value={comment.authorRate} label={t.comments.stars.authorGave(name, number(comment.authorRate))} size={14} bare />
        )}
        <span className={styles.date}>
          <PostDate date={comment.date} />
        </span>
      </p>
      <p className={styles.counts}>
        <span className={styles.count}>
          <ChatIcon />
          {number(comment.replyCount)} {plural(comment.replyCount, f.replies)}
        </span>
        <span className={styles.count}>
          <SmileIcon />
          {number(comment.ratingCount)} {plural(comment.ratingCount, f.ratings)}
        </span>
      </p>
      <Link href={`/comment/${comment._id}`} className={styles.secondaryLink}>
        {f.openComment}
      </Link>
    </article>
  );
});
