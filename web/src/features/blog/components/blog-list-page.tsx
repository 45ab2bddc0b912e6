import { useState } from 'react';
import { Button, QueryState, SelectField, TextField } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { useSession } from '@/lib/auth';
import { BLOG_PAGE_SIZE, SEARCH_HIGHLIGHT_DELAY_MS } from '../blog.constants';
import { useCategories } from '../api/categories';
import { usePostPage } from '../api/public-posts';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { searchWords } from './highlight';
import { PostCard, PostCardSkeleton } from './post-card';

/** The page numbers to show: first, last, and two either side of the current one; null marks a gap. */
export function pageWindow(page: number, pages: number): Array<number | null> {
  const shown = new Set([1, pages]);
  for (let n = page - 2; n <= page + 2; n += 1) if (n >= 1 && n <= pages) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: Array<number | null> = [];
  sorted.forEach((n, i) => {
    if (i > 0 && n - sorted[i - 1]! > 1) out.push(null);
    out.push(n);
  });
  return out;
}

/** Pages as numbered buttons with Previous/Next; hidden when everything fits on one page. */
function Pagination({
  page,
  pages,
  onChange,
}: {
  page: number;
  pages: number;
  onChange: (page: number) => void;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-8 flex flex-wrap items-center justify-center gap-2">
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        Previous
      </Button>
      {pageWindow(page, pages).map((n, i) =>
        n === null ? (
          <span key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-500">
            …
          </span>
        ) : (
          <Button
            key={n}
            variant={n === page ? 'primary' : 'ghost'}
            size="sm"
            aria-current={n === page ? 'page' : undefined}
            aria-label={`Page ${n}`}
            onClick={() => onChange(n)}
          >
            {n}
          </Button>
        ),
      )}
      <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onChange(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

/** The lesson list (spec §2): search with the 300 ms highlight delay, category filter, paged cards. */
export function BlogListPage() {
  const { user } = useSession();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [page, setPage] = useState(1);
  // The search settles after the user stops typing; only then is it sent and highlighted.
  const q = useDebouncedValue(search.trim(), SEARCH_HIGHLIGHT_DELAY_MS);
  const [lastQ, setLastQ] = useState(q);
  if (q !== lastQ) {
    // A new search starts from its first page (adjusting state during render, not in an effect).
    setLastQ(q);
    setPage(1);
  }

  const categories = useCategories();
  const list = usePostPage({ q, category, page, limit: BLOG_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / BLOG_PAGE_SIZE));
  const words = searchWords(q);

  return (
    <PageContainer>
      <PageHeader
        title="Lessons"
        description="Browse every published lesson. Search by words or pick a category."
      />
      <form
        role="search"
        className="mb-8 grid grid-cols-1 gap-4 sm:grid-cols-3"
        onSubmit={(e) => e.preventDefault()}
      >
        <TextField
          label="Search lessons"
          type="search"
          className="sm:col-span-2"
          value={search}
          maxLength={200}
          placeholder="Search by title or text"
          onChange={(e) => setSearch(e.target.value)}
        />
        <SelectField
          label="Category"
          value={category}
          onChange={(e) => {
            setCategory(e.target.value);
            setPage(1);
          }}
        >
          <option value="">All categories</option>
          {(categories.data ?? []).map((c) => (
            <option key={c.id} value={c.slug}>
              {c.name}
            </option>
          ))}
        </SelectField>
      </form>

      <QueryState
        query={list}
        loadingView={
          <div
            className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3"
            aria-busy="true"
            aria-label="Loading lessons"
          >
            {Array.from({ length: 3 }, (_, i) => (
              <PostCardSkeleton key={i} />
            ))}
          </div>
        }
        retryLabel="Try again"
        errorView={({ retry }) => (
          <div className="rounded-2xl border border-slate-200 bg-white px-6 py-12 text-center">
            <h2 className="text-lg font-semibold text-slate-900">Lessons are unavailable right now</h2>
            <p className="mt-2 text-slate-600">
              We could not load the lessons. Please try again in a moment.
            </p>
            {retry('mt-5')}
          </div>
        )}
        isEmpty={(data) => data.posts.length === 0}
        empty={
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
            <h2 className="text-lg font-semibold text-slate-900">
              {q || category ? 'No lessons match your search' : 'No lessons published yet'}
            </h2>
            <p className="mt-2 text-slate-600">
              {q || category
                ? 'Try other words or another category.'
                : 'New lessons will appear here as soon as they are published.'}
            </p>
          </div>
        }
      >
        {(data) => (
          <>
            <p className="mb-4 text-sm text-slate-600" aria-live="polite">
              {data.total === 1 ? '1 lesson' : `${data.total} lessons`}
            </p>
            <ul
              className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3"
              aria-busy={list.isPlaceholderData || undefined}
            >
              {data.posts.map((post) => (
                <li key={post.id}>
                  <PostCard post={post} signedIn={Boolean(user)} highlight={words} headingLevel={2} />
                </li>
              ))}
            </ul>
            <Pagination page={page} pages={pages} onChange={setPage} />
          </>
        )}
      </QueryState>
    </PageContainer>
  );
}
