import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { reasonText } from './reason-text';
import styles from '../accounts/profile.module.css';

/**
 * On a person's own profile: their posts hidden after reports or removed by a moderator, with the
 * reason (issue 29 item 11), so a removal is found here and not only in a notification. Nothing
 * while there are none.
 */
export function OwnModeratedPosts() {
  const { t, relative } = useI18n();
  const m = t.moderation.ownModerated;
  const trpc = useTRPC();
  const posts = useQuery(trpc.moderation.ownModerated.queryOptions());
  if (!posts.data?.length) return null;
  return (
    <section className={styles.section} aria-labelledby="profile-moderated-title" data-testid="own-moderated-posts">
      <h2 id="profile-moderated-title" className={styles.sectionTitle}>
        {m.title}
      </h2>
      <p className={styles.hint}>{m.intro}</p>
      <ul>
        {posts.data.map((post) => (
          <li key={post._id}>
            <p>
              <strong>{post.kind === 'comment' ? m.comment(post.businessTitle) : m.reply(post.businessTitle)}</strong>{' '}
              <span className="muted">{relative(post.date)}</span>
            </p>
            {/* A removed post's text is gone; a hidden one's is quoted. */}
            {post.excerpt ? <blockquote>{post.excerpt}</blockquote> : null}
            <p role="note">
              {post.state === 'removed' ? m.removed : m.hidden}
              {post.reason ? ` ${t.moderation.report.reason(reasonText(post.reason, t.moderation.report.reasons))}` : null}
            </p>
            <Link href={`/comment/${encodeURIComponent(post.commentId)}${post.kind === 'reply' ? `#reply-${post._id}` : ''}`}>
              {m.open}
              <span className="visually-hidden">: {post.kind === 'comment' ? m.comment(post.businessTitle) : m.reply(post.businessTitle)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
