import { Button } from './button';

const count = new Intl.NumberFormat('en-US');

/**
 * Under a server-paged table (ADR 0042): how many rows are shown of how many there are ("Showing 100 of 42,000"),
 * announced politely as it changes, and "Load more" while the server has another page.
 */
export function LoadMore({
  shown,
  total,
  hasMore,
  loading,
  onLoadMore,
  noun,
}: {
  shown: number;
  total: number | null;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
  /** What the rows are, for the button's accessible name ("Load more users"). */
  noun: string;
}) {
  if (shown === 0 && !hasMore) return null;
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600" aria-live="polite">
        Showing {count.format(shown)} of {count.format(total ?? shown)}
      </p>
      {hasMore ? (
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
