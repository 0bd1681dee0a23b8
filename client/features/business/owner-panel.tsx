import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { useMyBusinesses } from './use-owned';
import styles from './owners.module.css';

const ClaimDialog = lazy(() => import('./claim-dialog').then((m) => ({ default: m.ClaimDialog })));

/**
 * On a business's page, for a signed-in member: "Is this your business?" (a claim), the claim's
 * state while it waits, or for its owners a link to its numbers.
 */
export function OwnerPanel({ businessId }: { businessId: string }) {
  const { t } = useI18n();
  const c = t.owners.claim;
  const me = useViewer();
  const mine = useMyBusinesses().find((b) => b.businessId === businessId);
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  if (!me || me.isBanned) return null;
  if (mine?.status === 'approved') {
    return (
      <p className={styles.claim}>
        <span>{c.owner}</span>
        <Link href={`/owner/${encodeURIComponent(businessId)}`}>{c.numbers}</Link>
      </p>
    );
  }
  if (mine?.status === 'pending') return <p className={styles.claim}>{c.pending}</p>;
  return (
    <div className={styles.claim}>
      <button
        type="button"
        className="btn btn-outline btn-sm"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {c.button}
      </button>
      {used ? (
        <Suspense fallback={null}>
          <ClaimDialog businessId={businessId} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </div>
  );
}
