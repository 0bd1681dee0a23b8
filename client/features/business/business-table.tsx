import { useState } from 'react';
import { useI18n } from '../../i18n';
import { useRemoveBusiness } from './mutations';
import { ConfirmDialog, Modal } from '../../components/ui/modal';
import { notify } from '../../components/ui/toast';
import { BusinessForm } from './business-form';
import { useBusinessTitle } from './business-card';
import { useLocalized } from './localized';
import { cut } from './text';
import type { Business } from './types';
import { useProgressive } from './use-progressive';
import styles from './business-table.module.css';

const TABLE_EXCERPT_CHARS = 150;

/** Business Information: one row per business, edit in the Update Business modal, delete after a confirm. */
export function BusinessTable({ businesses, id }: { businesses: Business[]; id?: string }) {
  const { t, number, errorText } = useI18n();
  const titleOf = useBusinessTitle();
  const localized = useLocalized();
  const [editing, setEditing] = useState<Business | null>(null);
  const [deleting, setDeleting] = useState<Business | null>(null);
  const { shown, hasMore, showMore, sentinel } = useProgressive(businesses.length, 'table', 50);
  const m = t.business.management;
  const c = m.columns;

  const remove = useRemoveBusiness({
    onSuccess: () => {
      setDeleting(null);
      notify(t.messages.businessRemoved, 'success');
    },
    onError: (error) => notify(errorText(error), 'error'),
  });

  return (
    <>
      <table id={id} className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{c.number}</th>
            <th scope="col">{c.pictures}</th>
            <th scope="col">{c.title}</th>
            <th scope="col">{c.category}</th>
            <th scope="col">{c.description}</th>
            <th scope="col">{c.location}</th>
            <th scope="col">{c.address}</th>
            <th scope="col">{c.edit}</th>
            <th scope="col">{c.delete}</th>
          </tr>
        </thead>
        <tbody>
          {businesses.slice(0, shown).map((business, i) => {
            const title = titleOf(business);
            const first = business.branches[0];
            return (
              <tr key={business.id}>
                <td data-label={c.number} className={styles.number}>
                  {number(i + 1)}
                </td>
                <td data-label={c.pictures}>
                  <span className={styles.pictures}>
                    {business.image ? <img src={business.image} alt="" width={64} height={40} loading="lazy" className={styles.image} /> : null}
                    {business.icon ? <img src={business.icon} alt="" width={40} height={40} loading="lazy" className={styles.icon} /> : null}
                    {!business.image && !business.icon ? '-' : null}
                  </span>
                </td>
                <th scope="row" data-label={c.title} className={styles.title}>
                  {title}
                </th>
                <td data-label={c.category}>{localized.category(business)}</td>
                <td data-label={c.description} className={styles.description}>
                  {cut(business.description, TABLE_EXCERPT_CHARS)}
                </td>
                <td data-label={c.location}>{first?.location ?? '-'}</td>
                <td data-label={c.address}>{first?.address || '-'}</td>
                <td data-label={c.edit}>
                  <button type="button" className="btn btn-sm btn-outline" aria-label={m.editLabel(title)} onClick={() => setEditing(business)}>
                    {c.edit}
                  </button>
                </td>
                <td data-label={c.delete}>
                  {business.isSuggestionBox ? (
                    <span className={styles.kept}>{m.suggestionBoxKept}</span>
                  ) : (
                    <button type="button" className="btn btn-sm btn-danger" aria-label={m.deleteLabel(title)} onClick={() => setDeleting(business)}>
                      {c.delete}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div ref={sentinel} className={styles.more}>
        {hasMore ? (
          <button type="button" className="btn btn-outline" onClick={showMore}>
            {t.business.directory.showMore}
          </button>
        ) : null}
      </div>

      <Modal open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title={m.updateTitle} size="lg">
        {editing ? <BusinessForm key={editing.id} business={editing} onDone={() => setEditing(null)} /> : null}
      </Modal>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={m.deleteTitle}
        text={deleting ? m.deleteText(titleOf(deleting)) : ''}
        confirmLabel={c.delete}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
    </>
  );
}
