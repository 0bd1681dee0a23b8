import { lazy, Suspense, useState } from 'react';
import type { CommentCard } from '../../../shared/schemas/comments';
import { useI18n } from '../../i18n';
import { useDeleteOwnerReply } from './owners-mutations';
import { Spinner } from '../../components/ui/spinner';
import { notify } from '../../components/ui/toast';
import { useOwns } from './use-owned';
import styles from './owners.module.css';
import { ModerationMark, ReportButton } from '../moderation/report-button';
import modStyles from '../moderation/moderation.module.css';
import { reasonText } from '../moderation/reason-text';
import { stockholmDay } from '../../../shared/i18n/number';

const OwnerReplyForm = lazy(() => import('./owner-reply-form').then((m) => ({ default: m.OwnerReplyForm })));

/**
 * Under a review: the business's answer ("Svar från {business}" with its date), and for the
 * business's owners the tools to write, edit or delete it. Nothing for others while there is none.
 * Anyone but its owners may report it (issue 31.7); one hidden after reports, or removed by a
 * moderator, reaches only the owners (told why) and the moderators.
 */
export function OwnerReply({ comment }: { comment: CommentCard }) {
  const { t, errorText } = useI18n();
  const r = t.owners.reply;
  const owns = useOwns(comment.businessId);
  const [writing, setWriting] = useState(false);
  const remove = useDeleteOwnerReply({
    onSuccess: () => notify(r.deleted, 'success'),
    onError: (error) => notify(errorText(error), 'error'),
  });
  const reply = comment.ownerReply;
  if (comment.removed || (!reply && !owns)) return null;
  const form = writing ? (
    <Suspense fallback={<Spinner label={t.common.loading} />}>
      <OwnerReplyForm commentId={comment._id} text={reply?.text ?? ''} onDone={() => setWriting(false)} />
    </Suspense>
  ) : null;
  if (!reply) {
    return (
      form ?? (
        <div className={styles.tools}>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => setWriting(true)}>
            {r.answer}
          </button>
        </div>
      )
    );
  }
  const edited = reply.updatedAt !== reply.createdAt;
  const mark = reply.removed ? (
    owns ? (
      <p className={modStyles.mark} role="note" data-testid="owner-reply-removed">
        {r.removedOwn}
        {reply.removalReason ? (
          <span className={modStyles.markReason}>{t.moderation.report.reason(reasonText(reply.removalReason, t.moderation.report.reasons))}</span>
        ) : null}
      </p>
    ) : (
      <ModerationMark hidden removed />
    )
  ) : reply.hidden ? (
    owns ? (
      <p className={modStyles.mark} role="note">
        {r.hiddenOwn}
      </p>
    ) : (
      <ModerationMark hidden />
    )
  ) : null;
  return (
    <section className={styles.reply} aria-label={r.from(comment.businessTitle)} data-testid="owner-reply">
      <p className={styles.replyHead}>
        <span>{r.from(comment.businessTitle)}</span>
        <time className={styles.replyDate} dateTime={reply.createdAt}>
          {stockholmDay(new Date(reply.createdAt), t.comments.card.day)}
          {edited ? ` · ${r.edited}` : null}
        </time>
      </p>
      {mark}
      {form ?? (reply.removed ? null : <p className={styles.replyText}>{reply.text}</p>)}
      {!owns && !reply.removed ? (
        <div className={styles.tools}>
          <ReportButton kind="ownerReply" id={comment._id} authorId="" reportedByMe={reply.reportedByMe} />
        </div>
      ) : null}
      {owns && !writing ? (
        <div className={styles.tools}>
          {reply.removed ? null : (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setWriting(true)}>
              {r.edit}
            </button>
          )}
          <button type="button" className="btn btn-danger btn-sm" disabled={remove.isPending} onClick={() => remove.mutate({ commentId: comment._id })}>
            {r.delete}
          </button>
        </div>
      ) : null}
    </section>
  );
}
