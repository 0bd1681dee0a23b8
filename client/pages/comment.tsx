import { useQuery } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { Link, useLocation, useParams } from 'wouter';
import { useBusinessTitle } from '../components/business/business-card';
import { CommentCard } from '../components/comments/comment-card';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useDocumentTitle } from '../lib/document-title';
import { commentPageTitle } from '../lib/page-titles';
import { useTRPC } from '../lib/trpc';

const isNotFound = (error: unknown) => error instanceof TRPCClientError && (error.data as { httpStatus?: unknown } | undefined)?.httpStatus === 404;

/** /comment/{id}: one comment with its replies open, and the way to its business. */
export default function CommentPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { t, lang } = useI18n();
  const p = t.comments.page;
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const titleOf = useBusinessTitle();
  const query = useQuery({ ...trpc.comments.byId.queryOptions({ id }), retry: (count, error) => !isNotFound(error) && count < 2 });
  const loaded = query.data;
  useDocumentTitle(
    loaded && !loaded.removed && !loaded.hidden
      ? commentPageTitle(
          lang,
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
        <Link href={`/business/${comment.businessId}#comment-${comment._id}`}>{p.toBusiness(titleOf({ title: comment.businessTitle, isSuggestionBox: comment.businessIsSuggestionBox }))}</Link>
      </p>
      <CommentCard comment={comment} repliesOpen headingLevel={2} onRemoved={() => navigate(`/business/${comment.businessId}`)} />
    </div>
  );
}
