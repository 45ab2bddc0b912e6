import type { Post } from '@district/contracts';
import type { PageFetch } from '@district/nest-common';
import { clip, createLessonPages, lessonPageHead } from './lesson-pages';

function post(overrides: Partial<Post> = {}): Post {
  return {
    slug: 'los-colores',
    title: 'Los colores',
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

/** A fake of the gateway's fetch: answers by path, and counts the calls. */
function fakeFetch(answers: Record<string, { status: number; body?: unknown }>) {
  const calls: string[] = [];
  const fetch = (async (path: string) => {
    calls.push(path);
    return answers[path] ?? { status: 404 };
  }) as PageFetch;
  return { fetch, calls };
}

describe('lesson pages (the plug-in content hands the gateway)', () => {
  it('describes /blog/{slug} only, with the spec’s slug alphabet', () => {
    const pages = createLessonPages();
    expect(pages.match('/blog/los-colores')).toBe('los-colores');
    expect(pages.match('/blog/los-colores/')).toBe('los-colores');
    for (const odd of ['/blog/Upper-Case', '/blog/a/b', '/blog/caf%C3%A9', '/blog/', '/lessons/x'])
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
    expect(await pages.lookup('los-colores', fetch)).toEqual({
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
});
