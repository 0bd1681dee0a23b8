import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { useMyBusinesses } from './use-owned';
import styles from './owners.module.css';

/** The profile's "Din verksamhet": the businesses the member owns (with their numbers) and their open claims. */
export function MyBusinesses({ className, titleClassName }: { className?: string; titleClassName?: string }) {
  const { t } = useI18n();
  const m = t.owners.mine;
  const mine = useMyBusinesses();
  if (mine.length === 0) return null;
  return (
    <section className={className} aria-labelledby="profile-business-title" data-testid="my-businesses">
      <h2 id="profile-business-title" className={titleClassName}>
        {m.title}
      </h2>
      <ul className={styles.list}>
        {mine.map((b) => (
          <li key={b.businessId} className={styles.listItem}>
            <Link href={`/business/${encodeURIComponent(b.businessId)}`}>{b.title}</Link>
            <span className={styles.status}>{m.status[b.status]}</span>
            {b.status === 'approved' ? (
              <Link href={`/owner/${encodeURIComponent(b.businessId)}`} aria-label={`${m.numbers}: ${b.title}`}>
                {m.numbers}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
