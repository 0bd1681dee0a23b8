import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { NotificationItem } from '../../shared/schemas/notifications';
import { reasonText } from '../features/moderation/reason-text';
import { LoadMore } from '../components/ui/load-more';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useMarkNotificationsRead } from '../features/notifications/mutations';
import { useTRPC } from '../lib/trpc';
import styles from './notifications.module.css';

/** One entry's sentence in the reader's language. */
function useSentence() {
  const { t } = useI18n();
  const n = t.notifications;
  return (item: NotificationItem): string => {
    const who = item.actor ? `${item.actor.firstName} ${item.actor.lastName}`.trim() : n.someone;
    const place = item.businessTitle;
    switch (item.kind) {
      case 'favoriteReview':
      case 'ownerReply':
        return n.text[item.kind](who, place);
      case 'reaction':
        return n.text.reaction(who, item.count, place);
      case 'reply':
      case 'threadReply':
        return n.text[item.kind](who, item.count, place);
      case 'hidden':
      case 'removed':
      case 'restored':
      case 'ownerReplyHidden':
      case 'ownerReplyRemoved':
      case 'ownerReplyRestored':
        return n.text[item.kind](place);
      case 'reportResolved':
        return item.reason === 'remove' ? n.text.reportRemoved(place) : n.text.reportDismissed(place);
      case 'suggestionApproved':
      case 'suggestionRejected':
      case 'claimApproved':
      case 'claimRejected':
        return n.text[item.kind](place);
    }
  };
}

/**
 * /notifications (signed in): replies, reactions, new reviews of favourites, moderation
 * decisions and the decisions on the member's suggestions and claims, newest first, each linking
 * to the exact post (or the business, /suggest, /user); opening one marks it read.
 */
export default function NotificationsPage() {
  const { t, relative, errorText } = useI18n();
  const n = t.notifications;
  const trpc = useTRPC();
  const sentence = useSentence();
  const markRead = useMarkNotificationsRead();
  const query = useInfiniteQuery(trpc.notifications.list.infiniteQueryOptions({}, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = query.data?.pages[0]?.unread ?? 0;

  return (
    <div className="container page">
      <div className={styles.head}>
        <h1 className="page-title">{n.title}</h1>
        {unread > 0 ? (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => markRead.mutate({ all: true })} disabled={markRead.isPending}>
            {n.markAllRead}
          </button>
        ) : null}
      </div>
      <p className="muted">{n.intro}</p>
      {query.isPending ? (
        <Spinner label={n.loading} showLabel />
      ) : query.isError ? (
        <p className="notice notice-error" role="alert">
          {query.error.data?.key ? errorText(query.error) : n.error}
        </p>
      ) : items.length === 0 ? (
        <p className="notice">{n.empty}</p>
      ) : (
        <>
          <ul className={styles.list} data-testid="notifications">
            {items.map((item) => (
              <li key={item._id}>
                <Link
                  href={item.link}
                  className={`${styles.item} ${item.read ? styles.read : styles.unread}`}
                  onClick={() => {
                    if (!item.read) markRead.mutate({ ids: [item._id] });
                  }}
                  data-kind={item.kind}
                >
                  <span className={styles.text}>
                    {item.read ? null : <span className="visually-hidden">{n.unread}: </span>}
                    {sentence(item)}
                  </span>
                  {(item.kind === 'removed' || item.kind === 'ownerReplyRemoved') && item.reason ? (
                    <span className={styles.meta}>{n.reason(reasonText(item.reason, t.moderation.report.reasons))}</span>
                  ) : (item.kind === 'suggestionRejected' || item.kind === 'claimRejected') && item.reason ? (
                    <span className={styles.meta}>{n.reason(item.reason)}</span>
                  ) : null}
                  <span className={styles.meta}>
                    <time dateTime={item.createdAt}>{relative(item.createdAt)}</time>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <LoadMore query={query} label={n.loadMore} busyLabel={n.loadingMore} className={styles.more} />
        </>
      )}
    </div>
  );
}
