import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const postCalls = (fetch: Awaited<ReturnType<typeof renderApp>>['fetch']) =>
  fetch.calls('GET', '/api/posts/public').length;

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
  window.dispatchEvent(new Event('visibilitychange'));
}

describe('list refresh rules (spec section 4)', () => {
  afterEach(() => setVisibility('visible'));

  it('refetches lists every 30 s while the tab is visible, and not while hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fetch } = await renderApp('/', { user: null });
    await screen.findByText('No lessons published yet');
    const first = postCalls(fetch);
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await waitFor(() => expect(postCalls(fetch)).toBe(first + 1));

    act(() => setVisibility('hidden'));
    await act(() => vi.advanceTimersByTimeAsync(90_000));
    expect(postCalls(fetch)).toBe(first + 1);
  });

  it('refetches on window focus once the data is stale', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fetch } = await renderApp('/', { user: null });
    await screen.findByText('No lessons published yet');
    const first = postCalls(fetch);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(postCalls(fetch)).toBe(first + 1));
  });

  it('drops the previous user’s cached admin data on logout', async () => {
    const admin = personas.admin();
    const { user, queryClient } = await renderApp('/admin/users', {
      user: admin,
      setup: (f) => {
        f.on('GET', '/api/users', { json: [admin] });
        f.on('POST', '/api/auth/logout', { status: 204 });
      },
    });
    await screen.findByText(admin.email);
    // Every list under ['admin', 'users'] (the screen's searched pages, ADR 0042), not one exact key.
    const held = () => queryClient.getQueriesData({ queryKey: ['admin', 'users'] }).filter(([, d]) => d);
    expect(held().length).toBeGreaterThan(0);
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Logout' }),
    );
    await waitFor(() => expect(held()).toEqual([]));
  });
});
