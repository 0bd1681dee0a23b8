import { useId, useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { LoadMore } from '../components/ui/load-more';
import { Spinner } from '../components/ui/spinner';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import styles from './mod-queue.module.css';
import inbox from './contact-inbox.module.css';

/**
 * /contact-inbox (admins): the messages the contact form stored, newest first, a page at a time,
 * each marked read or unread; they are here whether or not CONTACT_EMAIL is set (issue 29, 12).
 */
export default function ContactInboxPage() {
  const { t, relative, errorText } = useI18n();
  const m = t.accounts.inbox;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const unreadId = useId();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const query = useInfiniteQuery(
    trpc.site.contactMessages.infiniteQueryOptions({ unread: unreadOnly }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
  const setRead = useMutation(
    trpc.site.setContactRead.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.site.contactMessages.pathKey() }),
      onError: (error) => notify(errorText(error), 'error', 3000),
    }),
  );
  const messages = query.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = query.data?.pages[0]?.unread ?? 0;
  return (
    <div className="container page">
      <h1 className="page-title">{m.title}</h1>
      <p className="muted">{m.intro}</p>
      <div className={styles.filters}>
        <label htmlFor={unreadId}>
          <input id={unreadId} type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} /> {m.unreadOnly}
        </label>
        {query.isSuccess ? <p role="status">{m.unreadCount(unread)}</p> : null}
      </div>
      {query.isPending ? (
        <Spinner label={t.common.loading} showLabel />
      ) : query.isError ? (
        <p className="notice notice-error" role="alert">
          {m.loadFailed} {errorText(query.error)}
        </p>
      ) : messages.length === 0 ? (
        <p className="notice">{m.empty}</p>
      ) : (
        <>
          <ul className={inbox.list}>
            {messages.map((msg) => (
              <li key={msg._id} className={`card ${inbox.item}`} data-unread={msg.readAt === null || undefined}>
                <article aria-labelledby={`contact-${msg._id}`}>
                  <h2 id={`contact-${msg._id}`} className={inbox.from}>
                    {msg.readAt === null ? <strong>{m.unread}: </strong> : null}
                    {msg.fromName} &lt;{msg.email}&gt;
                  </h2>
                  <p className="muted">
                    {m.received}{' '}
                    <time dateTime={msg.date} title={new Date(msg.date).toLocaleString()}>
                      {relative(msg.date)}
                    </time>{' '}
                    · {m.language(msg.language)}
                  </p>
                  <p className={inbox.text}>{msg.message}</p>
                  <p>
                    <a className="btn btn-outline btn-sm" href={`mailto:${msg.email}`}>
                      {m.reply}
                    </a>{' '}
                    <button
                      type="button"
                      className="btn btn-sm"
                      disabled={setRead.isPending}
                      onClick={() => setRead.mutate({ id: msg._id, read: msg.readAt === null })}
                    >
                      {msg.readAt === null ? m.markRead : m.markUnread}
                    </button>
                  </p>
                </article>
              </li>
            ))}
          </ul>
          <LoadMore query={query} label={m.loadMore} busyLabel={m.loadingMore} className={styles.more} />
        </>
      )}
    </div>
  );
}
