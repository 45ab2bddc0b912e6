import { Subjects, TOTAL_COUNT_HEADER, type Category, type Post } from '@district/contracts';
import { SessionStateStore, startService, type RunningService } from '@district/nest-common';
import {
  HttpClient,
  TEST_DATABASE_URL,
  createTestRuntime,
  sleep,
  waitFor,
} from '@district/nest-common/testing';
import { Client } from 'pg';
import { defineContentService } from '../src';
import { PublicListCache } from '../src/posts/public-list-cache';
import { invalidationChannel, PublicListListener } from '../src/posts/public-list-listener';
import { startContent, type ContentTestApp } from './support/content-app';

/**
 * The public list keeps rendered pages in memory (src/posts/public-list-cache.ts). These tests hold it to
 * "a write is seen by the next read": at once on the replica that wrote, promptly (PostgreSQL notification)
 * on every other replica and for writes the posts service did not make, and never via the cache while the
 * notifications cannot be heard.
 */

let app: ContentTestApp;
let admin: HttpClient;
let adminId: string;
let category: Category;
let sql: Client;

const LIST = '/api/posts/public?limit=100';
const titles = (posts: Post[]) => posts.map((p) => p.title);
const listTitles = async (client: HttpClient, headers: Record<string, string> = {}) =>
  titles((await client.get<Post[]>(LIST, { headers })).body);
const pages = (target: ContentTestApp | RunningService) =>
  ('service' in target ? target.service : target).app.get(PublicListCache);

/** A change the triggers do not announce (as if replicated), to tell a cached page from a fresh one. */
async function silently(statement: string, params: unknown[]): Promise<void> {
  await sql.query('BEGIN');
  await sql.query('SET LOCAL session_replication_role = replica');
  await sql.query(statement, params);
  await sql.query('COMMIT');
}

beforeAll(async () => {
  app = await startContent();
  const signedIn = await app.signIn('admin');
  admin = signedIn.client;
  adminId = signedIn.person.id;
  category = (await admin.post<Category>('/api/categories', { name: 'Cached category' })).body;
  for (const title of ['First lesson', 'Second lesson']) {
    await admin.post<Post>('/api/posts', { title, status: 'published', categoryId: category.id });
  }
  sql = new Client({ connectionString: TEST_DATABASE_URL });
  await sql.connect();
  await sql.query(`SET search_path TO "${app.schema}"`);
  await waitFor(() => pages(app).active, 'the list listener to connect');
});

afterAll(async () => {
  await sql?.end();
  await app?.close();
});

describe('the public list kept in memory', () => {
  it('serves a page from memory, but builds it from the database for a client bypassing caches', async () => {
    const anon = app.client();
    let shown = 'Second lesson';
    expect(await listTitles(anon)).toEqual([shown, 'First lesson']);
    const bypassing: Record<string, string>[] = [
      { 'cache-control': 'no-cache' },
      { 'cache-control': 'max-age=0' },
      { pragma: 'no-cache' },
    ];
    for (const [i, headers] of bypassing.entries()) {
      const edited = `Second lesson (edit ${i + 1})`;
      await silently(`UPDATE posts SET title = $1 WHERE title = $2`, [edited, shown]);
      // Nobody announced the change: the kept page is served.
      expect(await listTitles(anon)).toEqual([shown, 'First lesson']);
      expect(await listTitles(anon, headers)).toEqual([edited, 'First lesson']);
      // The bypassing read also refreshed the kept page for everybody.
      expect(await listTitles(anon)).toEqual([edited, 'First lesson']);
      shown = edited;
    }
    await sql.query(`UPDATE posts SET title = 'Second lesson (edited)' WHERE title = $1`, [shown]);
    await waitFor(
      async () => (await listTitles(anon))[0] === 'Second lesson (edited)',
      'the announced change',
      2000,
    );
  });

  it('answers 304 from memory with the same ETag and total as a page built from the database', async () => {
    const anon = app.client();
    const kept = await anon.get<Post[]>(LIST);
    const fresh = await anon.get<Post[]>(LIST, { headers: { 'cache-control': 'no-cache' } });
    expect(kept.headers.get('etag')).toBe(fresh.headers.get('etag'));
    expect(kept.text).toBe(fresh.text);
    const revalidated = await anon.get(LIST, {
      headers: { 'if-none-match': kept.headers.get('etag') ?? '' },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get(TOTAL_COUNT_HEADER)).toBe('2');
    expect(revalidated.headers.get('cache-control')).toBe('public, no-cache');
  });

  it('answers a page past the end, and a search that finds nothing, with no posts and the right total', async () => {
    const anon = app.client();
    const asked: Record<string, string>[] = [{}, { 'cache-control': 'no-cache' }];
    for (const headers of asked) {
      const past = await anon.get<Post[]>('/api/posts/public?limit=1&page=3', { headers });
      expect(past.body).toEqual([]);
      expect(past.headers.get(TOTAL_COUNT_HEADER)).toBe('2');
      const last = await anon.get<Post[]>('/api/posts/public?limit=1&page=2', { headers });
      expect(titles(last.body)).toEqual(['First lesson']);
      const none = await anon.get<Post[]>('/api/posts/public?q=nothingmatches', { headers });
      expect(none.body).toEqual([]);
      expect(none.headers.get(TOTAL_COUNT_HEADER)).toBe('0');
    }
  });

  it("shows the posts service's writes on the very next read", async () => {
    const anon = app.client();
    await listTitles(anon);
    const created = (await admin.post<Post>('/api/posts', { title: 'Third lesson', status: 'published' }))
      .body;
    expect(await listTitles(anon)).toEqual(['Third lesson', 'Second lesson (edited)', 'First lesson']);

    await admin.put(`/api/posts/${created.id}`, { title: 'Third lesson, renamed' });
    expect((await listTitles(anon))[0]).toBe('Third lesson, renamed');

    await admin.patch(`/api/posts/${created.id}/status`, { status: 'draft' });
    expect(await listTitles(anon)).not.toContain('Third lesson, renamed');

    await admin.patch(`/api/posts/${created.id}/status`, { status: 'published' });
    expect(await listTitles(anon)).toContain('Third lesson, renamed');

    await admin.delete(`/api/posts/${created.id}`);
    const after = await anon.get<Post[]>(LIST);
    expect(titles(after.body)).toEqual(['Second lesson (edited)', 'First lesson']);
    expect(after.headers.get(TOTAL_COUNT_HEADER)).toBe('2');
  });

  it('shows the write on the replica that made it without waiting for the notification', async () => {
    // Stop this replica's notifications while its listener stays connected: only the posts service's own
    // invalidation can make the write visible now.
    const listener = app.service.app.get(PublicListListener) as unknown as { client: Client };
    await listener.client.query('UNLISTEN *');
    const anon = app.client();
    try {
      const before = await listTitles(anon);
      await sql.query(`UPDATE posts SET title = 'Unheard by hand' WHERE title = 'First lesson'`);
      await sleep(200);
      // The change was announced, but this replica did not hear it.
      expect(await listTitles(anon)).toEqual(before);
      const created = (await admin.post<Post>('/api/posts', { title: 'Unheard write', status: 'published' }))
        .body;
      const after = await listTitles(anon);
      expect(after[0]).toBe('Unheard write');
      expect(after).toContain('Unheard by hand');
      await admin.delete(`/api/posts/${created.id}`);
      expect(await listTitles(anon)).not.toContain('Unheard write');
    } finally {
      await listener.client.query(`LISTEN "${invalidationChannel(app.schema)}"`);
    }
    await sql.query(`UPDATE posts SET title = 'First lesson' WHERE title = 'Unheard by hand'`);
    await waitFor(
      async () => (await listTitles(anon)).includes('First lesson'),
      'the announced change',
      2000,
    );
  });

  it('hears category edits, identity events and SQL by hand through the database', async () => {
    const anon = app.client();
    const categoryOf = async () =>
      (await anon.get<Post[]>(`/api/posts/public?category=${category.id}`)).body.map((p) => p.categoryName);
    expect(await categoryOf()).toEqual(['Cached category', 'Cached category']);
    await admin.put(`/api/categories/${category.id}`, { name: 'Renamed category' });
    await waitFor(async () => (await categoryOf())[0] === 'Renamed category', 'the renamed category', 2000);

    const [first] = (await anon.get<Post[]>(LIST)).body;
    await app.runtime.bus.publish(Subjects.identityUserUpdated, {
      user: {
        id: first.authorId,
        name: 'Author, renamed',
        username: 'author',
        email: 'author@school.test',
        role: 'teacher',
        approved: true,
        isAdmin: true,
        profileImage: null,
        createdAt: new Date().toISOString(),
      },
      tokenVersion: 2,
      changed: ['name'],
    });
    await waitFor(
      async () => (await anon.get<Post[]>(LIST)).body[0].authorName === 'Author, renamed',
      "the author's new name",
      2000,
    );

    await sql.query(`UPDATE posts SET title = 'Edited by hand' WHERE id = $1`, [first.id]);
    await waitFor(async () => (await listTitles(anon))[0] === 'Edited by hand', 'the hand edit', 2000);
  });

  it('serves from the database while the notifications are lost, and keeps pages again once they are back', async () => {
    const anon = app.client();
    const cache = pages(app);
    await listTitles(anon);
    const killed = await sql.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'content public list listener' AND query = $1`,
      [`LISTEN "${invalidationChannel(app.schema)}"`],
    );
    expect(killed.rowCount).toBe(1);
    await waitFor(() => !cache.active, 'the listener to notice', 2000);
    // Deaf: a change nobody announces is still seen at once, because nothing is served from memory.
    await silently(`UPDATE posts SET title = 'Unannounced' WHERE title = 'First lesson'`, []);
    expect(await listTitles(anon)).toContain('Unannounced');

    await waitFor(() => cache.active, 'the listener to reconnect', 5000);
    await listTitles(anon);
    await silently(`UPDATE posts SET title = 'Unannounced again' WHERE title = 'Unannounced'`, []);
    expect(await listTitles(anon)).toContain('Unannounced');

    // An announced change brings the kept page and the database back together.
    await sql.query(`UPDATE posts SET title = 'First lesson' WHERE title = 'Unannounced again'`);
    await waitFor(
      async () => (await listTitles(anon)).includes('First lesson'),
      'the announced change',
      2000,
    );
  });
});

describe('two replicas on one database', () => {
  let second: RunningService;
  let secondRuntime: ReturnType<typeof createTestRuntime>;
  let secondAnon: HttpClient;
  let secondAdmin: HttpClient;

  beforeAll(async () => {
    secondRuntime = createTestRuntime();
    // Replicas share the session state identity writes (one store in production): the admin's is in this one too.
    const sessions = new SessionStateStore(secondRuntime.store);
    await sessions.markRestored();
    await sessions.setVersion(adminId, 1);
    second = await startService(defineContentService({ schema: app.schema }), secondRuntime, {
      port: 0,
      host: '127.0.0.1',
    });
    const route = { [new URL(secondRuntime.publicUrl).origin]: second.url };
    secondAnon = new HttpClient(secondRuntime.publicUrl, {}, route);
    // The same signing keys as the first replica's runtime (testKeys), so the admin's token works on both.
    secondAdmin = new HttpClient(secondRuntime.publicUrl, {}, route);
    const token = admin.jar.header(new URL(admin.baseUrl)) ?? '';
    for (const pair of token.split('; ')) {
      const [name, value] = pair.split('=');
      secondAdmin.jar.set(secondAdmin.baseUrl, name, value);
    }
    await waitFor(() => pages(second).active, "the second replica's listener to connect");
  });

  afterAll(async () => {
    await second?.close();
    await secondRuntime?.dispose();
  });

  it("shows one replica's write on the other's next reads promptly, and on its own at once", async () => {
    const firstAnon = app.client();
    // Both replicas keep the page.
    const before = await listTitles(firstAnon);
    expect(await listTitles(secondAnon)).toEqual(before);

    const written = await secondAdmin.post<Post>('/api/posts', {
      title: 'Written on the second',
      status: 'published',
    });
    expect(written.status).toBe(201);
    expect((await listTitles(secondAnon))[0]).toBe('Written on the second');
    const started = Date.now();
    await waitFor(
      async () => (await listTitles(firstAnon))[0] === 'Written on the second',
      'the first replica',
      2000,
    );
    expect(Date.now() - started).toBeLessThan(2000);

    await admin.delete(`/api/posts/${written.body.id}`);
    expect(await listTitles(firstAnon)).toEqual(before);
    await waitFor(
      async () => JSON.stringify(await listTitles(secondAnon)) === JSON.stringify(before),
      'the second replica',
      2000,
    );
  });

  it('never lets a slow read put an old page back after a change heard from another replica', async () => {
    // Many reads in flight on the first replica while the second writes: whatever they were built from,
    // the first replica's kept page must end up current.
    const firstAnon = app.client();
    const reads = Array.from({ length: 20 }, () => listTitles(firstAnon));
    const written = await secondAdmin.post<Post>('/api/posts', { title: 'Raced', status: 'published' });
    await Promise.all(reads);
    await waitFor(async () => (await listTitles(firstAnon))[0] === 'Raced', 'the raced write', 2000);
    await sleep(100);
    for (let i = 0; i < 5; i++) expect((await listTitles(firstAnon))[0]).toBe('Raced');
    await secondAdmin.delete(`/api/posts/${written.body.id}`);
  });
});
