import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { stockholmDay } from '../../shared/i18n/number';
import { Spinner } from '../components/ui/spinner';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useDecideClaim } from '../features/business/owners-mutations';
import { useTRPC } from '../lib/trpc';
import { CLAIM_REASON_MAX } from '../../shared/schemas/owners';
import styles from '../features/business/owners.module.css';

/** /claims (admins): members' claims of businesses, oldest first, each approved or rejected here. */
export default function ClaimsPage() {
  const { t, errorText } = useI18n();
  const c = t.owners.claims;
  const trpc = useTRPC();
  const claims = useQuery(trpc.owners.claims.queryOptions({ status: 'pending' }));
  // A rejection's optional reason per claim, told to the member with the notice.
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const decide = useDecideClaim({
    onSuccess: (claim) => notify(claim.status === 'approved' ? t.messages.claimApproved : t.messages.claimRejected, 'success'),
    onError: (error) => notify(errorText(error), 'error'),
  });
  return (
    <div className={`container page ${styles.page}`}>
      <div>
        <h1 className="page-title">{c.title}</h1>
        <p className="muted">{c.intro}</p>
      </div>
      {claims.isPending ? (
        <Spinner label={c.loading} showLabel />
      ) : claims.isError ? (
        <p className="notice notice-error" role="alert">
          {c.error} {errorText(claims.error)}
        </p>
      ) : claims.data.length === 0 ? (
        <p className="notice">{c.empty}</p>
      ) : (
        <ul className={styles.list}>
          {claims.data.map((claim) => {
            const who = `${claim.firstName} ${claim.lastName}`.trim();
            return (
              <li key={claim._id} className={`card ${styles.claimCard}`}>
                <h2 className={styles.replyHead}>
                  <Link href={`/business/${encodeURIComponent(claim.businessId)}`}>{claim.businessTitle}</Link>
                  <span className={styles.replyDate}>{stockholmDay(new Date(claim.createdAt), t.comments.card.day)}</span>
                </h2>
                <p className={styles.listItem}>
                  <span>
                    {c.member}: <Link href={`/u/${encodeURIComponent(claim.userId)}`}>{who}</Link>
                  </span>
                  <span>
                    {claim.email} ({claim.emailConfirmed ? c.confirmed : c.unconfirmed})
                  </span>
                </p>
                {claim.note ? (
                  <p className={styles.replyText}>
                    {c.note}: {claim.note}
                  </p>
                ) : null}
                <label className={styles.listItem}>
                  <span>{c.reason}</span>
                  <input
                    className="input"
                    maxLength={CLAIM_REASON_MAX}
                    value={reasons[claim._id] ?? ''}
                    onChange={(e) => setReasons((r) => ({ ...r, [claim._id]: e.target.value }))}
                  />
                </label>
                <div className={styles.tools}>
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    aria-label={c.approve(claim.businessTitle, who)}
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ id: claim._id, decision: 'approve' })}
                  >
                    {c.approveShort}
                  </button>
                  <button
                    type="button"
                    className="btn btn-danger btn-sm"
                    aria-label={c.reject(claim.businessTitle, who)}
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ id: claim._id, decision: 'reject', reason: reasons[claim._id]?.trim() || undefined })}
                  >
                    {c.rejectShort}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
