import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { exactDateTime } from '../../../shared/i18n/number';
import { useHydrated } from '../../lib/hydrated';
import { Avatar } from './person';
import styles from './comments.module.css';

/** Avatar, author name, relative date (with the exact one, in words, on hover) and anything extra. */
export function PostHeader({
  userId,
  firstName,
  lastName,
  userImage,
  date,
  edited,
  children,
  besideName,
  avatarSize = 40,
}: {
  /** The author: the name links to their public profile (/u/{id}). */
  userId: string;
  firstName: string;
  lastName: string;
  userImage: string | null;
  date: string | null;
  edited: boolean;
  children?: ReactNode;
  /** Shown on the name's line (a comment's author's stars). */
  besideName?: ReactNode;
  avatarSize?: number;
}) {
  const { t } = useI18n();
  const name = `${firstName} ${lastName}`.trim();
  const author = (
    <Link href={`/u/${encodeURIComponent(userId)}`} className={styles.author} data-testid="author-link">
      {name}
    </Link>
  );
  return (
    <header className={styles.postHeader}>
      <Avatar name={name} image={userImage} size={avatarSize} />
      <div className={styles.postMeta}>
        {besideName ? (
          <span className={styles.authorLine}>
            {author}
            {besideName}
          </span>
        ) : (
          author
        )}
        {children}
        <span className={styles.date}>
          <PostDate date={date} />
          {edited ? ` · ${t.comments.card.edited}` : null}
        </span>
      </div>
    </header>
  );
}

/** A post's date, relative ("5 minuter sedan"), with the exact one, in words, on hover. */
export function PostDate({ date }: { date: string | null }) {
  const { t, relative } = useI18n();
  const when = relative(date);
  // A page the server rendered (and kept) says "5 minutes ago" as of its render, and the exact
  // time in the server's time zone: the browser keeps that element while it hydrates, then puts
  // its own in its place (a new key), so hydration does not trip over a clock that has moved.
  const hydrated = useHydrated();
  return when && date ? (
    <time
      key={hydrated ? 'browser' : 'server'}
      dateTime={date}
      title={exactDateTime(new Date(date), t.comments.card.postedAt) ?? undefined}
      suppressHydrationWarning
    >
      {when}
    </time>
  ) : (
    <>{t.comments.card.dateUnavailable}</>
  );
}
