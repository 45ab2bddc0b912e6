import type { Post } from '@district/contracts';
import type { HttpClient } from '@district/nest-common/testing';
import {
  BlockAwarePostText1733600000000,
  legacyExcerptFromText,
  legacyHtmlToText,
} from '../src/migrations/1733600000000-block-aware-post-text.migration';
import { startContent, type ContentTestApp } from './support/content-app';

let app: ContentTestApp;
let admin: HttpClient;

beforeAll(async () => {
  app = await startContent();
  admin = (await app.signIn('admin')).client;
});
afterAll(async () => {
  await app?.close();
});

const CONTENT =
  '<p>¿Qué más? in Colombia.</p><p>In Spain, two kisses.</p>' +
  '<table><tr><th>Los colores</th><th>English</th></tr><tr><td>Rojo</td><td>red</td></tr></table>';
const LONG = `<h2>Los saludos</h2>${'<p>Hola, buenos días.</p>'.repeat(12)}<ul><li>adiós</li><li>hasta luego</li></ul>`;

/** A post as the code before issue #34 stored it: the text run together, and (unless typed) the excerpt made from it. */
async function legacyPost(title: string, content: string, typedExcerpt?: string): Promise<Post> {
  const post = (await admin.post<Post>('/api/posts', { title, content, status: 'published' })).body;
  const text = legacyHtmlToText(content);
  await app.dataSource.query(
    `UPDATE posts SET content_text = $2, excerpt = $3, read_time = 1, updated_at = '2026-01-02T03:04:05Z' WHERE id = $1`,
    [post.id, text, typedExcerpt ?? legacyExcerptFromText(text)],
  );
  return post;
}

async function repair(): Promise<void> {
  const runner = app.dataSource.createQueryRunner();
  try {
    await new BlockAwarePostText1733600000000().up(runner);
  } finally {
    await runner.release();
  }
}

const read = async (id: string) => (await admin.get<Post>(`/api/posts/${id}`)).body;

describe('migration 1733600000000: stored text and derived excerpts made again with block boundaries (issue #34 item 12)', () => {
  it('recomputes derived excerpts and every post’s search text, and never touches an excerpt an author typed', async () => {
    const derived = await legacyPost('Saludos y colores', CONTENT);
    const long = await legacyPost('Los saludos', LONG);
    const typed = await legacyPost('Typed excerpt', CONTENT, 'Greetings, and the colours in a table.');
    expect((await read(derived.id)).excerpt).toBe(
      '¿Qué más? in Colombia.In Spain, two kisses.Los coloresEnglishRojored',
    );
    expect((await app.client().get<Post[]>('/api/posts/public?q=rojo')).body).toEqual([]);

    await repair();

    expect(await read(derived.id)).toMatchObject({
      excerpt: '¿Qué más? in Colombia. In Spain, two kisses. Los colores English Rojo red',
      readTime: 1,
    });
    const longExcerpt = (await read(long.id)).excerpt;
    expect(longExcerpt).toMatch(/^Los saludos Hola, buenos días\. Hola, buenos días\. .*…$/);
    expect(longExcerpt).not.toMatch(/\.\S/);
    expect((await read(long.id)).readTime).toBe(2);
    expect((await read(typed.id)).excerpt).toBe('Greetings, and the colours in a table.');
    // Search reads the repaired text: a cell's word is found, in the typed-excerpt post too.
    const found = (await app.client().get<Post[]>('/api/posts/public?q=rojo')).body.map((p) => p.id);
    expect(found.sort()).toEqual([derived.id, typed.id].sort());
    // The lessons did not change: lastmod (sitemap) stays.
    const stamps: { updated_at: Date }[] = await app.dataSource.query(
      `SELECT updated_at FROM posts WHERE id = ANY($1::uuid[])`,
      [[derived.id, long.id, typed.id]],
    );
    expect(stamps.map((s) => s.updated_at.toISOString())).toEqual(Array(3).fill('2026-01-02T03:04:05.000Z'));
  });

  it('changes nothing the second time', async () => {
    await repair();
    const before: unknown[] = await app.dataSource.query(
      `SELECT id, content_text, excerpt, read_time FROM posts ORDER BY id`,
    );
    await repair();
    expect(
      await app.dataSource.query(`SELECT id, content_text, excerpt, read_time FROM posts ORDER BY id`),
    ).toEqual(before);
  });
});
