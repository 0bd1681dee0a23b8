/** What a paged list's query offers (TanStack Query's infinite query). */
type Pager = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): unknown };

/**
 * "Visa fler" under a paged list: asks for the next page, says it is loading meanwhile, and is
 * gone once there is no next page. `disabled`: inert for now (a served page not yet hydrated).
 */
export function LoadMore({
  query,
  label,
  busyLabel,
  className,
  primary = false,
  disabled = false,
}: {
  query: Pager;
  label: string;
  busyLabel: string;
  className?: string;
  primary?: boolean;
  disabled?: boolean;
}) {
  if (!query.hasNextPage) return null;
  return (
    <p className={className}>
      <button
        type="button"
        className={`btn ${primary ? 'btn-primary' : 'btn-outline'}`}
        onClick={() => void query.fetchNextPage()}
        disabled={disabled || query.isFetchingNextPage}
      >
        {query.isFetchingNextPage ? busyLabel : label}
      </button>
    </p>
  );
}
