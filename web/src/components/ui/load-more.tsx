import { Button } from './button';

const count = new Intl.NumberFormat('en-US');

/**
 * Under a server-paged table (ADR 0042): how many rows are shown of how many there are ("Showing 100 of 42,000"),
 * announced politely as it changes, and "Load more" while the server has another page. While `busy` (the rows are the
 * previous filter's, kept until the new filter's first page arrives) it says the list is loading instead: neither
 * the count nor "Load more" belongs to those rows.
 */
export function LoadMore({
  shown,
  total,
  hasMore,
  loading,
  onLoadMore,
  noun,
  busy = false,
}: {
  shown: number;
  total: number | null;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
  /** What the rows are, for the button's accessible name ("Load more users"). */
  noun: string;
  /** The rows shown are a placeholder for a list still loading (TanStack Query's `isPlaceholderData`). */
  busy?: boolean;
}) {
  if (shown === 0 && !hasMore) return null;
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600" aria-live="polite">
        {busy ? `Loading ${noun}…` : `Showing ${count.format(shown)} of ${count.format(total ?? shown)}`}
      </p>
      {hasMore && !busy ? (
        <Button
          variant="outline"
          size="sm"
          loading={loading}
          onClick={onLoadMore}
          aria-label={`Load more ${noun}`}
        >
          Load more
        </Button>
      ) : null}
    </div>
  );
}
