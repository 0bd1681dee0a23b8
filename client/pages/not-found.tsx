import { Link } from 'wouter';
import { useI18n } from '../i18n';
import styles from './not-found.module.css';

export default function NotFoundPage() {
  const { t } = useI18n();
  return (
    <div className={`container page ${styles.page}`}>
      <p className={styles.code} aria-hidden="true">
        404
      </p>
      <h1 className="page-title">{t.common.notFound.title}</h1>
      <p className={styles.text}>{t.common.notFound.text}</p>
      <Link href="/" className="btn btn-primary">
        {t.common.notFound.home}
      </Link>
    </div>
  );
}
