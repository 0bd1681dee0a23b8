import { useQuery } from '@tanstack/react-query';
import { BusinessForm } from '../components/business/business-form';
import { BusinessTable } from '../components/business/business-table';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import styles from './business-management.module.css';

export default function BusinessManagementPage() {
  const { t, errorText } = useI18n();
  const trpc = useTRPC();
  const list = useQuery(trpc.business.list.queryOptions({ order: 'newest' }));
  const m = t.business.management;

  return (
    <div className="container page">
      <h1 className="page-title">{m.title}</h1>

      <section className={`card ${styles.panel}`} aria-labelledby="add-business-heading">
        <h2 id="add-business-heading" className={styles.heading}>
          {m.addTitle}
        </h2>
        <BusinessForm />
      </section>

      <section aria-labelledby="business-table-heading">
        <h2 id="business-table-heading" className={styles.heading}>
          {m.tableTitle}
        </h2>
        {list.isPending ? (
          <Spinner label={m.loading} showLabel />
        ) : list.isError ? (
          <p className="notice notice-error" role="alert">
            {errorText(list.error)}
          </p>
        ) : list.data.length === 0 ? (
          <p className="notice">{m.empty}</p>
        ) : (
          <BusinessTable businesses={list.data} />
        )}
      </section>
    </div>
  );
}
