import { useId, useState } from 'react';
import { SegmentGroup } from '@ark-ui/react/segment-group';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import {
  reportReasons,
  reportStatuses,
  type BurstResolution,
  type RatingBurst,
  type ReportGroup,
  type ReportReason,
  type ReportStatus,
  type ResolveAction,
} from '../../shared/schemas/moderation';
import { createListCollection } from '@ark-ui/react/select';
import { ListSelect, type ListItem } from '../components/ui/list-select';
import { useViewer } from '../lib/session';
import { Modal } from '../components/ui/modal';
import { Spinner } from '../components/ui/spinner';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useBanAuthor, useRemoveAllPosts, useResolveRatingBurst, useResolveReport } from '../features/moderation/mutations';
import { useTRPC } from '../lib/trpc';
import styles from './mod-queue.module.css';
import { LoadMore } from '../components/ui/load-more';
import { EMOJI } from '../features/comments/emoji';

type Decision = { group: ReportGroup; action: ResolveAction | 'ban' | 'removeAll' } | { burst: RatingBurst; action: BurstResolution };

/**
 * /mod-queue (moderators and admins): reported comments and replies grouped by post, most
 * reported and oldest first, each with its text, picture, business, author and every report (new
 * accounts' marked: they do not count towards a hide); remove the post (with the reason its author
 * reads, apart from the log's note), dismiss the reports or (admins) ban the author. Rating bursts
 * above: accept or reject their held ratings. The server refuses the data to anyone else.
 */
export default function ModQueuePage() {
  const { t, number, plural, relative, errorText } = useI18n();
  const q = t.moderation.queue;
  const b = t.moderation.bursts;
  const trpc = useTRPC();
  const [status, setStatus] = useState<ReportStatus>('open');
  const [decision, setDecision] = useState<Decision | null>(null);
  const [note, setNote] = useState('');
  // 'reports': the author reads the reports' own reasons.
  const [authorReason, setAuthorReason] = useState<ReportReason | 'reports'>('reports');
  const [authorText, setAuthorText] = useState('');
  const noteId = useId();
  const authorTextId = useId();
  const me = useViewer();
  const reasonChoices = createListCollection<ListItem>({
    items: [{ value: 'reports', label: q.authorReasonDefault }, ...reportReasons.map((r) => ({ value: r, label: t.moderation.report.reasons[r] }))],
  });
  const nextPage = { getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined };
  const query = useInfiniteQuery(trpc.moderation.reports.infiniteQueryOptions({ status }, nextPage));
  const bursts = useInfiniteQuery(trpc.moderation.ratingBursts.infiniteQueryOptions({ status }, nextPage));

  const done = (message: string) => {
    setDecision(null);
    setNote('');
    setAuthorReason('reports');
    setAuthorText('');
    notify(message, 'success');
  };
  const onError = (e: unknown) => notify(errorText(e), 'error');
  const resolve = useResolveReport({ onSuccess: (r) => done(r.action === 'remove' ? q.removed : q.dismissed), onError });
  const ban = useBanAuthor({ onSuccess: () => done(q.bannedDone), onError });
  const removeAll = useRemoveAllPosts({ onSuccess: (r) => done(q.removedAll(r.removed)), onError });
  const decideBurst = useResolveRatingBurst({ onSuccess: (r) => done(r.action === 'accept' ? b.accepted : b.rejected), onError });
  const confirm = () => {
    if (!decision) return;
    if ('burst' in decision) decideBurst.mutate({ id: decision.burst._id, action: decision.action });
    else if (decision.action === 'ban') ban.mutate({ userId: decision.group.author._id, isBanned: true });
    else if (decision.action === 'removeAll') removeAll.mutate({ userId: decision.group.author._id, note: note.trim() || undefined });
    else if (decision.action === 'remove')
      resolve.mutate({
        id: decision.group._id,
        kind: decision.group.kind,
        action: 'remove',
        reason: authorReason === 'reports' ? undefined : authorReason,
        reasonText: authorText.trim() || undefined,
        note: note.trim() || undefined,
      });
    else resolve.mutate({ id: decision.group._id, kind: decision.group.kind, action: decision.action, note: note.trim() || undefined });
  };
  const nameOf = (g: ReportGroup) => `${g.author.firstName} ${g.author.lastName}`.trim();
  const groups = query.data?.pages.flatMap((p) => p.items) ?? [];
  const burstList = bursts.data?.pages.flatMap((p) => p.items) ?? [];
  const busy = resolve.isPending || ban.isPending || removeAll.isPending || decideBurst.isPending;
  const dialogTitle = !decision
    ? ''
    : 'burst' in decision
      ? b[decision.action]
      : decision.action === 'remove'
        ? q.remove
        : decision.action === 'dismiss'
          ? q.dismiss
          : decision.action === 'removeAll'
            ? q.removeAll
            : q.ban;
  const dialogText = !decision
    ? ''
    : 'burst' in decision
      ? `${b.title}: ${decision.burst.businessTitle}`
      : decision.action === 'remove'
        ? q.removeConfirm
        : decision.action === 'dismiss'
          ? q.dismissConfirm
          : decision.action === 'removeAll'
            ? q.removeAllConfirm(nameOf(decision.group))
            : q.banConfirm(nameOf(decision.group));

  return (
    <div className="container page">
      <h1 className="page-title">{q.title}</h1>
      <p className="muted">
        {q.intro} <Link href="/mod-log">{q.log}</Link> · <Link href="/suggestions">{t.suggestions.queue.link}</Link>
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

      <RatingBursts list={burstList} query={bursts} onDecide={(burst, action) => setDecision({ burst, action })} />

      <h2 className={styles.sectionTitle}>{q.postsTitle}</h2>
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
            <li key={`${g.kind}-${g._id}-${g.firstReported}`} className={`card ${styles.item}`} data-testid="report-group">
              <header className={styles.itemHead}>
                <span className={styles.kind}>{q[g.kind]}</span>
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
                {g.author.removals > 0 ? ` · ${number(g.author.removals)} ${plural(g.author.removals, q.removals)}` : null}
                {g.author.isBanned ? <span className={styles.badge}>{q.banned}</span> : null}
              </p>
              <ul className={styles.reports}>
                {g.reports.map((r) => (
                  <li key={`${r.reporterId}-${r.date}`}>
                    <strong>{t.moderation.report.reasons[r.reason]}</strong> — {r.reporterName}, {relative(r.date)}
                    {r.established ? null : (
                      <span className={styles.badge} title={q.newAccountHint}>
                        {q.newAccount}
                      </span>
                    )}
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
                {me?.isAdmin && !g.author.isBanned ? (
                  <button type="button" className="btn btn-danger btn-sm" onClick={() => setDecision({ group: g, action: 'ban' })}>
                    {q.ban}
                  </button>
                ) : null}
                {status === 'open' ? (
                  <button type="button" className="btn btn-danger btn-sm" onClick={() => setDecision({ group: g, action: 'removeAll' })}>
                    {q.removeAll}
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      <LoadMore query={query} label={q.loadMore} busyLabel={q.loadingMore} className={styles.more} />

      <Modal
        open={decision !== null}
        onOpenChange={(open) => {
          if (!open) setDecision(null);
        }}
        role="alertdialog"
        title={dialogTitle}
        description={dialogText}
      >
        {decision?.action === 'remove' ? (
          <>
            <ListSelect
              label={q.authorReasonLabel}
              collection={reasonChoices}
              value={authorReason}
              onChange={(v) => setAuthorReason((reportReasons as readonly string[]).includes(v) ? (v as ReportReason) : 'reports')}
            />
            <div className="field">
              <label htmlFor={authorTextId}>{q.authorTextLabel}</label>
              <textarea id={authorTextId} rows={2} maxLength={500} value={authorText} onChange={(e) => setAuthorText(e.target.value)} />
            </div>
          </>
        ) : null}
        {decision && (decision.action === 'remove' || decision.action === 'dismiss' || decision.action === 'removeAll') ? (
          <div className="field">
            <label htmlFor={noteId}>{q.noteLabel}</label>
            <textarea id={noteId} rows={2} maxLength={500} value={note} aria-describedby={`${noteId}-hint`} onChange={(e) => setNote(e.target.value)} />
            <p id={`${noteId}-hint`} className="muted">
              {q.noteHint}
            </p>
          </div>
        ) : null}
        <div className={styles.dialogActions}>
          <button type="button" className="btn" onClick={() => setDecision(null)}>
            {q.cancel}
          </button>
          <button type="button" className="btn btn-danger" onClick={confirm} disabled={busy}>
            {q.confirm}
          </button>
        </div>
      </Modal>
    </div>
  );
}

type BurstsQuery = {
  isPending: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
};

/** The queue's rating bursts: shown only when there are any (or while they fail to load). */
function RatingBursts({ list, query, onDecide }: { list: RatingBurst[]; query: BurstsQuery; onDecide: (burst: RatingBurst, action: BurstResolution) => void }) {
  const { t, number, plural, relative } = useI18n();
  const b = t.moderation.bursts;
  const q = t.moderation.queue;
  // "2 minutes ago – 2 minutes ago" says one time twice.
  const windowText = (from: string, to: string) => (from === to ? b.at(to) : b.window(from, to));
  if (query.isPending || (!query.isError && list.length === 0)) return null;
  return (
    <section className={styles.section} aria-labelledby="rating-bursts-title">
      <h2 id="rating-bursts-title" className={styles.sectionTitle}>
        {b.title}
      </h2>
      <p className="muted">{b.intro}</p>
      {query.isError ? (
        <p className="notice notice-error" role="alert">
          {b.error}
        </p>
      ) : (
        <ol className={styles.list}>
          {list.map((burst) => (
            <li key={burst._id} className={`card ${styles.item}`} data-testid="rating-burst">
              <header className={styles.itemHead}>
                <span className={styles.kind}>
                  {burst.target === 'business' ? burst.businessTitle : `${burst.target === 'comment' ? b.onReview : b.onReply}: ${burst.businessTitle}`}
                </span>
                <span className={styles.count}>
                  {number(burst.ratings)} {plural(burst.ratings, burst.target === 'business' ? b.ratings : b.reactions)}
                </span>
                {burst.status === 'resolved' ? (
                  <span className={styles.badge}>
                    {burst.resolution === 'accept' ? b.acceptedBadge : burst.resolution === 'reject' ? b.rejectedBadge : b.dismissedBadge}
                  </span>
                ) : null}
              </header>
              <p className="muted">{windowText(relative(burst.firstAt) ?? '', relative(burst.lastAt) ?? '')}</p>
              {burst.target !== 'business' && burst.excerpt ? <p className={styles.text}>{burst.excerpt}</p> : null}
              {burst.status === 'open' ? <p className="muted">{burst.target === 'business' ? b.held : b.heldReactions}</p> : null}
              <ul className={styles.raters}>
                {burst.raters.map((r) => (
                  <li key={`${r.userId}-${r.date}`}>
                    {burst.target === 'business'
                      ? b.rater(`${r.firstName} ${r.lastName}`.trim(), r.rate, relative(r.joined) ?? '')
                      : b.reactor(`${r.firstName} ${r.lastName}`.trim(), EMOJI[r.rate as keyof typeof EMOJI] ?? '', r.rate, relative(r.joined) ?? '')}
                  </li>
                ))}
              </ul>
              <div className={styles.actions}>
                {burst.commentId ? (
                  <Link href={`/comment/${burst.commentId}`} className="btn btn-ghost btn-sm">
                    {b.openPost}
                  </Link>
                ) : (
                  <Link href={`/business/${burst.businessId}`} className="btn btn-ghost btn-sm">
                    {b.openBusiness}
                  </Link>
                )}
                {burst.status === 'open' ? (
                  <>
                    <button type="button" className="btn btn-outline btn-sm" onClick={() => onDecide(burst, 'accept')}>
                      {b.accept}
                    </button>
                    <button type="button" className="btn btn-danger btn-sm" onClick={() => onDecide(burst, 'reject')}>
                      {b.reject}
                    </button>
                  </>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      <LoadMore query={query} label={q.loadMore} busyLabel={q.loadingMore} className={styles.more} />
    </section>
  );
}
