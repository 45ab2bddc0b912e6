import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { createQueryClient } from '@/lib/react-query';
import { QueryState, type QueryStateProps } from './query-state';

type Props = Omit<QueryStateProps<string[]>, 'query' | 'children'>;

/** A real query over `load`, so the states come from TanStack and Try Again really refetches. */
function Screen({ load, ...props }: Props & { load: () => Promise<string[]> }) {
  const query = useQuery({ queryKey: ['items'], queryFn: load });
  return (
    <QueryState query={query} {...props}>
      {(items) => (
        <ul aria-label="Items">
          {items.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

function renderScreen(props: Props & { load: () => Promise<string[]> }) {
  const client = createQueryClient({ retry: false });
  return render(
    <QueryClientProvider client={client}>
      <Screen {...props} />
    </QueryClientProvider>,
  );
}

const refused = (message: string) => new ApiError(500, message, true);

describe('QueryState', () => {
  it('announces the loading label, then shows the data', async () => {
    let resolve!: (items: string[]) => void;
    renderScreen({ load: () => new Promise((r) => (resolve = r)), loading: 'Loading items…' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading items…');
    resolve(['one', 'two']);
    const list = await screen.findByRole('list', { name: 'Items' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['one', 'two']);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it("shows the server's message under the title, and Try Again refetches until the data comes", async () => {
    const load = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(refused('The database is resting'))
      .mockResolvedValueOnce(['back']);
    const user = userEvent.setup();
    renderScreen({ load, errorTitle: 'Failed to fetch items', errorText: 'Please try again in a moment.' });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch items');
    expect(alert).toHaveTextContent('The database is resting');
    expect(alert).not.toHaveTextContent('Please try again in a moment.');
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('back')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("falls back to the spec's text when the server sent no message, in the screen's retry wording", async () => {
    renderScreen({
      load: () => Promise.reject(new ApiError(0, 'Network error.', false)),
      errorText: 'Failed to fetch items',
      retryLabel: 'Try again',
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch items');
    expect(alert).not.toHaveTextContent('Network error.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('lets a function word the error, and leaves the button out when the spec asks for a refresh', async () => {
    renderScreen({
      load: () => Promise.reject(new ApiError(403, 'Forbidden', true)),
      errorText: (err) => (err instanceof ApiError && err.status === 403 ? 'Access denied.' : 'Other'),
      retry: false,
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Access denied.');
    expect(within(alert).queryByRole('button')).not.toBeInTheDocument();
  });

  it("puts the retry button in the screen's own error view", async () => {
    const load = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(refused('x'))
      .mockResolvedValueOnce(['fresh']);
    const user = userEvent.setup();
    renderScreen({
      load,
      errorView: ({ error, retry }) => (
        <section aria-label="Unavailable">
          <h2>{error instanceof ApiError ? `Down (${error.status})` : 'Down'}</h2>
          {retry('mt-5')}
        </section>
      ),
    });
    const panel = await screen.findByRole('region', { name: 'Unavailable' });
    expect(within(panel).getByRole('heading')).toHaveTextContent('Down (500)');
    const button = within(panel).getByRole('button', { name: 'Try Again' });
    expect(button).toHaveClass('mt-5');
    await user.click(button);
    expect(await screen.findByText('fresh')).toBeInTheDocument();
  });

  it('shows the empty state for an empty answer, and the custom loading view', async () => {
    let resolve!: (items: string[]) => void;
    renderScreen({
      load: () => new Promise((r) => (resolve = r)),
      loadingView: <p>Loading items...</p>,
      empty: <p>No items yet.</p>,
    });
    expect(screen.getByText('Loading items...')).toBeInTheDocument();
    resolve([]);
    expect(await screen.findByText('No items yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('keeps the last answer on screen when a background refetch fails', async () => {
    const load = vi
      .fn<() => Promise<string[]>>()
      .mockResolvedValueOnce(['kept'])
      .mockRejectedValueOnce(refused('gone'));
    const client = createQueryClient({ retry: false });
    render(
      <QueryClientProvider client={client}>
        <Screen load={load} errorTitle="Failed" />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('kept')).toBeInTheDocument();
    await client.refetchQueries({ queryKey: ['items'] });
    expect(client.getQueryState(['items'])?.status).toBe('error');
    expect(screen.getByText('kept')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
