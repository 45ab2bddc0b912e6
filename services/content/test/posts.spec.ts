import { ContentMessages, type Category, type Post } from '@district/contracts';
import type { HttpClient } from '@district/nest-common/testing';
import { startContent, type ContentTestApp } from './support/content-app';

let app: ContentTestApp;
let admin: HttpClient;

beforeAll(async () => {
  app = await startContent();
  admin = (await app.signIn('admin', { name: 'Alex Admin' })).client;
});
afterAll(async () => {
  await app?.close();
});

async function createPost(body: Record<string, unknown>): Promise<Post> {
  const res = await admin.post<Post>('/api/posts', body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

describe('writing posts', () => {
  it('makes new posts drafts with a slug from the title, an excerpt and a read time', async () => {
    const content = `<p>${'a'.repeat(401)}</p>`;
    const post = await createPost({ title: '¡Hola, Mundo!  Lección  Uno', content });
    expect(post).toMatchObject({
      status: 'draft',
      slug: 'hola-mundo-leccion-uno',
      authorName: 'Alex Admin',
      publishedAt: null,
      readTime: 3,
      excerpt: `${'a'.repeat(160)}…`,
    });
    const again = await createPost({ title: 'Hola mundo: lección uno' });
    expect(again.slug).toBe('hola-mundo-leccion-uno-2');
  });

  it('keeps words of neighbouring blocks apart in the excerpt and the search text (issue #34 item 12)', async () => {
    const content =
      '<p>¿Qué más? in Colombia.</p><p>In Spain, two kisses.</p>' +
      '<table><tr><th>Los colores</th><th>English</th></tr><tr><td>Rojo</td><td>red</td></tr></table>';
    const post = await createPost({ title: 'Saludos y colores', content, status: 'published' });
    expect(post.excerpt).toBe('¿Qué más? in Colombia. In Spain, two kisses. Los colores English Rojo red');
    expect(post.readTime).toBe(1);
    // A cell's word is a word of the search text, not glued to its neighbour ("coloresrojo").
    const found = await app.client().get<Post[]>('/api/posts/public?q=rojo');
    expect(found.body.map((p) => p.id)).toEqual([post.id]);
    // An excerpt the author writes in HTML is kept as text, its blocks apart.
    const own = await admin.put<Post>(`/api/posts/${post.id}`, {
      excerpt: '<p>Colombia.</p><p>In Spain</p>',
    });
    expect(own.body.excerpt).toBe('Colombia. In Spain');
  });

  it('requires a title, in the spec words', async () => {
    for (const body of [{}, { title: '   ' }]) {
      const res = await admin.post('/api/posts', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: ContentMessages.enterTitle });
    }
  });

  it('keeps the slug editable and unique', async () => {
    const a = await createPost({ title: 'Slug one' });
    const b = await createPost({ title: 'Slug two' });
    const renamed = await admin.put<Post>(`/api/posts/${a.id}`, { slug: 'Mi Lección Especial' });
    expect(renamed.body.slug).toBe('mi-leccion-especial');
    const clash = await admin.put(`/api/posts/${b.id}`, { slug: 'mi-leccion-especial' });
    expect(clash.status).toBe(409);
    // A title change leaves the slug alone, so links keep working.
    const retitled = await admin.put<Post>(`/api/posts/${a.id}`, { title: 'Another title' });
    expect(retitled.body.slug).toBe('mi-leccion-especial');
  });

  it('gives posts created at the same moment with one title each their own slug (found by the route fuzzer)', async () => {
    // Ten at once used to pick the same free slug; past three retries the losers got a 500.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => admin.post<Post>('/api/posts', { title: 'Same Moment' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const slugs = answers.map((a) => a.body.slug);
    expect(new Set(slugs).size).toBe(10);
    expect(slugs).toContain('same-moment');
  });

  it('sanitises the content on the server', async () => {
    const post = await createPost({
      title: 'Unsafe',
      content:
        '<p onclick="steal()">Hi<script>alert(1)</script></p><iframe src="https://evil.example/x"></iframe>',
    });
    expect(post.content).toBe('<p>Hi</p>');
  });

  it('only shows published posts publicly, and publishes with a date', async () => {
    const post = await createPost({ title: 'Public later' });
    const anon = app.client();
    expect((await anon.get(`/api/posts/public/${post.slug}`)).status).toBe(404);
    expect((await anon.get(`/api/posts/${post.id}`)).status).toBe(404);
    const published = await admin.patch<Post>(`/api/posts/${post.id}/status`, { status: 'published' });
    expect(published.body.status).toBe('published');
    expect(published.body.publishedAt).not.toBeNull();
    const bySlug = await anon.get<Post>(`/api/posts/public/${post.slug}`);
    expect(bySlug.status).toBe(200);
    const byId = await anon.get<Post>(`/api/posts/public/${post.id}`);
    expect(byId.body.id).toBe(post.id);
    await admin.patch(`/api/posts/${post.id}/status`, { status: 'draft' });
    expect((await anon.get(`/api/posts/public/${post.slug}`)).status).toBe(404);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    expect((await admin.get('/api/posts/not-a-uuid')).status).toBe(404);
    expect((await admin.put('/api/posts/00000000-0000-4000-8000-000000000000', { title: 'x' })).status).toBe(
      404,
    );
    expect((await admin.delete('/api/posts/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('deletes a post', async () => {
    const post = await createPost({ title: 'Short-lived', status: 'published' });
    expect((await admin.delete(`/api/posts/${post.id}`)).status).toBe(204);
    expect((await admin.get(`/api/posts/${post.id}`)).status).toBe(404);
  });
});

describe('categories', () => {
  it('makes the slug from the name, counts posts, and keeps posts when deleted', async () => {
    const res = await admin.post<Category>('/api/categories', {
      name: '  Gramática   Básica!! ',
      description: 'Verbs',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Gramática   Básica!!', slug: 'gramatica-basica', postCount: 0 });
    const dup = await admin.post('/api/categories', { name: 'Gramatica basica' });
    expect(dup.status).toBe(409);
    expect((await admin.post('/api/categories', { name: '' })).status).toBe(400);

    const draft = await createPost({ title: 'Cat draft', categoryId: res.body.id });
    await createPost({ title: 'Cat published', categoryId: res.body.id, status: 'published' });
    const anonList = await app.client().get<Category[]>('/api/categories');
    expect(anonList.body.find((c) => c.id === res.body.id)?.postCount).toBe(1);
    const adminList = await admin.get<Category[]>('/api/categories');
    expect(adminList.body.find((c) => c.id === res.body.id)?.postCount).toBe(2);
    expect(draft.categoryName).toBe('Gramática   Básica!!');

    const updated = await admin.put<Category>(`/api/categories/${res.body.id}`, {
      name: 'Grammar',
      slug: 'My Grammar',
    });
    expect(updated.body.slug).toBe('my-grammar');
    expect((await admin.delete(`/api/categories/${res.body.id}`)).status).toBe(204);
    const after = await admin.get<Post>(`/api/posts/${draft.id}`);
    expect(after.body.categoryId).toBeNull();
  });

  it('refuses a post in an unknown category', async () => {
    const res = await admin.post('/api/posts', {
      title: 'x',
      categoryId: '00000000-0000-4000-8000-000000000000',
    });
    expect(res.status).toBe(404);
  });
});
