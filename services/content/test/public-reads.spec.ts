import { Subjects, TOTAL_COUNT_HEADER, type Category, type Post } from '@district/contracts';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { startContent, type ContentTestApp } from './support/content-app';
import { parseXml } from './support/dom';

let app: ContentTestApp;
let admin: HttpClient;
let category: Category;
const published: Post[] = [];

beforeAll(async () => {
  app = await startContent();
  admin = (await app.signIn('admin')).client;
  category = (await admin.post<Category>('/api/categories', { name: 'Verbos' })).body;
  for (let i = 0; i < 25; i++) {
    const res = await admin.post<Post>('/api/posts', {
      title: i % 5 === 0 ? `Subjuntivo lesson ${i}` : `Lesson ${i}`,
      content: `<p>Practice number ${i} about ${i % 2 ? 'animales' : 'colores'}</p>`,
      status: 'published',
      categoryId: i % 3 === 0 ? category.id : null,
    });
    published.push(res.body);
  }
  await admin.post('/api/posts', { title: 'Hidden draft subjuntivo' });
});
afterAll(async () => {
  await app?.close();
});

describe('GET /api/posts/public', () => {
  it('pages through published posts newest first, without overlap, with the total in a header', async () => {
    const anon = app.client();
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await anon.get<Post[]>(`/api/posts/public?limit=10&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe('25');
      seen.push(...res.body.map((p) => p.id));
    }
    expect(seen).toEqual([...published].reverse().map((p) => p.id));
    expect(new Set(seen).size).toBe(25);
  });

  it('searches (prefixes, full text) and filters by category id or slug', async () => {
    const anon = app.client();
    const search = await anon.get<Post[]>('/api/posts/public?q=subjx');
    expect(search.body).toEqual([]);
    const found = await anon.get<Post[]>('/api/posts/public?q=Subjun');
    expect(found.body.map((p) => p.title).sort()).toEqual(
      [
        'Subjuntivo lesson 0',
        'Subjuntivo lesson 10',
        'Subjuntivo lesson 15',
        'Subjuntivo lesson 20',
        'Subjuntivo lesson 5',
      ].sort(),
    );
    const byContent = await anon.get<Post[]>('/api/posts/public?q=animales%20practice&limit=100');
    expect(byContent.headers.get(TOTAL_COUNT_HEADER)).toBe('12');
    const byId = await anon.get<Post[]>(`/api/posts/public?category=${category.id}&limit=100`);
    const bySlug = await anon.get<Post[]>(`/api/posts/public?category=${category.slug}&limit=100`);
    expect(byId.body).toHaveLength(9);
    expect(bySlug.body.map((p) => p.id)).toEqual(byId.body.map((p) => p.id));
    expect((await anon.get<Post[]>('/api/posts/public?q=%27%22%3A*%26%7C!')).body).toEqual([]);
  });

  it('bounds the page size', async () => {
    const anon = app.client();
    expect((await anon.get('/api/posts/public?limit=101')).status).toBe(400);
    expect((await anon.get('/api/posts/public?limit=0')).status).toBe(400);
    expect((await anon.get('/api/posts/public?page=abc')).status).toBe(400);
    expect((await anon.get<Post[]>('/api/posts/public')).body).toHaveLength(20);
  });

  it('answers 304 to a matching ETag, and the current post to a client bypassing caches', async () => {
    const anon = app.client();
    const first = await anon.get('/api/posts/public');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    expect((await anon.get('/api/posts/public', { headers: { 'if-none-match': etag } })).status).toBe(304);
    // A cache-busting query parameter changes nothing.
    expect((await anon.get(`/api/posts/public?_=${Date.now()}`)).headers.get('etag')).toBe(etag);

    const slug = published[24].slug;
    const one = await anon.get(`/api/posts/public/${slug}`);
    const tag = one.headers.get('etag') ?? '';
    expect((await anon.get(`/api/posts/public/${slug}`, { headers: { 'if-none-match': tag } })).status).toBe(
      304,
    );
    await admin.put(`/api/posts/${published[24].id}`, { title: 'Renamed newest' });
    // What a client bypassing caches sends: it gets the current post at once.
    const changed = await anon.get<Post>(`/api/posts/public/${slug}?_=${Date.now()}`, {
      headers: { 'if-none-match': tag, 'cache-control': 'no-cache', pragma: 'no-cache' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.title).toBe('Renamed newest');
  });

  it('lists all posts, drafts included, for admins', async () => {
    const all = await admin.get<Post[]>('/api/posts');
    expect(all.body).toHaveLength(26);
    expect(all.body.some((p) => p.status === 'draft')).toBe(true);
  });
});

describe('discovery', () => {
  it('serves a valid sitemap of published posts with lastmod', async () => {
    // The stored sitemap follows the content.post.* events of the 25 publications.
    await waitFor(
      async () => (await app.client().get('/sitemap.xml')).text.split('<url>').length - 1 === 27,
      'the sitemap to list the published posts',
    );
    const res = await app.client().get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/xml');
    const doc = await parseXml(res.text);
    expect(doc.root).toMatchObject({
      name: 'urlset',
      namespace: 'http://www.sitemaps.org/schemas/sitemap/0.9',
    });
    const elements = doc.elements ?? [];
    expect(elements.filter((e) => e.name === 'url')).toHaveLength(27);
    const locs = elements.filter((e) => e.name === 'loc');
    const lastmods = elements.filter((e) => e.name === 'lastmod');
    expect(locs).toHaveLength(27);
    expect(lastmods).toHaveLength(27);
    for (const loc of locs) expect(loc.text).toMatch(/^http:\/\/localhost:3000\//);
    for (const lastmod of lastmods)
      expect(lastmod.text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(new Set(elements.map((e) => e.name))).toEqual(new Set(['url', 'loc', 'lastmod']));
    expect(res.text).not.toContain('hidden-draft');
  });

  it('serves robots.txt and RSS from the settings', async () => {
    const robots = await app.client().get('/robots.txt');
    expect(robots.text).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    await admin.post('/api/seo/settings', {
      robotsTxt: 'User-agent: *\nDisallow: /',
      siteName: 'Clase de Español',
    });
    expect((await app.client().get('/robots.txt')).text).toBe('User-agent: *\nDisallow: /\n');

    const rss = await app.client().get('/rss.xml');
    expect(rss.headers.get('content-type')).toContain('application/rss+xml');
    const doc = await parseXml(rss.text);
    expect(doc.root).toMatchObject({ name: 'rss', attributes: expect.objectContaining({ version: '2.0' }) });
    const elements = doc.elements ?? [];
    expect(elements.find((e) => e.name === 'title' && e.parent === 'channel')?.text).toBe('Clase de Español');
    expect(elements.filter((e) => e.name === 'item')).toHaveLength(25);
    expect(elements.filter((e) => e.name === 'pubDate').every((e) => !Number.isNaN(Date.parse(e.text)))).toBe(
      true,
    );
  });

  it('keeps SEO defaults, saves changes, generates the sitemap, and hides it when disabled', async () => {
    const settings = await app.client().get<Record<string, unknown>>('/api/seo/settings');
    expect(settings.body).toMatchObject({
      sitemapEnabled: true,
      commentModeration: true,
      googleAnalyticsId: '',
    });
    const saved = await admin.post<Record<string, unknown>>('/api/seo/settings', {
      defaultMetaKeywords: ' a, ,b ,',
    });
    expect(saved.body.defaultMetaKeywords).toEqual(['a', 'b']);
    const generated = await admin.post<{ urlCount: number }>('/api/seo/sitemap/generate');
    expect(generated.status).toBe(200);
    expect(generated.body.urlCount).toBe(27);
    await admin.post('/api/seo/settings', { sitemapEnabled: false });
    expect((await app.client().get('/sitemap.xml')).status).toBe(404);
    expect((await admin.post('/api/seo/sitemap/generate')).status).toBe(400);
    await admin.post('/api/seo/settings', { sitemapEnabled: true });
  });

  it('keeps the stored sitemap current from content.post.* events, and serves it as stored', async () => {
    const anon = app.client();
    const sitemap = async () => (await anon.get('/sitemap.xml')).text;
    const post = (
      await admin.post<Post>('/api/posts', {
        title: 'Sitemap newcomer',
        content: '<p>x</p>',
        status: 'published',
      })
    ).body;
    await waitFor(async () => (await sitemap()).includes('/blog/sitemap-newcomer<'), 'published post listed');
    await admin.put(`/api/posts/${post.id}`, { slug: 'sitemap-renamed' });
    await waitFor(async () => (await sitemap()).includes('/blog/sitemap-renamed<'), 'new slug listed');
    expect(await sitemap()).not.toContain('/blog/sitemap-newcomer<');
    await admin.patch(`/api/posts/${post.id}/status`, { status: 'draft' });
    await waitFor(async () => !(await sitemap()).includes('/blog/sitemap-renamed<'), 'unpublished post gone');
    await admin.patch(`/api/posts/${post.id}/status`, { status: 'published' });
    await waitFor(
      async () => (await sitemap()).includes('/blog/sitemap-renamed<'),
      'republished post listed',
    );
    await admin.delete(`/api/posts/${post.id}`);
    await waitFor(async () => !(await sitemap()).includes('/blog/sitemap-renamed<'), 'deleted post gone');

    // A row written behind the service's back (no event) is not in the stored sitemap until it is regenerated.
    await app.dataSource.query(
      `INSERT INTO "${app.schema}".posts (slug, title, status, author_id, author_name, published_at)
       VALUES ('written-directly', 'Written directly', 'published', gen_random_uuid(), 'x', now())`,
    );
    expect(await sitemap()).not.toContain('/blog/written-directly<');
    expect((await admin.post<{ urlCount: number }>('/api/seo/sitemap/generate')).body.urlCount).toBe(28);
    expect(await sitemap()).toContain('/blog/written-directly<');
    await app.dataSource.query(`DELETE FROM "${app.schema}".posts WHERE slug = 'written-directly'`);
    await admin.post('/api/seo/sitemap/generate');
  });
});

describe('events', () => {
  it('publishes post events through the outbox', async () => {
    const received: { subject: string; data: unknown }[] = [];
    const sub = await app.runtime.bus.subscribe(
      'content.post.>',
      async (m) => void received.push({ subject: m.subject, data: m.data }),
      {
        durable: `test-${Date.now()}`,
      },
    );
    const post = (await admin.post<Post>('/api/posts', { title: 'Evented' })).body;
    await admin.patch(`/api/posts/${post.id}/status`, { status: 'published' });
    await admin.patch(`/api/posts/${post.id}/status`, { status: 'draft' });
    await admin.delete(`/api/posts/${post.id}`);
    const deadline = Date.now() + 5000;
    while (
      received.filter((r) => JSON.stringify(r.data).includes(post.id)).length < 3 &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 50));
    await sub.unsubscribe();
    expect(received.filter((r) => JSON.stringify(r.data).includes(post.id)).map((r) => r.subject)).toEqual([
      Subjects.contentPostPublished,
      Subjects.contentPostUnpublished,
      Subjects.contentPostDeleted,
    ]);
  });
});
