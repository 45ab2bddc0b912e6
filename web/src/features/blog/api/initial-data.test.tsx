import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makePost } from '@/testing/content-fixtures';
import { INITIAL_DATA_ELEMENT_ID } from './initial-data';

/** What the gateway writes: JSON with <, >, &, U+2028/2029 as \u escapes (gateway/src/page-meta.ts jsonForScript). */
function asEmbedded(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const HOSTILE = '</script><img src=x onerror="window.__pwned=1"> & \u2028';

describe('first-screen data from the first HTML (issue #15)', () => {
  it('home paints the embedded lessons without asking /api/posts/public, a hostile title staying text', async () => {
    const posts = [makePost({ title: HOSTILE, slug: 'hostile' }), makePost({ title: 'Los colores' })];
    const { fetch } = await renderApp('/', {
      user: null,
      embeddedJson: asEmbedded({ page: 'home', limit: 6, posts }),
    });
    const lessons = await screen.findByRole('region', { name: 'Latest Lessons' });
    // Already there on the page's first render: no loading state, no list request.
    expect(within(lessons).queryByRole('status', { name: 'Loading lessons' })).toBeNull();
    expect(within(lessons).getByRole('heading', { name: 'Los colores' })).toBeInTheDocument();
    const headings = within(lessons)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(headings).toContain(HOSTILE);
    expect(document.querySelector('img[src="x"]')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    expect(fetch.calls('GET', '/api/posts/public')).toEqual([]);
    // Read once: the element is gone, so a later start cannot reuse it.
    expect(document.getElementById(INITIAL_DATA_ELEMENT_ID)).toBeNull();
  });

  it('/blog shows the embedded first page and its total without a request', async () => {
    const posts = Array.from({ length: 9 }, (_, i) => makePost({ title: `Embedded ${i}` }));
    const { fetch } = await renderApp('/blog', {
      user: null,
      embeddedJson: asEmbedded({ page: 'blog', limit: 9, page1: { posts, total: 23 } }),
      setup: (f) => f.on('GET', '/api/categories', { json: [] }),
    });
    expect(await screen.findByText('23 lessons')).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2, name: /^Embedded / })).toHaveLength(9);
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toBeInTheDocument();
    expect(fetch.calls('GET', '/api/posts/public')).toEqual([]);
  });

  it('a lesson page shows the embedded lesson to a signed-in reader without fetching it', async () => {
    const lesson = makePost({ slug: 'los-colores', title: 'Los colores', content: '<p>Rojo y azul</p>' });
    const { fetch } = await renderApp('/blog/los-colores', {
      user: personas.student(),
      embeddedJson: asEmbedded({ page: 'post', slug: 'los-colores', post: lesson }),
      setup: (f) =>
        f
          .on('GET', /^\/api\/posts\/[^/]+\/comments$/, { json: [] })
          .on('GET', /^\/api\/comments/, { json: [] }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Los colores' })).toBeInTheDocument();
    expect(screen.getByText('Rojo y azul')).toBeInTheDocument();
    expect(fetch.calls('GET', '/api/posts/public/los-colores')).toEqual([]);
  });

  it.each([
    ['not JSON', '{"page":'],
    ['another limit', asEmbedded({ page: 'home', limit: 5, posts: [makePost({ title: 'Wrong limit' })] })],
    [
      'a draft',
      asEmbedded({ page: 'home', limit: 6, posts: [makePost({ title: 'Draft', status: 'draft' })] }),
    ],
    ['a post that is not one', asEmbedded({ page: 'home', limit: 6, posts: [{ title: 'Half a post' }] })],
  ])('ignores %s and fetches as before', async (_what, json) => {
    const { fetch } = await renderApp('/', {
      user: null,
      embeddedJson: json,
      setup: (f) => f.on('GET', '/api/posts/public', { json: [makePost({ title: 'Fetched' })] }),
    });
    expect(await screen.findByRole('heading', { name: 'Fetched' })).toBeInTheDocument();
    expect(fetch.calls('GET', '/api/posts/public')).toHaveLength(1);
  });
});
