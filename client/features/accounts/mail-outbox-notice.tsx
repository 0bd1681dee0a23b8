import { useQuery } from '@tanstack/react-query';
import { useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import styles from './mail-outbox-notice.module.css';

/**
 * For admins on /user-mng: mails the outbox could not send (confirmation and reset links,
 * contact messages), so a broken SMTP setting is seen before users complain. Shows nothing
 * while every mail goes out.
 */
export function MailOutboxNotice() {
  const { t, relative } = useI18n();
  const m = t.accounts.users.mail;
  const trpc = useTRPC();
  const report = useQuery(trpc.site.mailOutbox.queryOptions());
  if (!report.data || report.data.failing.length === 0) return null;
  const { waiting, failed, failing } = report.data;
  return (
    <section className={`notice notice-error ${styles.notice}`} aria-labelledby="mail-outbox-title">
      <h2 id="mail-outbox-title" className={styles.title}>
        {m.title}
      </h2>
      <p>{m.summary(waiting, failed)}</p>
      <ul className={styles.list}>
        {failing.map((mail) => (
          <li key={mail.id}>
            <span className={styles.to}>{mail.to}</span> – {mail.subject} ({m.attempts(mail.attempts)},{' '}
            {mail.nextAttemptAt === null ? m.givenUp : m.next(relative(mail.nextAttemptAt) ?? '')})
            {mail.lastError ? (
              <span className={styles.error}>
                {m.error}: {mail.lastError}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
