import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import styles from './mod-queue.module.css';

/** /mod-log (admins): every moderator action, newest first: who, what, on what, when, why. */
export default function ModLogPage() {
  const { t, relative, errorText } = useI18n();
  const l = t.moderation.log;
  const reasons = t.moderation.report.reasons;
  const trpc = useTRPC();
  const query = useQuery(trpc.moderation.log.queryOptions());
  // A decision without a note records the reports' reasons as keys: shown in the reader's language.
  const why = (reason: string | null) =>
    reason
      ? reason
          .split(', ')
          .map((r) => (r in reasons ? reasons[r as keyof typeof reasons] : r))
          .join(', ')
      : '—';
  const entries = query.data ?? [];
  return (
    <div className="container page">
      <h1 className="page-title">{l.title}</h1>
      <p className="muted">
        {l.intro} <Link href="/mod-queue">{t.moderation.menu.queue}</Link>
      </p>
      {query.isPending ? (
        <Spinner label={l.loading} showLabel />
      ) : query.isError ? (
        <p className="notice notice-error" role="alert">
          {query.error.data?.key ? errorText(query.error) : l.error}
        </p>
      ) : entries.length === 0 ? (
        <p className="notice">{l.empty}</p>
      ) : (
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
                <td data-label={l.what}>{l.actions[e.action]}</td>
                <td data-label={l.target}>
                  {l.kinds[e.targetKind]}
                  {e.excerpt ? <q className={styles.note}>{e.excerpt}</q> : null}
                </td>
                <td data-label={l.why}>{why(e.reason)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
