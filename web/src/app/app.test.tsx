import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, useNavigate, useRoutes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makePost } from '@/testing/content-fixtures';
import { stubFetch } from '@/testing/fetch-stub';
import { App } from './index';
import { RouteErrorBoundary } from './routes/route-error';
import { ScrollRestoration } from './scroll-restoration';

afterEach(() => window.history.replaceState(null, '', '/'));

describe('the browser app (declarative router, ADR 0023)', () => {
  it("starts at the address bar's page with the embedded lessons, and follows links", async () => {
    const fetch = stubFetch();
    fetch.on('GET', '/api/auth/me', { status: 401, json: { statusCode: 401, message: 'Unauthorized' } });
    fetch.on('GET', '/api/categories', { json: [] });
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = 'initial-data';
    script.textContent = JSON.stringify({
      page: 'home',
      limit: 6,
      posts: [makePost({ title: 'Embedded lesson' })],
    });
    document.body.append(script);
    render(<App />);
    expect(await screen.findByRole('heading', { level: 3, name: 'Embedded lesson' })).toBeInTheDocument();
    expect(fetch.calls('GET', '/api/posts/public')).toEqual([]);
    await userEvent.click(screen.getAllByRole('link', { name: 'View All Posts' })[0]!);
    await waitFor(() => expect(window.location.pathname).toBe('/blog'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Lessons' })).toBeInTheDocument();
  });

  it('shows the route error page when a page throws, and clears it on the next page', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Broken(): never {
      throw new Error('render failed');
    }
    const { rerender } = render(
      <MemoryRouter>
        <RouteErrorBoundary locationKey="first">
          <Broken />
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    rerender(
      <MemoryRouter>
        <RouteErrorBoundary locationKey="second">
          <p>Fine again</p>
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByText('Fine again')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
  });

  it('starts a new page at the top and returns to where a page was on back', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    function Back() {
      const navigate = useNavigate();
      return <button onClick={() => void navigate(-1)}>Back</button>;
    }
    function Pages() {
      return useRoutes([
        { path: '/', element: <Link to="/next">Next</Link> },
        { path: '/next', element: <Back /> },
      ]);
    }
    render(
      <MemoryRouter>
        <ScrollRestoration />
        <Pages />
      </MemoryRouter>,
    );
    const scrolledTo = (y: number) => {
      Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
      act(() => {
        window.dispatchEvent(new Event('scroll'));
      });
    };
    scrolledTo(640);
    await userEvent.click(screen.getByRole('link', { name: 'Next' }));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    scrolledTo(90);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(scrollTo).toHaveBeenLastCalledWith(0, 640));
    scrolledTo(0);
  });
});
