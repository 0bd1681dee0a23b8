import { useId, useState } from 'react';
import { SegmentGroup } from '@ark-ui/react/segment-group';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { reportStatuses, type ReportGroup, type ReportStatus, type ResolveAction } from '../../server/schemas/moderation';
import { Modal } from '../components/ui/modal';
import { Spinner } from '../components/ui/spinner';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import styles from './mod-queue.module.css';

type Decision = { group: ReportGroup; action: ResolveAction | 'ban' };

/**
 * /mod-queue (admins): reported comments and replies grouped by post, most reported and oldest
 * first, each with its text, picture, business, author and every report; remove the post,
 * dismiss the reports or ban the author. The server refuses the data to non-admins.
 */
export default function ModQueuePage() {
  const { t, number, plural, relative, errorText } = useI18n();
  const q = t.moderation.queue;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ReportStatus>('open');
  const [decision, setDecision] = useState<Decision | null>(null);
  const [note, setNote] = useState('');
  const noteId = useId();
  const query = useQuery(trpc.moderation.reports.queryOptions({ status }));

  const done = (message: string) => {
    setDecision(null);
    setNote('');
    notify(message, 'success');
    void queryClient.invalidateQueries(trpc.moderation.pathFilter());
    void queryClient.invalidateQueries(trpc.comments.pathFilter());
  };
  const onError = (e: unknown) => notify(errorText(e), 'error');
  const resolve = useMutation(
    trpc.moderation.resolve.mutationOptions({ onSuccess: (r) => done(r.action === 'remove' ? q.removed : q.dismissed), onError }),
  );
  const ban = useMutation(trpc.users.setFlags.mutationOptions({ onSuccess: () => done(q.bannedDone), onError }));
  const confirm = () => {
    if (!decision) return;
    if (decision.action === 'ban') ban.mutate({ userId: decision.group.author._id, isBanned: true });
    else resolve.mutate({ id: decision.group._id, action: decision.action, note: note.trim() || undefined });
  };
  const nameOf = (g: ReportGroup) => `${g.author.firstName} ${g.author.lastName}`.trim();
  const groups = query.data ?? [];

  return (
    <div className="container page">
      <h1 className="page-title">{q.title}</h1>
      <p className="muted">
        {q.intro} <Link href="/mod-log">{q.log}</Link>
      </p>
      <SegmentGroup.Root
        className={styles.tabs}
        value={status}
        onValueChange={(d) => {
          if (d.value && (reportStatuses as readonly string[]).includes(d.value)) setStatus(d.value as ReportStatus);
        }}
      >
        <SegmentGroup.Label className="visually-hidden">{q.statusLabel}</SegmentGroup.Label>
        {reportStatuses.map((value) => (
          <SegmentGroup.Item key={value} value={value} className={styles.tab}>
            <SegmentGroup.ItemText>{q[value]}</SegmentGroup.ItemText>
            <SegmentGroup.ItemControl />
            <SegmentGroup.ItemHiddenInput />
          </SegmentGroup.Item>
        ))}
      </SegmentGroup.Root>

      {query.isPending ? (
        <Spinner label={q.loading} showLabel />
      ) : query.isError ? (
        <p className="notice notice-error" role="alert">
          {query.error.data?.key ? errorText(query.error) : q.error}
        </p>
      ) : groups.length === 0 ? (
        <p className="notice">{q.empty}</p>
      ) : (
        <ol className={styles.list}>
          {groups.map((g) => (
            <li key={`${g._id}-${g.firstReported}`} className={`card ${styles.item}`} data-testid="report-group">
              <header className={styles.itemHead}>
                <span className={styles.kind}>{g.kind === 'comment' ? q.comment : q.reply}</span>
                <span>{q.on(g.businessTitle)}</span>
                <span className={styles.count}>
                  {number(g.reportCount)} {plural(g.reportCount, q.reports)}
                </span>
                {g.hidden ? <span className={styles.badge}>{q.hiddenBadge}</span> : null}
                {g.resolution ? <span className={styles.badge}>{q.resolution[g.resolution]}</span> : null}
              </header>
              {g.removed ? <p className="muted">{t.moderation.report.removed}</p> : <p className={styles.text}>{g.text}</p>}
              {g.image ? <img className={styles.photo} src={g.image} alt="" loading="lazy" /> : null}
              <p className={styles.author}>
                {q.by(nameOf(g))} · {q.joined(relative(g.author.joined) ?? '')} · {number(g.author.posts)} {plural(g.author.posts, q.posts)}
                {g.author.isBanned ? <span className={styles.badge}>{q.banned}</span> : null}
              </p>
              <ul className={styles.reports}>
                {g.reports.map((r) => (
                  <li key={`${r.reporterId}-${r.date}`}>
                    <strong>{t.moderation.report.reasons[r.reason]}</strong> — {r.reporterName}, {relative(r.date)}
                    {r.note ? <q className={styles.note}>{r.note}</q> : null}
                  </li>
                ))}
              </ul>
              <p className="muted">{q.firstReported(relative(g.firstReported) ?? '')}</p>
              <div className={styles.actions}>
                <Link href={`/comment/${g.commentId}`} className="btn btn-ghost btn-sm">
                  {q.openItem}
                </Link>
                {status === 'open' ? (
                  <>
                    <button type="button" className="btn btn-outline btn-sm" onClick={() => setDecision({ group: g, action: 'dismiss' })}>
                      {q.dismiss}
                    </button>
                    <button type="button" className="btn btn-danger btn-sm" onClick={() => setDecision({ group: g, action: 'remove' })}>
                      {q.remove}
                    </button>
                  </>
                ) : null}
                {!g.author.isBanned ? (
                  <button type="button" className="btn btn-danger btn-sm" onClick={() => setDecision({ group: g, action: 'ban' })}>
                    {q.ban}
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}

      <Modal
        open={decision !== null}
        onOpenChange={(open) => {
          if (!open) setDecision(null);
        }}
        role="alertdialog"
        title={decision ? (decision.action === 'remove' ? q.remove : decision.action === 'dismiss' ? q.dismiss : q.ban) : ''}
        description={
          decision ? (decision.action === 'remove' ? q.removeConfirm : decision.action === 'dismiss' ? q.dismissConfirm : q.banConfirm(nameOf(decision.group))) : ''
        }
      >
        {decision && decision.action !== 'ban' ? (
          <div className="field">
            <label htmlFor={noteId}>{q.noteLabel}</label>
            <textarea id={noteId} rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
          </div>
        ) : null}
        <div className={styles.dialogActions}>
          <button type="button" className="btn" onClick={() => setDecision(null)}>
            {q.cancel}
          </button>
          <button type="button" className="btn btn-danger" onClick={confirm} disabled={resolve.isPending || ban.isPending}>
            {q.confirm}
          </button>
        </div>
      </Modal>
    </div>
  );
}
