import { useId, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { modActions, modTargetKinds, type ModAction, type ModTargetKind } from '../../shared/schemas/moderation';
import { reasonText } from '../features/moderation/reason-text';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import styles from './mod-queue.module.css';
import { LoadMore } from '../components/ui/load-more';

const isAction = (v: string): v is ModAction => (modActions as readonly string[]).includes(v);
const isKind = (v: string): v is ModTargetKind => (modTargetKinds as readonly string[]).includes(v);

/**
 * /mod-log (admins): every moderator action, newest first: who, what, on what, when, why; narrowed
 * by action or by what it concerns, a page at a time.
 */
export default function ModLogPage() {
  const { t, relative, errorText } = useI18n();
  const l = t.moderation.log;
  const trpc = useTRPC();
  const actionId = useId();
  const kindId = useId();
  const [action, setAction] = useState<ModAction | undefined>(undefined);
  const [targetKind, setTargetKind] = useState<ModTargetKind | undefined>(undefined);
  const query = useInfiniteQuery(
    trpc.moderation.log.infiniteQueryOptions({ action, targetKind }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
  const entries = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="container page">
      <h1 className="page-title">{l.title}</h1>
      <p className="muted">
        {l.intro} <Link href="/mod-queue">{t.moderation.menu.queue}</Link>
      </p>
      <div className={styles.filters}>
        <div className="field">
          <label htmlFor={actionId}>{l.filterAction}</label>
          <select id={actionId} value={action ?? ''} onChange={(e) => setAction(isAction(e.target.value) ? e.target.value : undefined)}>
            <option value="">{l.all}</option>
            {modActions.map((a) => (
              <option key={a} value={a}>
                {l.actions[a]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={kindId}>{l.filterKind}</label>
          <select id={kindId} value={targetKind ?? ''} onChange={(e) => setTargetKind(isKind(e.target.value) ? e.target.value : undefined)}>
            <option value="">{l.all}</option>
            {modTargetKinds.map((k) => (
              <option key={k} value={k}>
                {l.kinds[k]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {query.isPending ? (
        <Spinner label={l.loading} showLabel />
      ) : query.isError ? (
        <p className="notice notice-error" role="alert">
          {query.error.data?.key ? errorText(query.error) : l.error}
        </p>
      ) : entries.length === 0 ? (
        <p className="notice">{l.empty}</p>
      ) : (
        <>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{l.when}</th>
                <th scope="col">{l.who}</th>
                <th scope="col">{l.what}</th>
                <th scope="col">{l.target}</th>
                <th scope="col">{l.why}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e._id}>
                  <td data-label={l.when}>
                    <time dateTime={e.date} title={new Date(e.date).toLocaleString()}>
                      {relative(e.date)}
                    </time>
                  </td>
                  <td data-label={l.who}>{e.actorName}</td>
                  <td data-label={l.what} className={styles.word}>
                    {l.actions[e.action]}
                  </td>
                  <td data-label={l.target}>
                    {l.kinds[e.targetKind]}
                    {e.excerpt ? <q className={styles.note}>{e.excerpt}</q> : null}
                  </td>
                  {/* A decision without a note records the reports' reasons as keys: shown in the reader's language. */}
                  <td data-label={l.why}>{e.reason ? reasonText(e.reason, t.moderation.report.reasons) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <LoadMore query={query} label={l.loadMore} busyLabel={l.loadingMore} className={styles.more} />
        </>
      )}
    </div>
  );
}
