import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { CommentCard } from '../features/comments/comment-card';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import styles from '../features/business/owners.module.css';

/**
 * /owner/{businessId} (the business's owners, admins): its star figures and breakdown, reviews
 * and their average per month, and the reviews still without an answer, to answer first.
 */
export default function OwnerNumbersPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { t, number, errorText } = useI18n();
  const n = t.owners.numbers;
  const trpc = useTRPC();
  const stats = useQuery(trpc.owners.stats.queryOptions({ businessId: id }));
  if (stats.isPending) return <Spinner label={n.loading} showLabel />;
  if (stats.isError) {
    return (
      <div className="container page">
        <p className="notice notice-error" role="alert">
          {n.error} {errorText(stats.error)}
        </p>
      </div>
    );
  }
  const s = stats.data;
  const avg = (v: number | null) => (v === null ? n.noAverage : number(v, 1));
  return (
    <div className={`container page ${styles.page}`}>
      <div>
        <h1 className="page-title">{n.title(s.title)}</h1>
        <Link href={`/business/${encodeURIComponent(s.businessId)}`}>{n.back}</Link>
      </div>
      <dl className={styles.figures}>
        <div className={styles.figure}>
          <dt>{n.average}</dt>
          <dd>{avg(s.average)}</dd>
        </div>
        <div className={styles.figure}>
          <dt>{n.ratings}</dt>
          <dd>{number(s.ratingCount)}</dd>
        </div>
        <div className={styles.figure}>
          <dt>{n.reviews}</dt>
          <dd>{number(s.reviews)}</dd>
        </div>
        <div className={styles.figure}>
          <dt>{n.answered}</dt>
          <dd>{number(s.answered)}</dd>
        </div>
      </dl>
      <section aria-labelledby="owner-breakdown">
        <h2 id="owner-breakdown">{n.breakdown}</h2>
        <ul className={styles.list}>
          {[5, 4, 3, 2, 1].map((star) => (
            <li key={star} className={styles.listItem}>
              <span>{n.stars(star)}</span>
              <strong>{number(s.breakdown[star - 1])}</strong>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="owner-months">
        <h2 id="owner-months">{n.perMonth}</h2>
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{n.month}</th>
                <th scope="col">{n.reviews}</th>
                <th scope="col">{n.average}</th>
              </tr>
            </thead>
            <tbody>
              {s.months.map((m) => (
                <tr key={m.month}>
                  <th scope="row">{m.month}</th>
                  <td>{number(m.reviews)}</td>
                  <td>{avg(m.average)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="owner-unanswered">
        <h2 id="owner-unanswered">{n.unanswered}</h2>
        {s.unanswered.length === 0 ? (
          <p className="notice">{n.noneUnanswered}</p>
        ) : (
          <div className={styles.list}>
            {s.unanswered.map((c) => (
              <CommentCard key={c._id} comment={c} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
