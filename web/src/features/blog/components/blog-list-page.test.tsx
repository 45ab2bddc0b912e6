import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeCategory, makePost } from '@/testing/content-fixtures';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

const grammar = makeCategory({ name: 'Grammar', slug: 'grammar' });
const culture = makeCategory({ name: 'Culture', slug: 'culture' });

const query = (path: string) => new URLSearchParams(path.split('?')[1] ?? '');
const listCalls = (fetch: Awaited<ReturnType<typeof renderApp>>['fetch']) =>
  fetch.calls('GET', '/api/posts/public').map((r) => query(r.path));

function setup(
  posts = [makePost({ title: 'Ser y estar', excerpt: 'Two verbs: ser and estar.' })],
  total?: number,
) {
  return (f: Awaited<ReturnType<typeof renderApp>>['fetch']) => {
    f.on('GET', '/api/categories', { json: [culture, grammar] });
    f.on('GET', '/api/posts/public', {
      json: posts,
      headers: { 'X-Total-Count': String(total ?? posts.length) },
    });
  };
}

describe('blog list (spec section 2)', { timeout: 20_000 }, () => {
  it('is public and lists the lessons with the category filter', async () => {
    await renderApp('/blog', { user: null, setup: setup() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Lessons' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Ser y estar' })).toBeInTheDocument();
    // The outline never skips a level (axe heading-order): cards sit right under the page's h1.
    expect(screen.queryAllByRole('heading', { level: 3 })).toEqual([]);
    const select = screen.getByLabelText('Category');
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['All categories', 'Culture', 'Grammar']),
    );
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
  });

  it('Read More goes to third-party sign-in when signed out and to the post when signed in', async () => {
    const post = makePost({ slug: 'los-colores', title: 'Los colores' });
    const view = await renderApp('/blog', { user: null, setup: setup([post]) });
    expect(await screen.findByRole('link', { name: 'Read More: Los colores' })).toHaveAttribute(
      'href',
      '/api/auth/google',
    );
    view.unmount();
    const { user, router } = await renderApp('/blog', { user: personas.student(), setup: setup([post]) });
    await user.click(await screen.findByRole('link', { name: 'Read More: Los colores' }));
    expect(router.state.location.pathname).toBe('/blog/los-colores');
  });

  it('searches with q and highlights the words only after typing stops for 300 ms', async () => {
    const { user, fetch } = await renderApp('/blog', { user: null, setup: setup() });
    await screen.findByRole('heading', { level: 2, name: 'Ser y estar' });
    await user.click(screen.getByLabelText('Search lessons'));
    await user.paste('ser');
    // Straight after the input nothing is highlighted and no search was sent yet.
    expect(document.querySelector('mark')).toBeNull();
    expect(listCalls(fetch).some((q) => q.has('q'))).toBe(false);
    await waitFor(() => expect(document.querySelectorAll('mark').length).toBeGreaterThan(0));
    expect([...document.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Ser', 'ser']);
    // The highlight and the search share the 300 ms delay; the request may be recorded a tick after the marks.
    await waitFor(() => expect(listCalls(fetch).filter((q) => q.get('q') === 'ser')).toHaveLength(1));
  });

  it('filters by category slug and starts again from page 1', async () => {
    const { user, fetch } = await renderApp('/blog', { user: null, setup: setup([makePost()], 20) });
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(listCalls(fetch).at(-1)?.get('page')).toBe('2'));
    await waitFor(() => expect(screen.getByLabelText('Category')).toHaveTextContent('Grammar'));
    await user.selectOptions(screen.getByLabelText('Category'), 'grammar');
    await waitFor(() => expect(listCalls(fetch).at(-1)?.get('category')).toBe('grammar'));
    expect(listCalls(fetch).at(-1)?.get('page')).toBe('1');
  });

  it('pages with limit/page and the X-Total-Count header', async () => {
    const { user, fetch } = await renderApp('/blog', { user: null, setup: setup([makePost()], 20) });
    expect(await screen.findByText('20 lessons')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Page 3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Page 4' })).not.toBeInTheDocument();
    expect(listCalls(fetch).at(-1)?.get('limit')).toBe('9');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(listCalls(fetch).at(-1)?.get('page')).toBe('2'));
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('says so when nothing matches', async () => {
    const { user, fetch } = await renderApp('/blog', { user: null, setup: setup() });
    await screen.findByRole('heading', { level: 2, name: 'Ser y estar' });
    fetch.on('GET', '/api/posts/public', { json: [], headers: { 'X-Total-Count': '0' } });
    await user.type(screen.getByLabelText('Search lessons'), 'zzz');
    expect(await screen.findByText('No lessons match your search')).toBeInTheDocument();
  });
});
