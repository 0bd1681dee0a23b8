import { lazy, memo, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { Link, useParams } from 'wouter';
import { useBusinessTitle } from '../features/business/business-card';
import { FavoriteButton } from '../features/business/favorite-button';
import { StorefrontIcon } from '../features/business/icons';
import type { BusinessDetail } from '../features/business/types';
import { RateBusiness } from '../features/business/rate-business';
import { OwnerPanel } from '../features/business/owner-panel';
import { useMayEditFacts } from '../features/business/use-owned';
import { RatingBreakdown } from '../features/business/rating-breakdown';
import { useLocalized } from '../features/business/localized';
import { useRatingSummary } from '../features/business/rating-summary';
import { Stars } from '../features/business/stars';
import { useFavoriteToggle } from '../features/business/use-favorite';
import { ShareButton } from '../components/share/share-button';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useDocumentTitle } from '../lib/document-title';
import { businessPageTitle } from '../lib/page-titles';
import { useSiteText } from '../lib/site-text';
import { withEarly } from '../lib/early-data';
import { BRANCH_PARAM } from '../../shared/schemas/page-state';
import { usePageData } from '../lib/page-data';
import { useHydrated } from '../lib/hydrated';
import { useTRPC } from '../lib/trpc';
import NotFoundPage from './not-found';
import { BranchFacts } from '../features/business/branch-facts';
import { BranchesMap } from '../features/business/branches-map';
import styles from './business-detail.module.css';

// The comments sit below the business's own details; their chunk (cards, emoji ratings) loads
// after the details have painted (a served page keeps the server's comments meanwhile).
const CommentSection = lazy(() => import('../features/comments/comment-section').then((m) => ({ default: m.CommentSection })));

// Only admins and the business's owners load the facts editor (issue 31.1).
const FactsEditor = lazy(() => import('../features/business/facts-editor'));

const PhotoGallery = lazy(() => import('../features/business/photo-gallery').then((m) => ({ default: m.PhotoGallery })));

type CommentsProps = {
  businessId: string;
  branches: { id: string; location: string; commentCount: number }[];
  places: { name: string; commentCount: number }[];
  commentCount: number;
};
const sameComments = (a: CommentsProps, b: CommentsProps) =>
  a.businessId === b.businessId &&
  a.commentCount === b.commentCount &&
  a.branches.length === b.branches.length &&
  a.branches.every(
    (branch, i) => branch.id === b.branches[i]?.id && branch.location === b.branches[i]?.location && branch.commentCount === b.branches[i]?.commentCount,
  ) &&
  a.places.length === b.places.length &&
  a.places.every((place, i) => place.name === b.places[i]?.name && place.commentCount === b.places[i]?.commentCount);

/**
 * The comment section behind its own boundary. On a served page the boundary hydrates only when
 * its chunk has arrived, and a re-render reaching it before then (the page's own, once it has
 * hydrated) would make React drop the served comments and paint them anew: memoised on what it
 * shows, the page's re-renders stop here.
 */
const Comments = memo(function Comments(props: CommentsProps) {
  const { t } = useI18n();
  return (
    <Suspense fallback={<Spinner label={t.comments.section.loading} showLabel />}>
      <CommentSection {...props} />
    </Suspense>
  );
}, sameComments);

function httpStatusOf(error: unknown): number {
  const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: unknown } | undefined)?.httpStatus : undefined;
  return typeof status === 'number' ? status : 0;
}

export default function BusinessDetailPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { t, lang, number } = useI18n();
  const trpc = useTRPC();
  const options = trpc.business.byId.queryOptions({ id });
  // The server may have rendered this page with its data (server/plugins/spa.ts): the first
  // render shows the same, so the browser keeps the server's markup instead of repainting it.
  const served = usePageData<BusinessDetail>('business.byId', { id });
  const query = useQuery({
    ...options,
    ...served,
    // The entry may have asked for this already (lib/early-data.ts); else the usual request.
    queryFn: options.queryFn && withEarly('business.byId', { id }, options.queryFn),
    retry: (count, error) => httpStatusOf(error) >= 500 && count < 2,
  });
  const toggleFavorite = useFavoriteToggle();
  const titleOf = useBusinessTitle();
  const summary = useRatingSummary();
  const localized = useLocalized();
  const hydrated = useHydrated();
  const mayEditFacts = useMayEditFacts(id);
  const d = t.business.detail;
  const loaded = query.data;
  const site = useSiteText();
  useDocumentTitle(loaded ? businessPageTitle(lang, site, titleOf(loaded), loaded.ratingCount, number(loaded.ratingCount)) : null);

  const back = (
    <Link href="/business" className="btn btn-outline">
      {d.goBack}
    </Link>
  );

  if (query.isPending) {
    // The page's frame in grey: back link, icon, title and category, then a few text lines.
    return (
      <div className="container page" aria-busy="true">
        <div className={styles.business}>
          <div>{back}</div>
          <p role="status" className="visually-hidden">
            {d.loading}
          </p>
          <div className={styles.header} aria-hidden="true">
            <span className={`skeleton ${styles.icon} ${styles.skeletonIcon}`} />
            <div className={styles.heading}>
              <span className={`skeleton ${styles.skeletonTitle}`} />
              <span className={`skeleton ${styles.skeletonCategory}`} />
            </div>
          </div>
          <div className={styles.description} aria-hidden="true">
            {[0, 1, 2].map((i) => (
              <span key={i} className={`skeleton ${styles.skeletonLine}`} />
            ))}
          </div>
        </div>
      </div>
    );
  }
  if (query.isError) {
    // An unknown (or malformed) id is a page that does not exist, not a failure to report.
    const status = httpStatusOf(query.error);
    if (status === 404 || status === 400) return <NotFoundPage />;
    return (
      <div className="container page">
        <p className="notice notice-error" role="alert">
          {d.fetchFailed(status)}
        </p>
        <p>{back}</p>
      </div>
    );
  }

  const business = query.data;
  const title = titleOf(business);
  const description = localized.description(business);
  const paragraphs = description.text.split('\n').filter((line) => line.trim() !== '');
  const commentBranches = business.branches.map((b) => ({ id: b.id, location: localized.place(b.location), commentCount: b.commentCount }));
  const mapPlaces = business.branches.flatMap((b) =>
    b.lat !== null && b.lng !== null ? [{ id: b.id, lat: b.lat, lng: b.lng, label: `${title} – ${localized.place(b.location)}` }] : [],
  );

  return (
    <div className="container page">
      <article className={styles.business}>
        <div className={styles.topRow}>
          {back}
          <ShareButton path={`/business/${encodeURIComponent(business.id)}`} title={title} label={t.common.share.business(title)} disabled={!hydrated} />
        </div>
        <header className={styles.header}>
          {business.icon ? (
            <img className={styles.icon} src={business.icon} alt="" width={72} height={72} />
          ) : (
            <span className={styles.iconFallback}>
              <StorefrontIcon size={44} />
            </span>
          )}
          <div className={styles.heading}>
            <h1 className={styles.title}>{title}</h1>
            <p className={styles.category}>
              <span className="visually-hidden">{d.category}: </span>
              {localized.category(business)}
            </p>
            {business.suggestedBy ? (
              <p className={styles.category}>
                <Link href={`/u/${business.suggestedBy.id}`}>
                  {t.suggestions.credit(`${business.suggestedBy.firstName} ${business.suggestedBy.lastName}`.trim())}
                </Link>
              </p>
            ) : null}
          </div>
          {business.isSuggestionBox ? null : <FavoriteButton business={{ ...business, title }} onToggle={toggleFavorite} size={30} />}
        </header>

        {business.image ? <img className={styles.image} src={business.image} alt="" width={1200} height={480} /> : null}

        <div className={styles.description} lang={description.lang}>
          {paragraphs.map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </div>

        {business.website || business.phone ? (
          <p className={styles.contact}>
            {business.website ? (
              <a href={business.website} rel="noopener nofollow ugc" target="_blank">
                {t.places.website}: {business.website.replace(/^https?:\/\//, '').replace(/\/$/, '')}
              </a>
            ) : null}
            {business.phone ? (
              <a href={`tel:${business.phone.replace(/[^+\d]/g, '')}`}>
                {t.places.phone}: {business.phone}
              </a>
            ) : null}
          </p>
        ) : null}
        {/* The "Add New" link leads here; members suggest the missing place on its own form (issue 31.5). */}
        {business.isSuggestionBox ? (
          <p>
            <Link href="/suggest" className="btn btn-primary">
              {t.suggestions.suggest.fromBox}
            </Link>
          </p>
        ) : null}
        {/* A member's own relation to the business: known only in the browser. */}
        {hydrated && !business.isSuggestionBox ? <OwnerPanel businessId={business.id} /> : null}
        {/* Admins and the business's owners edit its facts and opening hours here (issue 31.1). */}
        {hydrated && mayEditFacts ? (
          <Suspense fallback={null}>
            <FactsEditor business={business} />
          </Suspense>
        ) : null}

        <div className={styles.columns}>
          {/* The suggestion box collects suggestions: no rating (docs/product.md §4). */}
          {business.isSuggestionBox ? null : (
            <section className={`card ${styles.panel}`} aria-labelledby="rating-heading">
              <h2 id="rating-heading" className={styles.panelTitle}>
                {d.ratingHeading}
              </h2>
              <div className={styles.average}>
                {business.rate === null ? null : <Stars value={business.rate} label={t.business.rating.label(title)} size={24} />}
                <span aria-live="polite">{summary(business.rate, business.ratingCount, business.commentCount)}</span>
              </div>
              {business.ratingCount > 0 ? (
                <RatingBreakdown businessId={business.id} starCounts={business.starCounts} ratingCount={business.ratingCount} />
              ) : null}
              {business.heldRatings > 0 ? <p className={styles.branchesHint}>{d.heldRatings(number(business.heldRatings), business.heldRatings)}</p> : null}
              <RateBusiness key={business.id} businessId={business.id} myRate={business.myRate} disabled={!hydrated} />
            </section>
          )}

          {business.branches.length > 0 ? (
            <section className={`card ${styles.panel}`} aria-labelledby="branches-heading">
              <h2 id="branches-heading" className={styles.panelTitle}>
                {d.branches}
              </h2>
              {business.isSuggestionBox ? null : <p className={styles.branchesHint}>{d.branchesHint}</p>}
              <ul className={styles.branches}>
                {business.branches.map((branch) => {
                  const place = localized.place(branch.location);
                  return (
                    <li key={branch.id}>
                      <strong>{place}</strong>
                      <BranchFacts branch={branch} />
                      {/* The suggestion box takes no ratings (docs/product.md §4). */}
                      {business.isSuggestionBox ? null : (
                        <span className={styles.branchRating}>
                          {branch.rate === null ? null : <Stars value={branch.rate} label={place} size={16} />}
                          <span>{summary(branch.rate, branch.ratingCount)}</span>
                        </span>
                      )}
                      {/* With one branch every comment is about it: no filter to offer (as beside the search). */}
                      {business.branches.length > 1 ? (
                        <Link
                          className={styles.branchLink}
                          href={`/business/${business.id}?${BRANCH_PARAM}=${encodeURIComponent(branch.id)}#comments`}
                          aria-label={d.branchCommentsLabel(place)}
                        >
                          {d.branchComments}
                        </Link>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
              <BranchesMap places={mapPlaces} label={t.places.map.label(title)} />
            </section>
          ) : null}
        </div>
      </article>

      {/* The server renders the first page of comments as an anonymous visitor sees them
          (server/plugins/spa-pages.ts); the visitor's own view (the form, their choices) follows
          hydration. */}
      <Comments businessId={business.id} branches={commentBranches} places={business.places} commentCount={business.commentCount} />
      {/* Below the comments: it appears once its pictures are known, and would push them down
          (a layout shift) if it came first. */}
      {hydrated ? (
        <Suspense fallback={null}>
          <PhotoGallery businessId={business.id} />
        </Suspense>
      ) : null}
    </div>
  );
}
