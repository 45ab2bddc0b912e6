import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PageLookup, PagePlugin } from '@district/nest-common';
import { rawRequest as request } from '@district/nest-common/testing';
import {
  ROUTE_PRELOADS_FILE,
  RoutePreloads,
  RoutePreloadsError,
  fetchPreloadTags,
  injectPreloads,
  renderPreloadTags,
} from '../src/route-preloads';
import { startGateway, type Harness } from './support/gateway-harness';
import { BUILT_INDEX as INDEX } from './support/test-pages';

/** What web/vite.config.ts writes for web/src/app/route-preloads.ts (shortened). */
const BUILD = {
  routes: [
    {
      path: '/blog',
      modules: ['/assets/blog-list-page-a1.js', '/assets/categories-b2.js'],
      fetch: ['/api/categories'],
    },
    { path: '/blog/:slug', modules: ['/assets/post-page-c3.js', '/assets/comments-d4.js'], fetch: [] },
    { path: '/educational-tools', modules: ['/assets/tools-hub-page-e5.js'] },
    { path: '/text-quizzes', modules: ['/assets/quizzes-page-f6.js'], fetch: ['/api/text-quizzes'] },
  ],
};

const modulesIn = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]*)" \/>/g)].map((m) => m[1]);
const fetchesIn = (html: string) =>
  [...html.matchAll(/<link rel="preload" href="([^"]*)" as="fetch" crossorigin="use-credentials" \/>/g)].map(
    (m) => m[1],
  );
/** The tags must be in <head>, where the preload scanner finds them before the body. */
const head = (html: string) => html.slice(0, html.indexOf('</head>'));

describe('route preloads (ADR 0024)', () => {
  describe('the table', () => {
    const table = RoutePreloads.parse(BUILD);

    it("gives each route its own chunks and requests, by the path's segments", () => {
      expect(modulesIn(table.tagsFor('/blog') ?? '')).toEqual([
        '/assets/blog-list-page-a1.js',
        '/assets/categories-b2.js',
      ]);
      expect(fetchesIn(table.tagsFor('/blog') ?? '')).toEqual(['/api/categories']);
      for (const lesson of [
        '/blog/los-colores',
        '/blog/los-colores/',
        '/blog/00000000-0000-4000-8000-0000000b0006',
      ]) {
        expect(modulesIn(table.tagsFor(lesson) ?? '')).toEqual([
          '/assets/post-page-c3.js',
          '/assets/comments-d4.js',
        ]);
        expect(fetchesIn(table.tagsFor(lesson) ?? '')).toEqual([]);
      }
      expect(modulesIn(table.tagsFor('/educational-tools') ?? '')).toEqual(['/assets/tools-hub-page-e5.js']);
      expect(fetchesIn(table.tagsFor('/text-quizzes') ?? '')).toEqual(['/api/text-quizzes']);
    });

    it('has nothing for a path no route of the build describes', () => {
      for (const other of [
        '/',
        '/admin',
        '/blog/a/b',
        '/blogs',
        '/Blog',
        '/educational-tools/x',
        '/text-quizzes-old',
        '/assets/x.js',
      ])
        expect([other, table.tagsFor(other)]).toEqual([other, undefined]);
      expect(RoutePreloads.none.tagsFor('/blog')).toBeUndefined();
    });

    it('refuses a file with anything but same-site chunks and /api requests, or an odd pattern', () => {
      const bad = [
        null,
        [],
        { routes: {} },
        { routes: [{ path: 'blog', modules: [] }] },
        { routes: [{ path: '/blog/<x>', modules: [] }] },
        { routes: [{ path: '/blog', modules: ['https://cdn.example/x.js'] }] },
        { routes: [{ path: '/blog', modules: ['//evil.example/assets/x.js'] }] },
        { routes: [{ path: '/blog', modules: ['/assets/x.js" onload="alert(1)'] }] },
        { routes: [{ path: '/blog', modules: '/assets/x.js' }] },
        { routes: [{ path: '/blog', modules: [], fetch: ['javascript:alert(1)'] }] },
        { routes: [{ path: '/blog', modules: [], fetch: ['/api/x"><script>'] }] },
        { routes: [{ path: '/blog', modules: [], fetch: ['https://other.example/api/x'] }] },
      ];
      for (const value of bad) expect(() => RoutePreloads.parse(value)).toThrow(RoutePreloadsError);
    });

    it('escapes every value it writes, and writes each URL once', () => {
      const tags = renderPreloadTags(
        ['/assets/a.js', '/assets/a.js', '/x"><script>alert(1)</script>'],
        ["/api/a'b&c", "/api/a'b&c"],
      );
      expect(tags).not.toContain('<script');
      expect(tags).toContain('href="/x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
      expect(tags).toContain('href="/api/a&#39;b&amp;c"');
      expect(tags.match(/<link /g)).toHaveLength(3);
      expect(
        fetchPreloadTags(['/api/posts/1/comments', 'https://evil.example/api', '/api/"x"', '//evil/api']),
      ).toBe('<link rel="preload" href="/api/posts/1/comments" as="fetch" crossorigin="use-credentials" />');
      expect(fetchPreloadTags(['/login'])).toBeUndefined();
      expect(fetchPreloadTags(undefined)).toBeUndefined();
      expect(injectPreloads('<p>no head</p>', tags)).toBe('<p>no head</p>');
    });
  });

  describe('through the gateway', () => {
    let workDir: string;
    let dist: string;
    let harness: Harness;
    let lookup: PageLookup;
    const plugin: PagePlugin = {
      match: (pathname) => /^\/blog\/([a-z-]+)$/.exec(pathname)?.[1],
      lookup: async () => lookup,
    };

    async function writeBuild(index: string, preloads: unknown): Promise<void> {
      await writeFile(path.join(dist, 'index.html'), index);
      await writeFile(
        path.join(dist, ROUTE_PRELOADS_FILE),
        typeof preloads === 'string' ? preloads : JSON.stringify(preloads),
      );
      // A new build: index.html's mtime changes, which is when the table is read again.
      const when = new Date(Date.now() + Math.floor(Math.random() * 1e6));
      await utimes(path.join(dist, 'index.html'), when, when);
    }

    beforeAll(async () => {
      workDir = await mkdtemp(path.join(tmpdir(), 'gateway-preloads-'));
      dist = path.join(workDir, 'dist');
      await mkdir(path.join(dist, '.vite'), { recursive: true });
      await writeBuild(INDEX, BUILD);
      harness = await startGateway({ upstreams: {}, staticDir: dist, pagePlugins: [plugin] });
    });

    afterAll(async () => {
      await harness.close();
      await rm(workDir, { recursive: true, force: true });
    });

    it("adds a client route's tags to its page: the same bytes for every visitor, revalidated by ETag", async () => {
      const res = await request(harness.base, '/text-quizzes');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(modulesIn(head(res.text))).toEqual(['/assets/quizzes-page-f6.js']);
      expect(fetchesIn(head(res.text))).toEqual(['/api/text-quizzes']);
      // index.html is otherwise unchanged: its own tags, once.
      expect(res.text.replace(/\s*<link rel="(module)?preload"[^>]*\/>/g, '')).toBe(
        INDEX.replace(/\s*<\/head>/, '\n  </head>'),
      );
      const signedIn = await request(harness.base, '/text-quizzes', {
        headers: { cookie: 'session=secret-token' },
      });
      expect(signedIn.text).toBe(res.text);
      expect(signedIn.headers.etag).toBe(res.headers.etag);
      const again = await request(harness.base, '/text-quizzes', {
        headers: { 'if-none-match': String(res.headers.etag) },
      });
      expect(again.status).toBe(304);
      expect((await request(harness.base, '/educational-tools')).headers.etag).not.toBe(res.headers.etag);
    });

    it('serves index.html as built for a route the build does not describe', async () => {
      for (const other of ['/', '/admin', '/profile', '/blog/a/b']) {
        const res = await request(harness.base, other);
        expect([other, res.status, res.text]).toEqual([other, 200, INDEX]);
      }
    });

    it("adds a plug-in page's route tags and its own fetch preloads, and none to a missing page", async () => {
      lookup = { kind: 'found', preload: ['/api/posts/p-1/comments', 'https://evil.example/x'] };
      const found = await request(harness.base, '/blog/los-colores');
      expect(found.status).toBe(200);
      expect(modulesIn(head(found.text))).toEqual(['/assets/post-page-c3.js', '/assets/comments-d4.js']);
      expect(fetchesIn(head(found.text))).toEqual(['/api/posts/p-1/comments']);
      expect(found.text).not.toContain('evil.example');
      lookup = { kind: 'missing' };
      const missing = await request(harness.base, '/blog/gone');
      expect(missing.status).toBe(404);
      expect(missing.text).not.toMatch(/rel="(module)?preload"/);
    });

    it('never serves the build file itself', async () => {
      expect((await request(harness.base, `/${ROUTE_PRELOADS_FILE}`)).status).toBe(404);
    });

    it('reads the table again with a new build, and serves pages without tags when it is unreadable', async () => {
      await writeBuild(INDEX, {
        routes: [{ path: '/text-quizzes', modules: ['/assets/quizzes-page-new.js'] }],
      });
      expect(modulesIn((await request(harness.base, '/text-quizzes')).text)).toEqual([
        '/assets/quizzes-page-new.js',
      ]);
      expect((await request(harness.base, '/blog/los-colores')).text).not.toContain('modulepreload');

      const warnings = harness.logLines.length;
      await writeBuild(INDEX, '{ not json');
      const res = await request(harness.base, '/text-quizzes');
      expect([res.status, res.text]).toEqual([200, INDEX]);
      expect(harness.logLines.slice(warnings)).toContainEqual(
        expect.objectContaining({ msg: 'route preloads unreadable: pages are served without them' }),
      );
      await writeBuild(INDEX, BUILD);
      expect(modulesIn((await request(harness.base, '/text-quizzes')).text)).toEqual([
        '/assets/quizzes-page-f6.js',
      ]);
    });
  });
});
