import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReplyCard } from '../../shared/schemas/comments';
import { Link } from 'wouter';
import { excerpt } from '../features/comments/emoji';
import { ConfirmDialog } from '../components/ui/modal';
import { Spinner } from '../components/ui/spinner';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useDeleteReply, useRemoveComment } from '../features/comments/mutations';
import { useTRPC } from '../lib/trpc';
import styles from './comment-moderation.module.css';
import { LoadMore } from '../components/ui/load-more';
import { useSearchParamText } from '../lib/url-state';

/** Long comments are cut in the table; the whole text is on the comment's page. */
const TABLE_TEXT_CHARS = 150;

type Target = { kind: 'comment' | 'reply'; id: string; name: string };
type Row = { _id: string; firstName: string; lastName: string; text: string; image: string | null };

/**
 * /cmt-mng: every comment newest first with its replies under it (1.1, 1.2 ...), 50 comments a
 * page, each removable after a confirmation. The server refuses the data to non-admins.
 */
export default function CommentModerationPage() {
  const { t, errorText, number } = useI18n();
  const m = t.comments.moderation;
  const trpc = useTRPC();
  const [target, setTarget] = useState<Target | null>(null);
  // The search is in the URL (?q=), so a reload or a shared link shows the same list.
  const { text, change, term } = useSearchParamText('q', 250);
  const query = useInfiniteQuery(
    trpc.comments.moderation.infiniteQueryOptions(term ? { q: term } : {}, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );

  const done = (message: string) => {
    setTarget(null);
    notify(message, 'success');
  };
  const removeComment = useRemoveComment({ onSuccess: () => done(t.messages.commentRemoved), onError: (e) => notify(errorText(e), 'error') });
  const removeReply = useDeleteReply({ onSuccess: () => done(t.messages.replyRemoved), onError: (e) => notify(errorText(e), 'error') });
  const ask = (kind: Target['kind'], row: Row) => setTarget({ kind, id: row._id, name: `${row.firstName} ${row.lastName}`.trim() });

  const comments = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="container page">
      <h1 className="page-title">{m.title}</h1>
      <p className="muted">
        {m.intro} <Link href="/mod-queue">{t.moderation.menu.queue}</Link>
      </p>
      <div className="field">
        <label htmlFor="comment-search">{m.searchLabel}</label>
        <input
          id="comment-search"
          className="input"
          type="search"
          value={text}
          onChange={(e) => change(e.target.value)}
          placeholder={m.searchPlaceholder}
          autoComplete="off"
          enterKeyHint="search"
          maxLength={200}
        />
      </div>
      {query.isPending ? (
        <Spinner label={m.loading} showLabel />
      ) : query.isError ? (
        <p className="notice notice-error" role="alert">
          {query.error.data?.key ? errorText(query.error) : m.error}
        </p>
      ) : comments.length === 0 ? (
        <p className="notice" role="status">
          {term ? m.noMatches(term) : m.empty}
        </p>
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {m.shown(number(comments.length))}
          </p>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{m.number}</th>
                <th scope="col">{m.user}</th>
                <th scope="col">{m.image}</th>
                <th scope="col">{m.text}</th>
                <th scope="col">{m.business}</th>
                <th scope="col">
                  <span className="visually-hidden">{m.action}</span>
                </th>
              </tr>
            </thead>
            {comments.map((comment, i) => (
              <tbody key={comment._id} className={styles.group}>
                <ModerationRow
                  number={String(i + 1)}
                  href={`/comment/${comment._id}`}
                  row={comment}
                  business={comment.businessTitle}
                  label={m.removeComment}
                  ariaLabel={m.removeCommentLabel(String(i + 1))}
                  onRemove={() => ask('comment', comment)}
                />
                <ReplyRows
                  commentId={comment._id}
                  commentNumber={String(i + 1)}
                  preview={comment.replies}
                  total={comment.replyCount}
                  onRemove={(reply) => ask('reply', reply)}
                />
              </tbody>
            ))}
          </table>
          <LoadMore query={query} label={m.loadMore} busyLabel={m.loading} className={styles.more} />
        </>
      )}
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        title={target?.kind === 'reply' ? m.confirmReply : m.confirmComment}
        text={target ? (target.kind === 'reply' ? m.confirmReplyText(target.name) : m.confirmCommentText(target.name)) : ''}
        confirmLabel={m.remove}
        busy={removeComment.isPending || removeReply.isPending}
        onConfirm={() => {
          if (!target) return;
          if (target.kind === 'comment') removeComment.mutate({ id: target.id });
          else removeReply.mutate({ id: target.id });
        }}
      />
    </div>
  );
}

function ModerationRow({
  number,
  href,
  row,
  business,
  label,
  ariaLabel,
  onRemove,
  reply = false,
}: {
  number: string;
  /** The item's page, linked from its number: the comment's, for a reply at its anchor. */
  href?: string;
  row: Row;
  business: string;
  label: string;
  ariaLabel: string;
  onRemove(): void;
  reply?: boolean;
}) {
  const { t } = useI18n();
  const m = t.comments.moderation;
  return (
    <tr className={reply ? styles.replyRow : styles.commentRow}>
      <th scope="row" data-label={m.number}>
        {href ? (
          <Link href={href} aria-label={m.open(number)}>
            {number}
          </Link>
        ) : (
          number
        )}
      </th>
      <td data-label={m.user}>{`${row.firstName} ${row.lastName}`.trim()}</td>
      <td data-label={m.image}>
        {row.image ? <img className={styles.thumb} src={row.image} alt="" width={56} height={56} loading="lazy" /> : <span className="muted">{m.noImage}</span>}
      </td>
      <td data-label={m.text} className={styles.text}>
        {excerpt(row.text, TABLE_TEXT_CHARS)}
      </td>
      <td data-label={m.business}>{business}</td>
      <td className={styles.action}>
        <button type="button" className="btn btn-danger btn-sm" onClick={onRemove} aria-label={ariaLabel}>
          {label}
        </button>
      </td>
    </tr>
  );
}

/** The replies under a comment: the newest few from the list, or all of them on request. */
function ReplyRows({
  commentId,
  commentNumber,
  preview,
  total,
  onRemove,
}: {
  commentId: string;
  commentNumber: string;
  preview: ReplyCard[];
  total: number;
  onRemove(reply: ReplyCard): void;
}) {
  const { t, number } = useI18n();
  const m = t.comments.moderation;
  const trpc = useTRPC();
  const [all, setAll] = useState(false);
  const more = useInfiniteQuery({
    ...trpc.comments.replies.infiniteQueryOptions({ commentId, limit: 100 }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
    enabled: all,
  });
  const replies = all && more.data ? more.data.pages.flatMap((p) => p.items) : preview;
  const hasMore = all ? more.hasNextPage : total > preview.length;

  return (
    <>
      {replies.map((reply, j) => {
        const n = `${commentNumber}.${j + 1}`;
        return (
          <ModerationRow
            key={reply._id}
            reply
            number={n}
            href={`/comment/${commentId}#reply-${reply._id}`}
            row={reply}
            business={m.noBusiness}
            label={m.removeReply}
            ariaLabel={m.removeReplyLabel(n)}
            onRemove={() => onRemove(reply)}
          />
        );
      })}
      {hasMore ? (
        <tr className={styles.replyRow}>
          <td colSpan={6} className={styles.moreReplies}>
            <button type="button" className="btn btn-ghost btn-sm" disabled={more.isFetching} onClick={() => (all ? void more.fetchNextPage() : setAll(true))}>
              {all ? m.moreReplies : m.allReplies(number(total))}
            </button>
          </td>
        </tr>
      ) : null}
    </>
  );
}
