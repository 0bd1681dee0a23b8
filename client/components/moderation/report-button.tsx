import { lazy, Suspense, useState } from 'react';
import type { ReportKind } from '../../../server/schemas/moderation';
import { useI18n } from '../../i18n';
import { useMe } from '../../lib/session';
import { useAskToLogIn } from '../accounts/ask-to-log-in';
import styles from './moderation.module.css';

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
  const { me } = useMe();
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

/** The mark a hidden or removed post carries for the few who still see it (author, admins). */
export function ModerationMark({ hidden, removed }: { hidden: boolean; removed?: boolean }) {
  const { t } = useI18n();
  if (!hidden && !removed) return null;
  return (
    <p className={styles.mark} role="note">
      {removed ? t.moderation.report.removed : t.moderation.report.hidden}
    </p>
  );
}
