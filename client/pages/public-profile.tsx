import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import type { ProfileReview } from '../../shared/schemas/profiles';
import { Stars } from '../features/business/stars';
import { Avatar } from '../features/comments/person';
import { LoadMore } from '../components/ui/load-more';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useViewer } from '../lib/session';
import { useTRPC } from '../lib/trpc';
import styles from './public-profile.module.css';

function Review({ review }: { review: ProfileReview }) {
  const { t, relative } = useI18n();
  const pr = t.profiles;
  return (
    <li className={`card ${styles.review}`}>
      <h3 className={styles.business}>
        <Link href={`/business/${encodeURIComponent(review.businessId)}`}>{review.businessTitle}</Link>
      </h3>
      <p className={styles.meta}>
        {review.stars === null ? null : <Stars value={review.stars} label={pr.stars(review.stars)} size={16} bare />}
        <time dateTime={review.date}>{relative(review.date)}</time>
      </p>
      <p className={styles.text}>{review.text}</p>
      {review.image ? <img className={styles.photo} src={review.image} alt={pr.photoAlt(review.businessTitle)} loading="lazy" decoding="async" /> : null}
      <Link href={`/comment/${encodeURIComponent(review._id)}`} className={styles.more}>
        {pr.readMore}
      </Link>
    </li>
  );
}

/**
 * /u/{id}: a user's public profile (issue 30) — name as they chose to show it, avatar, member
 * since, counts and their public reviews, newest first. Open to everyone; never indexed.
 */
export default function PublicProfilePage() {
  const { id = '' } = useParams<{ id: string }>();
  const { t, lang, errorText } = useI18n();
  const pr = t.profiles;
  const trpc = useTRPC();
  const me = useViewer();
  const query = useInfiniteQuery(trpc.users.profile.infiniteQueryOptions({ id }, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const profile = query.data?.pages[0];
  const reviews = query.data?.pages.flatMap((p) => p.reviews) ?? [];

  if (query.isPending)
    return (
      <div className="container page">
        <Spinner label={pr.loading} showLabel />
      </div>
    );
  if (query.isError || !profile)
    return (
      <div className="container page">
        <p className="notice notice-error" role="alert">
          {query.error?.data?.key ? errorText(query.error) : pr.error}
        </p>
      </div>
    );

  const name = `${profile.firstName} ${profile.lastName}`.trim();
  const since = new Date(profile.memberSince).toLocaleDateString(lang === 'en' ? 'en-GB' : 'sv-SE', { year: 'numeric', month: 'long' });
  return (
    <div className="container page">
      <header className={styles.head}>
        <Avatar name={name} image={profile.image} size={80} />
        <div>
          <h1 className="page-title">{name}</h1>
          <p className="muted">{pr.memberSince(since)}</p>
        </div>
      </header>
      {me?._id === profile._id ? (
        <p className="notice">
          {pr.yours} <Link href="/user">{pr.editName}</Link>
        </p>
      ) : null}
      <ul className={styles.counts} aria-label={pr.counts}>
        <li>{pr.reviews(profile.counts.reviews)}</li>
        <li>{pr.replies(profile.counts.replies)}</li>
        <li>{pr.reactions(profile.counts.reactions)}</li>
      </ul>
      <h2 className={styles.sectionTitle}>{pr.reviewsTitle}</h2>
      {reviews.length === 0 ? (
        <p className="notice">{pr.empty}</p>
      ) : (
        <>
          <ul className={styles.list} data-testid="profile-reviews">
            {reviews.map((review) => (
              <Review key={review._id} review={review} />
            ))}
          </ul>
          <LoadMore query={query} label={pr.loadMore} busyLabel={pr.loadingMore} className={styles.loadMore} />
        </>
      )}
    </div>
  );
}
