import { lazy, Suspense, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReplyCard as Reply } from '../../../shared/schemas/comments';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { useDeleteReply } from './mutations';
import { useTRPC } from '../../lib/trpc';
import { ModerationMark, ReportButton } from '../moderation/report-button';
import { Spinner } from '../../components/ui/spinner';
import { notify } from '../../components/ui/toast';
import { EmojiRating } from './emoji-rating';
import { PostHeader } from './post-header';
import { PostPicture } from './post-picture';
import styles from './comments.module.css';

// As on the comment card: the edit form (react-hook-form, zod, the place picker) and the delete
// dialog load with the press that needs them. The comment page opens its replies at once, and
// with these in its first chunks it loaded zod and Ark UI's combobox and dialog for every visitor.
const PostEditForm = lazy(() => import('./post-edit-form').then((m) => ({ default: m.PostEditForm })));
const ConfirmDialog = lazy(() => import('../../components/ui/modal').then((m) => ({ default: m.ConfirmDialog })));

/** A comment's replies, oldest first (a conversation), a page at a time. */
export function ReplyList({ commentId }: { commentId: string }) {
  const { t } = useI18n();
  const r = t.comments.replies;
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.comments.replies.infiniteQueryOptions({ commentId }, { getNextPageParam: (page) => page.nextCursor ?? undefined }));

  if (query.isPending) return <Spinner label={r.loading} showLabel size={20} />;
  if (query.isError) {
    return (
      <p className="notice notice-error" role="alert">
        {r.error}
      </p>
    );
  }
  const replies = query.data.pages.flatMap((p) => p.items);
  return (
    <div className={styles.replies}>
      <ul className={styles.replyList} aria-label={r.heading}>
        {replies.map((reply) => (
          <li key={reply._id}>
            <ReplyCard reply={reply} />
          </li>
        ))}
      </ul>
      {query.hasNextPage ? (
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {r.loadMore}
        </button>
      ) : null}
    </div>
  );
}

/** One reply: the comment card's pattern, smaller, with its own emoji rating. */
function ReplyCard({ reply }: { reply: Reply }) {
  const { t, errorText } = useI18n();
  const me = useViewer();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // The dialog mounts with the first delete press and stays, so it can animate out and return focus.
  const [dialogUsed, setDialogUsed] = useState(false);
  const own = me?._id === reply.userId;
  const remove = useDeleteReply({
    onSuccess: () => {
      setConfirming(false);
      notify(t.comments.replies.deleted, 'success');
    },
    onError: (error) => notify(errorText(error), 'error'),
  });

  return (
    <article className={styles.reply} id={`reply-${reply._id}`}>
      <PostHeader
        userId={reply.userId}
        firstName={reply.firstName}
        lastName={reply.lastName}
        userImage={reply.userImage}
        date={reply.date}
        edited={reply.edited}
        avatarSize={32}
      />
      {editing ? (
        <Suspense fallback={<Spinner label={t.common.loading} size={20} />}>
          <PostEditForm kind="reply" id={reply._id} text={reply.text} image={reply.image} onDone={() => setEditing(false)} />
        </Suspense>
      ) : (
        <>
          <ModerationMark hidden={reply.hidden} removed={reply.removed} reason={reply.removalReason} own={own} />
          {reply.removed ? null : <p className={styles.text}>{reply.text}</p>}
          {reply.image ? <PostPicture src={reply.image} small /> : null}
        </>
      )}
      {reply.removed ? null : <EmojiRating kind="reply" id={reply._id} authorId={reply.userId} stats={reply} />}
      {own && !editing ? (
        <div className={styles.actions}>
          {/* A moderator's removal cannot be edited away (the server refuses too). */}
          {reply.removed ? null : (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setEditing(true)}>
              {t.comments.card.edit}
            </button>
          )}
          <button
            type="button"
            className="btn btn-danger btn-sm"
            onClick={() => {
              setDialogUsed(true);
              setConfirming(true);
            }}
          >
            {t.comments.card.delete}
          </button>
        </div>
      ) : (
        <div className={styles.actions}>
          <ReportButton kind="reply" id={reply._id} authorId={reply.userId} reportedByMe={reply.reportedByMe} />
        </div>
      )}
      {dialogUsed ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={t.comments.replies.deleteTitle}
            text={t.comments.replies.deleteText}
            confirmLabel={t.comments.card.delete}
            onConfirm={() => remove.mutate({ id: reply._id })}
            busy={remove.isPending}
          />
        </Suspense>
      ) : null}
    </article>
  );
}
