import { useDeferredValue, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { BusinessForm } from '../features/business/business-form';
import { BusinessTable } from '../features/business/business-table';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import styles from './business-management.module.css';

export default function BusinessManagementPage() {
  const { t, errorText } = useI18n();
  const trpc = useTRPC();
  // A–Ö by Swedish collation (the server sorts), narrowed by the search box as the admin types.
  const list = useQuery(trpc.business.list.queryOptions({ order: 'title' }));
  const m = t.business.management;
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search.trim().toLocaleLowerCase('sv'));
  const shown = useMemo(() => {
    if (!list.data || !query) return list.data;
    return list.data.filter((b) =>
      [b.title, b.category, ...b.branches.map((branch) => branch.location)].some((text) => text.toLocaleLowerCase('sv').includes(query)),
    );
  }, [list.data, query]);

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
        <div className={styles.tableHead}>
          <h2 id="business-table-heading" className={styles.heading}>
            {m.tableTitle}
          </h2>
          <div className={`field ${styles.search}`}>
            <label htmlFor="business-table-search">{m.search}</label>
            <input id="business-table-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
        </div>
        {list.isPending ? (
          <Spinner label={m.loading} showLabel />
        ) : list.isError ? (
          <p className="notice notice-error" role="alert">
            {errorText(list.error)}
          </p>
        ) : list.data.length === 0 ? (
          <p className="notice">{m.empty}</p>
        ) : (
          <>
            <p className="muted" role="status">
              {query ? m.matches(shown?.length ?? 0, list.data.length) : null}
            </p>
            {shown && shown.length > 0 ? <BusinessTable id="business-table" businesses={shown} /> : <p className="notice">{m.noMatches}</p>}
          </>
        )}
      </section>
    </div>
  );
}
