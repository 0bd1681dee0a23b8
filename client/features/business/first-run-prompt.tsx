import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { StorefrontIcon } from './icons';
import styles from './first-run-prompt.module.css';

/**
 * A fresh install's directory is empty: an admin is asked to add the first business (the form
 * on the business management page); everyone else sees nothing here.
 */
export function FirstRunPrompt() {
  const { t } = useI18n();
  const me = useViewer();
  if (!me?.isAdmin) return null;
  const r = t.business.firstRun;
  return (
    <section className={`card ${styles.prompt}`} aria-labelledby="first-run-title">
      <span className={styles.icon} aria-hidden="true">
        <StorefrontIcon size={32} />
      </span>
      <div className={styles.body}>
        <h2 id="first-run-title" className={styles.title}>
          {r.title}
        </h2>
        <p className={styles.text}>{r.text}</p>
      </div>
      <Link href="/business-mng" className="btn btn-primary">
        {r.action}
      </Link>
    </section>
  );
}
