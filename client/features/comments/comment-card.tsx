import { lazy, memo, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { CommentCard as Comment } from '../../../shared/schemas/comments';
import { errorKeyOf, useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { useLoginHref } from '../accounts/sign-in';
import { useDeleteComment, useRefreshComments } from './mutations';
import { useLocalized } from '../business/localized';
import { ModerationMark, ReportButton } from '../moderation/report-button';
import { ShareButton } from '../../components/share/share-button';
import { Spinner } from '../../components/ui/spinner';
import { notify } from '../../components/ui/toast';
import { capitalised } from './emoji';
import { EmojiRating } from './emoji-rating';
import { PostHeader } from './post-header';
import { Stars } from '../business/stars';
import { PostPicture } from './post-picture';
import { OwnerReply } from '../business/owner-reply';
import styles from './comments.module.css';

// What a card shows only after a press (edit, reply, replies, delete) loads then: the forms
// bring react-hook-form and zod, the dialog its focus trap, and a page of cards needs none of it.
const PostEditForm = lazy(() => import('./post-edit-form').then((m) => ({ default: m.PostEditForm })));
const ReplyForm = lazy(() => import('./reply-form').then((m) => ({ default: m.ReplyForm })));
const ReplyList = lazy(() => import('./reply-list').then((m) => ({ default: m.ReplyList })));
const ConfirmDialog = lazy(() => import('../../components/ui/modal').then((m) => ({ default: m.ConfirmDialog })));

/** The description's delay between 'Your comment was removed' and the card leaving. */
const LEAVE_AFTER_MS = 1000;

type Props = {
  comment: Comment;
  /** Open the replies at once (the single comment page). */
  repliesOpen?: boolean;
  highlighted?: boolean;
  /** The card's heading level: 3 under a list's h2, 2 where the card is the page's content (under its h1). */
  headingLevel?: 2 | 3;
  /** After a delete: the card has shown its notice and should leave the list. */
  onRemoved?(id: string): void;
};

/**
 * A comment as the business page shows it: author, branch location, text, photo (click to
 * zoom), replies and emoji ratings; the author can edit or delete it. id="comment-{id}" lets a
 * link's hash scroll to it. Memoised: a list's own re-render (hydration ending, a page more)
 * leaves the cards whose comment has not changed alone (docs/decisions/021).
 */
export const CommentCard = memo(function CommentCard({ comment, repliesOpen = false, highlighted = false, headingLevel = 3, onRemoved }: Props) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { t, number, plural, errorText } = useI18n();
  const c = t.comments.card;
  const { place } = useLocalized();
  const refreshComments = useRefreshComments();
  const me = useViewer();
  const replyLoginHref = useLoginHref(`#comment-${comment._id}`);
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const [replying, setReplying] = useState(false);
  const [showReplies, setShowReplies] = useState(repliesOpen);
  const [confirming, setConfirming] = useState(false);
  // The dialog mounts with the first delete press and stays, so it can animate out and return focus.
  const [dialogUsed, setDialogUsed] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const own = me?._id === comment.userId;
  const remove = useDeleteComment({
    onSuccess: () => {
      setConfirming(false);
      setLeaving(true);
      notify(t.messages.commentDeleted, 'success');
      timer.current = window.setTimeout(() => {
        onRemoved?.(comment._id);
        void refreshComments();
      }, LEAVE_AFTER_MS);
    },
    onError: (error) => notify(errorKeyOf(error) ? errorText(error) : c.deleteError, 'error'),
  });

  const name = `${comment.firstName} ${comment.lastName}`.trim();
  return (
    <article
      id={`comment-${comment._id}`}
      className={`card ${styles.comment}`}
      data-leaving={leaving || undefined}
      data-highlighted={highlighted || undefined}
      aria-labelledby={headingId}
    >
      <PostHeader
        userId={comment.userId}
        firstName={comment.firstName}
        lastName={comment.lastName}
        userImage={comment.userImage}
        date={comment.date}
        edited={comment.edited}
        besideName={
          // The author's current stars for the business.
          comment.authorRate === null ? null : (
            <span className={styles.authorStars}>
              <Stars value={comment.authorRate} label={t.comments.stars.authorGave(name, number(comment.authorRate))} size={16} bare />
            </span>
          )
        }
      >
        <Heading id={headingId} className={styles.location}>
          <span className="visually-hidden">{c.location}: </span>
          {place(capitalised(comment.businessLocation))}
          <span className="visually-hidden">, {c.by(name)}</span>
        </Heading>
      </PostHeader>

      {editing ? (
        <Suspense fallback={<Spinner label={t.common.loading} />}>
          <PostEditForm
            kind="comment"
            id={comment._id}
            text={comment.text}
            image={comment.image}
            stars={comment.businessIsSuggestionBox ? undefined : comment.authorRate}
            place={{ businessId: comment.businessId, branchId: comment.branchId, location: comment.businessLocation }}
            onDone={() => setEditing(false)}
          />
        </Suspense>
      ) : (
        <>
          <ModerationMark hidden={comment.hidden} removed={comment.removed} reason={comment.removalReason} own={own} />
          {comment.removed ? null : <p className={styles.text}>{comment.text}</p>}
          {comment.image ? <PostPicture src={comment.image} /> : null}
        </>
      )}

      {/* A removed post takes no new ratings or replies; its thread stays readable. */}
      {comment.removed ? null : <EmojiRating kind="comment" id={comment._id} authorId={comment.userId} stats={comment} />}

      <div className={styles.actions}>
        <span className={styles.replyCount}>
          {number(comment.replyCount)} {plural(comment.replyCount, c.replies)}
        </span>
        {comment.removed ? null : me && !me.isBanned ? (
          <button type="button" className="btn btn-outline btn-sm" aria-expanded={replying} onClick={() => setReplying((v) => !v)}>
            {t.comments.replies.reply}
          </button>
        ) : !me ? (
          <Link href={replyLoginHref} className={styles.loginLink}>
            {t.messages.replyLoginRequired}
          </Link>
        ) : null}
        {comment.replyCount > 0 ? (
          <button type="button" className="btn btn-ghost btn-sm" aria-expanded={showReplies} onClick={() => setShowReplies((v) => !v)}>
            {showReplies ? t.comments.replies.hide : t.comments.replies.viewMore}
          </button>
        ) : null}
        {comment.removed || comment.hidden ? null : (
          <ShareButton
            path={`/comment/${encodeURIComponent(comment._id)}`}
            title={`${name} – ${comment.businessIsSuggestionBox ? t.business.directory.suggestionTitle : comment.businessTitle}`}
            label={t.common.share.comment(name)}
          />
        )}
        {comment.removed ? null : <ReportButton kind="comment" id={comment._id} authorId={comment.userId} reportedByMe={comment.reportedByMe} />}
        {own && !editing ? (
          <span className={styles.ownerActions}>
            {/* A moderator's removal cannot be edited away (the server refuses too). */}
            {comment.removed ? null : (
              <button type="button" className="btn btn-outline btn-sm" onClick={() => setEditing(true)}>
                {c.edit}
              </button>
            )}
            <button
              type="button"
              className="btn btn-danger btn-sm"
              onClick={() => {
                setDialogUsed(true);
                setConfirming(true);
              }}
              disabled={leaving}
            >
              {c.delete}
            </button>
          </span>
        ) : null}
      </div>

      <OwnerReply comment={comment} />

      <Suspense fallback={<Spinner label={t.common.loading} />}>
        {replying ? (
          <ReplyForm
            commentId={comment._id}
            onPosted={() => {
              setReplying(false);
              setShowReplies(true);
            }}
            onCancel={() => setReplying(false)}
          />
        ) : null}
        {showReplies && comment.replyCount > 0 ? <ReplyList commentId={comment._id} /> : null}
      </Suspense>

      {dialogUsed ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={c.deleteTitle}
            text={c.deleteText}
            confirmLabel={c.delete}
            onConfirm={() => remove.mutate({ id: comment._id })}
            busy={remove.isPending}
          />
        </Suspense>
      ) : null}
    </article>
  );
});
