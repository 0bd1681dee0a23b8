import { lazy, Suspense, useState } from 'react';
import type { ReportKind } from '../../../shared/schemas/moderation';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { useAskToLogIn } from '../accounts/ask-to-log-in';
import styles from './moderation.module.css';
import { reasonText } from './reason-text';

// The dialog brings react-hook-form, zod and its focus trap: loaded at the first press.
const ReportDialog = lazy(() => import('./report-dialog').then((m) => ({ default: m.ReportDialog })));

type Props = { kind: ReportKind; id: string; authorId: string; reportedByMe: boolean };

/**
 * "Rapportera" on someone else's comment or reply. A visitor is asked to log in (and comes back
 * here after it); the author and banned users see nothing (the server refuses them too); once
 * sent it reads "Rapporterad".
 */
export function ReportButton({ kind, id, authorId, reportedByMe }: Props) {
  const { t } = useI18n();
  const me = useViewer();
  const askToLogIn = useAskToLogIn();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const [sent, setSent] = useState(false);
  const r = t.moderation.report;
  if (me && (me._id === authorId || me.isBanned)) return null;
  if (reportedByMe || sent) {
    return (
      <span className={styles.reported} data-testid="reported">
        {r.reported}
      </span>
    );
  }
  return (
    <>
      <button
        type="button"
        className={`btn btn-ghost btn-sm ${styles.reportButton}`}
        onClick={() => {
          if (!me) return askToLogIn(t.messages.reportLoginRequired);
          setUsed(true);
          setOpen(true);
        }}
      >
        {r.open}
      </button>
      {used ? (
        <Suspense fallback={null}>
          <ReportDialog kind={kind} id={id} open={open} onOpenChange={setOpen} onSent={() => setSent(true)} />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * The mark a hidden or removed post carries for the few who still see it (author, admins). A
 * removed post's author reads that a moderator removed it, and why, in its place.
 */
export function ModerationMark({ hidden, removed, reason, own }: { hidden: boolean; removed?: boolean; reason?: string | null; own?: boolean }) {
  const { t } = useI18n();
  const r = t.moderation.report;
  if (!hidden && !removed) return null;
  if (!removed) {
    return (
      <p className={styles.mark} role="note">
        {r.hidden}
      </p>
    );
  }
  return (
    <p className={styles.mark} role="note" data-testid="removal-notice">
      {own ? r.removedOwn : r.removed}
      {reason ? <span className={styles.markReason}>{r.reason(reasonText(reason, r.reasons))}</span> : null}
    </p>
  );
}
