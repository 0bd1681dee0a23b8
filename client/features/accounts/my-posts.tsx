import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { excerpt } from '../comments/emoji';
import { PostDate } from '../comments/post-header';
import { LoadMore } from '../../components/ui/load-more';
import styles from './profile.module.css';

/** How much of each post's text the list shows; the link opens the whole thread. */
const TEXT_CHARS = 140;

/** Your own reviews and replies on /user (issue 30, item 7), newest first, each linking to its thread. */
export function MyPosts() {
  const { t } = useI18n();
  const m = t.accounts.profile.myPosts;
  return (
    <section className={styles.section} aria-labelledby="my-posts-title" data-testid="my-posts">
      <h2 id="my-posts-title" className={styles.sectionTitle}>
        {m.title}
      </h2>
      <PostList kind="reviews" heading={m.reviews} empty={m.noReviews} />
      <PostList kind="replies" heading={m.replies} empty={m.noReplies} />
    </section>
  );
}

function PostList({ kind, heading, empty }: { kind: 'reviews' | 'replies'; heading: string; empty: string }) {
  const { t } = useI18n();
  const m = t.accounts.profile.myPosts;
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.users.myPosts.infiniteQueryOptions({ kind }, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const id = `my-${kind}-title`;
  return (
    <div className={styles.myPosts} data-testid={`my-${kind}`}>
      <h3 id={id} className={styles.myPostsTitle}>
        {heading}
      </h3>
      {query.isPending ? (
        <p className={styles.hint}>{t.common.loading}</p>
      ) : query.isError ? (
        <p className="notice notice-error" role="alert">
          {m.error}
        </p>
      ) : items.length === 0 ? (
        <p className={styles.hint}>{empty}</p>
      ) : (
        <ul className={styles.myPostList} aria-labelledby={id}>
          {items.map((post) => (
            <li key={post._id} className={styles.myPost}>
              <Link href={kind === 'reviews' ? `/comment/${post.commentId}` : `/comment/${post.commentId}#reply-${post._id}`}>
                {post.removed ? m.removedText : excerpt(post.text, TEXT_CHARS)}
              </Link>
              <span className={styles.myPostMeta}>
                {m.about(post.businessTitle)} · <PostDate date={post.date} />
                {post.hidden && !post.removed ? ` · ${m.hidden}` : null}
              </span>
            </li>
          ))}
        </ul>
      )}
      <LoadMore query={query} label={m.more} busyLabel={t.common.loading} />
    </div>
  );
}
