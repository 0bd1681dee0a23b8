import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { Link, useLocation, useParams } from 'wouter';
import { useBusinessTitle } from '../features/business/business-card';
import { CommentCard } from '../features/comments/comment-card';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useDocumentTitle } from '../lib/document-title';
import { withEarly } from '../lib/early-data';
import { useHydrated } from '../lib/hydrated';
import { commentPageTitle } from '../lib/page-titles';
import { useSiteText } from '../lib/site-text';
import { usePageData } from '../lib/page-data';
import { useTRPC } from '../lib/trpc';
import type { CommentCard as Comment } from '../../shared/schemas/comments';
import styles from './comment.module.css';

const isNotFound = (error: unknown) => error instanceof TRPCClientError && (error.data as { httpStatus?: unknown } | undefined)?.httpStatus === 404;

/** /comment/{id}: one comment with its replies open, and the way to its business. */
export default function CommentPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { t, lang } = useI18n();
  const p = t.comments.page;
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const titleOf = useBusinessTitle();
  const options = trpc.comments.byId.queryOptions({ id });
  // The server may have rendered this page with the comment (server/plugins/spa-pages.ts): the
  // first render shows the same, so the browser hydrates the server's markup instead of repainting it.
  const served = usePageData<Comment>('comments.byId', { id });
  const query = useQuery({
    ...options,
    ...served,
    // The entry may have asked for this already (lib/early-data.ts); else the usual request.
    queryFn: options.queryFn && withEarly('comments.byId', { id }, options.queryFn),
    retry: (count, error) => !isNotFound(error) && count < 2,
  });
  const hydrated = useHydrated();
  const loaded = query.data;
  const businessId = loaded?.businessId;
  // Kept across renders: the memoised card is not rendered again when hydration ends.
  const leave = useCallback(() => navigate(`/business/${businessId}`), [navigate, businessId]);
  const site = useSiteText();
  useDocumentTitle(
    loaded && !loaded.removed && !loaded.hidden
      ? commentPageTitle(
          lang,
          site,
          `${loaded.firstName} ${loaded.lastName}`.trim(),
          titleOf({ title: loaded.businessTitle, isSuggestionBox: loaded.businessIsSuggestionBox }),
          loaded.text,
        )
      : null,
  );

  if (query.isPending) {
    return (
      <div className="container page" aria-busy="true">
        <Spinner label={p.loading} showLabel />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="container page">
        <h1 className="page-title">{p.title}</h1>
        <p className="notice notice-error" role="alert">
          {isNotFound(query.error) ? p.notFound : t.common.genericError}
        </p>
        <p>
          <Link href="/">{p.toFeed}</Link>
        </p>
      </div>
    );
  }
  const comment = query.data;
  return (
    <div className="container page">
      <h1 className="page-title">{p.title}</h1>
      <p>
        <Link href={`/business/${comment.businessId}#comment-${comment._id}`}>
          {p.toBusiness(titleOf({ title: comment.businessTitle, isSuggestionBox: comment.businessIsSuggestionBox }))}
        </Link>
      </p>
      {/* Served by the server, the card's buttons would do nothing until the app has taken over:
          they are disabled until then, so a press is not silently lost. */}
      <fieldset className={styles.card} disabled={!hydrated}>
        <CommentCard comment={comment} repliesOpen headingLevel={2} onRemoved={leave} />
      </fieldset>
    </div>
  );
}
