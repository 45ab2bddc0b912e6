import type { Post } from '@district/contracts';
import type { PageFetch } from '@district/nest-common';
import { clip, createLessonPages, lessonPageHead, lessonText } from './lesson-pages';

function post(overrides: Partial<Post> = {}): Post {
  return {
    slug: 'los-colores',
    title: 'Los colores',
    status: 'published',
    content: '<p>Rojo, azul</p>',
    excerpt: 'Learn the colours in Spanish with songs.',
    categoryName: 'Vocabulario',
    featuredImage: '/uploads/4e9a0c.png',
    tags: ['colores'],
    publishedAt: '2026-11-01T10:00:00.000Z',
    metaDescription: '',
    metaKeywords: ['spanish'],
    seoTitle: '',
    ...overrides,
  } as Post;
}

/** A fake of the gateway's fetch: answers by path, and counts the calls (with their options). */
function fakeFetch(
  answers: Record<string, { status: number; body?: unknown; headers?: Record<string, string> }>,
) {
  const calls: string[] = [];
  const options: Array<{ fresh?: boolean } | undefined> = [];
  const fetch = (async (path: string, opts?: { fresh?: boolean }) => {
    calls.push(path);
    options.push(opts);
    return answers[path] ?? { status: 404 };
  }) as PageFetch;
  return { fetch, calls, options };
}

const HOSTILE = '</script><script>alert(1)</script>';

describe('lesson pages (the plug-in content hands the gateway)', () => {
  it('describes home, /blog and /blog/{slug} (the spec’s slug alphabet) only', () => {
    const pages = createLessonPages();
    expect(pages.match('/blog/los-colores')).toBe('los-colores');
    expect(pages.match('/blog/los-colores/')).toBe('los-colores');
    expect([pages.match('/'), pages.match('/blog'), pages.match('/blog/')]).toEqual(['/', '/blog', '/blog']);
    for (const odd of [
      '/blog/Upper-Case',
      '/blog/a/b',
      '/blog/caf%C3%A9',
      '/lessons/x',
      '/admin',
      '//',
      '/index.html',
    ])
      expect([odd, pages.match(odd)]).toEqual([odd, undefined]);
  });

  it('uses the SEO title and description when set, else the title and excerpt, clipped on a word boundary', () => {
    const seo = lessonPageHead(post({ seoTitle: 'Colores', metaDescription: 'Short.' }), {
      siteName: 'Clase',
    });
    expect(seo).toMatchObject({ title: 'Colores · Clase', description: 'Short.', path: '/blog/los-colores' });
    const plain = lessonPageHead(post({ excerpt: 'word '.repeat(100) }), { siteName: 'Clase' });
    expect(plain.title).toBe('Los colores · Clase');
    expect(plain.description.length).toBeLessThanOrEqual(200);
    expect(plain.description.endsWith('word…')).toBe(true);
    expect(clip('  a   b  ', 10)).toBe('a b');
  });

  it('finds a public lesson, says missing for a 404 and unavailable for anything odd', async () => {
    const pages = createLessonPages();
    const { fetch } = fakeFetch({
      '/api/seo/settings': { status: 200, body: { siteName: 'Clase de Español' } },
      '/api/posts/public/los-colores': { status: 200, body: post() },
      '/api/posts/public/broken': { status: 500 },
    });
    expect(await pages.lookup('los-colores', fetch)).toMatchObject({
      kind: 'found',
      head: expect.objectContaining({
        title: 'Los colores · Clase de Español',
        siteName: 'Clase de Español',
        image: '/uploads/4e9a0c.png',
        keywords: ['spanish'],
        section: 'Vocabulario',
        tags: ['colores'],
      }),
    });
    expect(await pages.lookup('gone', fetch)).toEqual({ kind: 'missing' });
    expect(await pages.lookup('broken', fetch)).toEqual({ kind: 'unavailable' });
  });

  it('reads the site name once per 30 seconds, not per page', async () => {
    const pages = createLessonPages();
    const { fetch, calls } = fakeFetch({
      '/api/seo/settings': { status: 200, body: { siteName: 'Clase' } },
      '/api/posts/public/los-colores': { status: 200, body: post() },
    });
    for (let i = 0; i < 5; i++) await pages.lookup('los-colores', fetch);
    expect(calls.filter((c) => c === '/api/seo/settings')).toHaveLength(1);
  });

  it('embeds a lesson as its public answer, and its text (tags dropped) for crawlers', async () => {
    const pages = createLessonPages();
    const lesson = post({
      status: 'published',
      title: HOSTILE,
      content: `<p>Rojo</p><script>alert(1)</script><p>${HOSTILE}</p>`,
    });
    const { fetch } = fakeFetch({ '/api/posts/public/los-colores': { status: 200, body: lesson } });
    const found = await pages.lookup('los-colores', fetch);
    expect(found).toMatchObject({
      kind: 'found',
      initial: { data: { page: 'post', slug: 'los-colores', post: lesson } },
    });
    // Its comments are preloaded with the page's code, at the path the web app asks for.
    expect(found).toMatchObject({ preload: [`/api/posts/${lesson.id}/comments`] });
    if (found.kind !== 'found') throw new Error('not found');
    // The gateway escapes the text; here the markup is already gone from it.
    expect(found.initial?.text.heading).toBe(HOSTILE);
    expect(found.initial?.text.paragraphs?.join(' ')).not.toMatch(/<script|<p>/);
    expect(lessonText(post({ content: '<p>Uno</p><p>Dos</p>' }))).toEqual({
      heading: 'Los colores',
      paragraphs: ['Uno', 'Dos'],
    });
  });

  it('gives crawlers a table row per line with its cells apart, and never runs blocks together (issue #34 item 12)', () => {
    const content =
      '<p>Colombia.</p><p>In Spain</p><table><tr><th>Los colores</th><th>Colors</th></tr><tr><td>Rojo</td><td>Red</td></tr></table>';
    expect(lessonText(post({ content })).paragraphs).toEqual([
      'Colombia.',
      'In Spain',
      'Los colores Colors',
      'Rojo Red',
    ]);
    expect(lessonText(post({ content: '<div><p>a</p>b</div><p>c<br>d</p>' })).paragraphs).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
  });

  it('never embeds a draft: a non-published answer on the public path is a 404, and drafts are left out of lists', async () => {
    const pages = createLessonPages();
    const draft = post({ slug: 'secret', status: 'draft', title: 'Unpublished plan' });
    const published = post({ slug: 'los-colores', status: 'published' });
    const { fetch } = fakeFetch({
      '/api/posts/public/secret': { status: 200, body: draft },
      '/api/posts/public?limit=6': { status: 200, body: [draft, published] },
      '/api/posts/public?limit=9&page=1': {
        status: 200,
        body: [published, draft],
        headers: { 'x-total-count': '2' },
      },
    });
    expect(await pages.lookup('secret', fetch)).toEqual({ kind: 'missing' });
    const home = await pages.lookup('/', fetch);
    expect(JSON.stringify(home)).not.toContain('Unpublished plan');
    expect(home).toMatchObject({
      kind: 'found',
      initial: { data: { page: 'home', limit: 6, posts: [published] } },
    });
    const list = await pages.lookup('/blog', fetch);
    expect(JSON.stringify(list)).not.toContain('Unpublished plan');
    // The dropped draft is not counted either.
    expect(list).toMatchObject({
      initial: { data: { page: 'blog', limit: 9, page1: { posts: [published], total: 1 } } },
    });
  });

  it('embeds the first page of /blog with the total from X-Total-Count, read through the public-list cache', async () => {
    const pages = createLessonPages();
    const posts = Array.from({ length: 9 }, (_, i) => post({ slug: `lesson-${i}`, status: 'published' }));
    const { fetch, calls, options } = fakeFetch({
      '/api/posts/public?limit=9&page=1': { status: 200, body: posts, headers: { 'x-total-count': '23' } },
      '/api/posts/public?limit=6': { status: 200, body: posts.slice(0, 6) },
    });
    const list = await pages.lookup('/blog', fetch);
    expect(list).toMatchObject({ kind: 'found', initial: { data: { page1: { total: 23 } } } });
    if (list.kind !== 'found') throw new Error('not found');
    expect(list.head).toBeUndefined();
    expect(list.initial?.text.links?.map((l) => l.href)).toEqual(posts.map((p) => `/blog/${p.slug}`));
    const home = await pages.lookup('/', fetch);
    expect(home).toMatchObject({ initial: { text: { heading: 'Latest Lessons' } } });
    expect(calls).toEqual(['/api/posts/public?limit=9&page=1', '/api/posts/public?limit=6']);
    expect(options).toEqual([{ fresh: false }, { fresh: false }]);
  });

  it('says unavailable when a list answer is odd, so the plain app loads it itself', async () => {
    const pages = createLessonPages();
    const { fetch } = fakeFetch({
      '/api/posts/public?limit=6': { status: 500 },
      '/api/posts/public?limit=9&page=1': { status: 200, body: { not: 'a list' } },
    });
    expect(await pages.lookup('/', fetch)).toEqual({ kind: 'unavailable' });
    expect(await pages.lookup('/blog', fetch)).toEqual({ kind: 'unavailable' });
  });
});
