import { demoAccount, type Category, type Comment, type Post } from '@district/contracts';
import { SeedService } from '../src/seed/seed.service';
import { startContent, type ContentTestApp } from './support/content-app';

let app: ContentTestApp;

beforeAll(async () => {
  app = await startContent({ demo: true });
});
afterAll(async () => {
  await app?.close();
});

it('seeds the demo lessons once, by the demo admin and teacher', async () => {
  const anon = app.client();
  const categories = (await anon.get<Category[]>('/api/categories')).body;
  expect(categories.map((c) => c.slug).sort()).toEqual(['culture', 'grammar', 'vocabulary']);
  expect(categories.every((c) => c.postCount === 2)).toBe(true);
  const posts = (await anon.get<Post[]>('/api/posts/public')).body;
  expect(posts).toHaveLength(6);
  expect(new Set(posts.map((p) => p.authorId))).toEqual(
    new Set([demoAccount('admin').id, demoAccount('teacher').id]),
  );

  const { client: admin } = await app.signIn('admin');
  const comments = (await admin.get<Comment[]>('/api/comments')).body;
  expect(comments.map((c) => c.status).sort()).toEqual(['approved', 'approved', 'pending']);

  // A restart (or a second replica) adds nothing.
  expect(await app.service.app.get(SeedService).seedDemoContent()).toBe(0);
  expect((await anon.get<Post[]>('/api/posts/public')).body).toHaveLength(6);
});
