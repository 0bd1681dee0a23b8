import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { REJECT_REASON_MAX, suggestionStatuses, type Suggestion, type SuggestionStatus } from '../../shared/schemas/suggestions';
import { LoadMore } from '../components/ui/load-more';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useApproveSuggestion, useRejectSuggestion } from '../features/business/suggestions-mutations';
import { useTRPC } from '../lib/trpc';
import styles from './mod-queue.module.css';

/**
 * /suggestions (moderators and admins): members' suggested places, waiting ones oldest first;
 * approve adds the business, reject asks for the reason the member is told.
 */
export default function SuggestionsPage() {
  const { t, relative, errorText } = useI18n();
  const q = t.suggestions.queue;
  const trpc = useTRPC();
  const [status, setStatus] = useState<SuggestionStatus>('pending');
  const query = useInfiniteQuery(trpc.suggestions.queue.infiniteQueryOptions({ status }, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="container page">
      <h1 className="page-title">{q.title}</h1>
      <p className="muted">
        {q.intro} <Link href="/mod-queue">{t.moderation.menu.queue}</Link>
      </p>
      <div role="group" aria-label={q.statusLabel} className={styles.actions}>
        {suggestionStatuses.map((s) => (
          <button key={s} type="button" className="btn btn-outline" aria-pressed={status === s} onClick={() => setStatus(s)}>
            {q.statuses[s]}
          </button>
        ))}
      </div>
      {query.isError ? (
        <p className="notice notice-error">{errorText(query.error)}</p>
      ) : query.data && items.length === 0 ? (
        <p className="notice">{q.empty}</p>
      ) : (
        <ul className={styles.list} aria-label={q.title}>
          {items.map((item) => (
            <li key={item._id} className={`card ${styles.item}`}>
              <SuggestionItem item={item} when={relative(item.createdAt) ?? ''} />
            </li>
          ))}
        </ul>
      )}
      <LoadMore query={query} label={q.more} busyLabel={t.common.loading} />
    </div>
  );
}

function SuggestionItem({ item, when }: { item: Suggestion; when: string }) {
  const { t, errorText } = useI18n();
  const q = t.suggestions.queue;
  const m = t.suggestions.mine;
  const [reason, setReason] = useState('');
  const failed = (error: Parameters<typeof errorText>[0]) => notify(errorText(error), 'error', 4000);
  const approve = useApproveSuggestion({ onSuccess: () => notify(q.approved, 'success', 3000), onError: failed });
  const reject = useRejectSuggestion({ onSuccess: () => notify(q.rejected, 'success', 3000), onError: failed });
  const reasonId = `reject-reason-${item._id}`;
  const name = item.suggester ? `${item.suggester.firstName} ${item.suggester.lastName}`.trim() : '';
  return (
    <>
      <h2 className={styles.itemHead}>{item.title}</h2>
      <p>
        {item.category} · {item.address}, {item.location}
        {item.website ? (
          <>
            {' · '}
            <a href={item.website} rel="nofollow noopener noreferrer" target="_blank">
              {item.website}
            </a>
          </>
        ) : null}
      </p>
      <p className="muted">{q.by(name, when)}</p>
      {item.status === 'pending' ? (
        <div className={styles.actions}>
          <button type="button" className="btn btn-primary" disabled={approve.isPending} onClick={() => approve.mutate({ id: item._id })}>
            {q.approve}
          </button>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (!reject.isPending) reject.mutate({ id: item._id, reason });
            }}
          >
            <div className="field">
              <label htmlFor={reasonId}>{q.reason}</label>
              <input id={reasonId} type="text" value={reason} maxLength={REJECT_REASON_MAX} onChange={(e) => setReason(e.target.value)} />
            </div>
            <button type="submit" className="btn btn-outline" disabled={reject.isPending}>
              {q.reject}
            </button>
          </form>
        </div>
      ) : (
        <p>
          {m.status[item.status]}
          {item.businessId ? (
            <>
              {' · '}
              <Link href={`/business/${item.businessId}`}>{m.open}</Link>
            </>
          ) : null}
          {item.reason ? ` · ${m.reason(item.reason)}` : null}
        </p>
      )}
    </>
  );
}
