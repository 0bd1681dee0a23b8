import type { ReactNode } from 'react';
import { useI18n } from '../../i18n';
import { exactDateTime } from '../../i18n/number';
import { Avatar } from './person';
import styles from './comments.module.css';

/** Avatar, author name, relative date (with the exact one, in words, on hover) and anything extra. */
export function PostHeader({
  firstName,
  lastName,
  userImage,
  date,
  edited,
  children,
  besideName,
  avatarSize = 40,
}: {
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
  const { t, relative } = useI18n();
  const name = `${firstName} ${lastName}`.trim();
  const when = relative(date);
  return (
    <header className={styles.postHeader}>
      <Avatar name={name} image={userImage} size={avatarSize} />
      <div className={styles.postMeta}>
        {besideName ? (
          <span className={styles.authorLine}>
            <span className={styles.author}>{name}</span>
            {besideName}
          </span>
        ) : (
          <span className={styles.author}>{name}</span>
        )}
        {children}
        <span className={styles.date}>
          {when && date ? (
            <time dateTime={date} title={exactDateTime(new Date(date), t.comments.card.postedAt) ?? undefined}>
              {when}
            </time>
          ) : (
            t.comments.card.dateUnavailable
          )}
          {edited ? ` · ${t.comments.card.edited}` : null}
        </span>
      </div>
    </header>
  );
}
