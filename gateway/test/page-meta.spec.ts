import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Post } from '@district/contracts';
import type { PageHead } from '@district/nest-common';
import { injectHead, renderHeadTags } from '../src/page-meta';
import { startFakeService, type FakeService } from './support/fake-service';
import { PUBLIC_ORIGIN, startGateway, type Harness } from './support/gateway-harness';
import { rawRequest as request } from '@district/nest-common/testing';
import { testLessonPages } from './support/test-pages';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Lessons, classroom tools and interactive learning." />
    <title>District Learning</title>
  </head>
  <body><div id="root"></div></body>
</html>
`;

function post(overrides: Partial<Post> = {}): Post {
  return {
    id: '0b8f7d2e-5a77-4c1e-9d4c-1f4d3e8a6b21',
    slug: 'los-colores',
    title: 'Los colores',
    content: '<p>Rojo, azul</p>',
    excerpt: 'Learn the colours in Spanish with songs.',
    categoryId: null,
    categoryName: 'Vocabulario',
    status: 'published',
    featuredImage: '/uploads/4e9a0c.png',
    tags: ['colores', 'vocabulario'],
    authorId: 'a',
    authorName: 'Ms. Teacher',
    publishedAt: '2026-11-01T10:00:00.000Z',
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    metaDescription: '',
    metaKeywords: ['spanish', 'colours'],
    seoTitle: '',
    focusKeyword: '',
    readTime: 1,
    ...overrides,
  } as Post;
}

/** The head's tags as attribute maps (the gateway writes them, one per line, with double-quoted values). */
function headOf(html: string) {
  const head = /<head>([\s\S]*)<\/head>/.exec(html)?.[1] ?? '';
  const tags = [...head.matchAll(/<(meta|link)\s([^>]*?)\s*\/?>/g)].map(([, tag, attrs]) => ({
    tag,
    attrs: Object.fromEntries([...attrs.matchAll(/([a-z:-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v])),
  }));
  return {
    titles: [...head.matchAll(/<title>([\s\S]*?)<\/title>/g)].map((m) => m[1]),
    meta: (attr: 'name' | 'property', key: string) =>
      tags.filter((t) => t.tag === 'meta' && t.attrs[attr] === key).map((t) => t.attrs.content),
    canonical: tags.find((t) => t.tag === 'link' && t.attrs.rel === 'canonical')?.attrs.href,
  };
}

function pageHead(overrides: Partial<PageHead> = {}): PageHead {
  return {
    title: 'Los colores · Clase',
    description: 'Learn the colours in Spanish with songs.',
    path: '/blog/los-colores',
    siteName: 'Clase',
    image: '/uploads/4e9a0c.png',
    keywords: [],
    tags: [],
    ...overrides,
  };
}

describe('page head rendering', () => {
  it('escapes everything a plug-in hands over', () => {
    const head = pageHead({
      title: 'Colours <script>alert(1)</script> · Clase',
      description: 'A "quoted" & <b>bold</b> summary',
    });
    const html = injectHead(INDEX, renderHeadTags(head, 'https://learn.example'));
    expect(html).not.toContain('<script>');
    const parsed = headOf(html);
    expect(parsed.titles).toEqual(['Colours &lt;script&gt;alert(1)&lt;/script&gt; · Clase']);
    expect(parsed.meta('name', 'description')).toEqual([
      'A &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; summary',
    ]);
  });

  it('refuses non-http preview images and makes URLs absolute against the configured origin only', () => {
    const bad = headOf(
      injectHead(INDEX, renderHeadTags(pageHead({ image: 'javascript:alert(1)' }), 'https://a.b')),
    );
    expect(bad.meta('property', 'og:image')).toEqual([]);
    expect(bad.meta('name', 'twitter:card')).toEqual(['summary']);
    const good = headOf(injectHead(INDEX, renderHeadTags(pageHead(), 'https://a.b/')));
    expect(good.canonical).toBe('https://a.b/blog/los-colores');
    expect(good.meta('property', 'og:image')).toEqual(['https://a.b/uploads/4e9a0c.png']);
  });
});

describe('GET /blog/{slug} through the gateway', () => {
  let workDir: string;
  let content: FakeService;
  let harness: Harness;
  let settingsReads = 0;
  const answers = new Map<string, { status: number; body?: unknown }>();

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'gateway-meta-'));
    await mkdir(path.join(workDir, 'dist'));
    await writeFile(path.join(workDir, 'dist', 'index.html'), INDEX);
    content = await startFakeService('content');
    content.override = (req, res) => {
      if (req.url === '/api/seo/settings') settingsReads++;
      const answer = answers.get(req.url ?? '') ?? { status: 404, body: { message: 'Post not found' } };
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer.body ?? {}));
      return true;
    };
    answers.set('/api/seo/settings', { status: 200, body: { siteName: 'Clase de Español' } });
    answers.set('/api/posts/public/los-colores', { status: 200, body: post() });
    harness = await startGateway({
      upstreams: { content: [content.url] },
      staticDir: path.join(workDir, 'dist'),
      pagePlugins: [testLessonPages()],
    });
  });

  afterAll(async () => {
    await harness.close();
    await content.kill();
    await rm(workDir, { recursive: true, force: true });
  });

  it("puts the lesson's title, description, canonical URL and Open Graph tags in the page", async () => {
    const res = await request(harness.base, '/blog/los-colores');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const head = headOf(res.text);
    expect(head.titles).toEqual(['Los colores · Clase de Español']);
    expect(head.meta('name', 'description')).toEqual(['Learn the colours in Spanish with songs.']);
    expect(head.canonical).toBe(`${PUBLIC_ORIGIN}/blog/los-colores`);
    expect(head.meta('property', 'og:type')).toEqual(['article']);
    expect(head.meta('property', 'og:title')).toEqual(['Los colores · Clase de Español']);
    expect(head.meta('property', 'og:url')).toEqual([`${PUBLIC_ORIGIN}/blog/los-colores`]);
    expect(head.meta('property', 'og:image')).toEqual([`${PUBLIC_ORIGIN}/uploads/4e9a0c.png`]);
    expect(head.meta('property', 'og:site_name')).toEqual(['Clase de Español']);
    expect(head.meta('property', 'article:tag')).toEqual(['colores', 'vocabulario']);
    expect(head.meta('name', 'twitter:card')).toEqual(['summary_large_image']);
    expect(head.meta('name', 'keywords')).toEqual(['spanish, colours']);
    // The app itself is untouched.
    expect(res.text).toContain('<div id="root"></div>');
  });

  it('answers 304 to a revalidation of the same page, and the new title after an edit', async () => {
    const first = await request(harness.base, '/blog/los-colores');
    const etag = String(first.headers.etag);
    expect(
      (await request(harness.base, '/blog/los-colores', { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    answers.set('/api/posts/public/los-colores', { status: 200, body: post({ title: 'Los colores (2)' }) });
    const changed = await request(harness.base, '/blog/los-colores', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(headOf(changed.text).titles).toEqual(['Los colores (2) · Clase de Español']);
    answers.set('/api/posts/public/los-colores', { status: 200, body: post() });
  });

  it('answers 404 with the app and noindex for a lesson that is not public', async () => {
    const res = await request(harness.base, '/blog/not-published');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<div id="root"></div>');
    expect(headOf(res.text).meta('name', 'robots')).toEqual(['noindex']);
  });

  it('serves the plain app when content fails, and never asks content about odd paths', async () => {
    answers.set('/api/posts/public/broken', { status: 500, body: { message: 'boom' } });
    const broken = await request(harness.base, '/blog/broken');
    expect(broken.status).toBe(200);
    expect(broken.text).toBe(INDEX);
    const before = content.requests.length;
    for (const odd of ['/blog/Upper-Case', '/blog/a/b', '/blog/caf%C3%A9', '/blog/x%3Fy'])
      expect((await request(harness.base, odd)).status).toBe(200);
    expect(content.requests.length).toBe(before);
  });

  it('asks the service that declares the paths the plug-in reads, and serves the plain app when none does or no plug-in is given', async () => {
    const posts = {
      path: '/api/posts',
      match: 'tree',
      bodyLimit: 'default',
      sample: '/api/posts/x',
    } as const;
    const seo = { ...posts, path: '/api/seo', sample: '/api/seo/settings' };
    // The plug-in's calls go wherever the route table sends them.
    const renamed = await startGateway({
      services: [{ name: 'lessons', routes: [posts, seo] }],
      upstreams: { lessons: [content.url] },
      staticDir: path.join(workDir, 'dist'),
      pagePlugins: [testLessonPages()],
    });
    const none = await startGateway({
      services: [],
      upstreams: {},
      staticDir: path.join(workDir, 'dist'),
      pagePlugins: [testLessonPages()],
    });
    try {
      const found = await request(renamed.base, '/blog/los-colores');
      expect(headOf(found.text).titles).toEqual(['Los colores · Clase de Español']);
      const plain = await request(none.base, '/blog/los-colores');
      expect([plain.status, plain.text]).toEqual([200, INDEX]);
      // The gateway itself knows no page: without the plug-in, a lesson's path is the plain app.
      const before = content.requests.length;
      const bare = await startGateway({
        upstreams: { content: [content.url] },
        staticDir: path.join(workDir, 'dist'),
      });
      try {
        const page = await request(bare.base, '/blog/los-colores');
        expect([page.status, page.text]).toEqual([200, INDEX]);
        expect(content.requests.length).toBe(before);
      } finally {
        await bare.close();
      }
    } finally {
      await renamed.close();
      await none.close();
    }
  });

  it('reads the site name once per 30 seconds, not per page', async () => {
    const before = settingsReads;
    for (let i = 0; i < 5; i++) await request(harness.base, '/blog/los-colores');
    expect(settingsReads - before).toBe(0);
  });
});
