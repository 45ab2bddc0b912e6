import { analyzeSeo, demoAccount, type Category, type Comment, type Post } from '@district/contracts';
import {
  BlockAwarePostText1733600000000,
  legacyExcerptFromText,
  legacyHtmlToText,
} from '../src/migrations/1733600000000-block-aware-post-text.migration';
import { DemoLessonsSeo1733700000000 } from '../src/migrations/1733700000000-demo-lessons-seo.migration';
import { DEMO_POSTS } from '../src/seed/demo-content';
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

/** Each demo lesson's score on the SEO page (web/src/features/blog/components/admin-seo-page.tsx), by slug. */
async function seoScores(): Promise<Record<string, number>> {
  const { client: admin } = await app.signIn('admin');
  const posts = (await admin.get<Post[]>('/api/posts')).body;
  return Object.fromEntries(
    DEMO_POSTS.map((demo) => {
      const post = posts.find((p) => p.id === demo.id);
      return [demo.slug, post ? analyzeSeo(post).filter((check) => check.ok).length : -1];
    }),
  );
}

const allPass = Object.fromEntries(DEMO_POSTS.map((demo) => [demo.slug, 4]));

describe('the demo lessons look like a kept district’s (issue #34 item 16)', () => {
  it('pass all four checks of the SEO page, with written excerpts, tags and keywords that fit the lesson', async () => {
    expect(await seoScores()).toEqual(allPass);
    const posts = (await app.client().get<Post[]>('/api/posts/public')).body;
    for (const demo of DEMO_POSTS) {
      const post = posts.find((p) => p.id === demo.id) as Post;
      expect([demo.slug, post.excerpt]).toEqual([demo.slug, demo.excerpt]);
      expect(post.tags.length).toBeGreaterThan(0);
      // The focus keyword is what the title and description are about.
      expect([demo.slug, `${post.seoTitle} ${post.metaDescription}`.toLowerCase()]).toEqual([
        demo.slug,
        expect.stringContaining(post.focusKeyword.toLowerCase()),
      ]);
    }
  });

  it('brings an older demo database up to date once, leaving an admin’s own edits', async () => {
    const ids = DEMO_POSTS.map((demo) => demo.id);
    const [edited, rewritten] = ids;
    // The demo lessons as the code before issue #34 stored them: no SEO fields, excerpts cut from run-together text.
    const rows: { id: string; content: string }[] = await app.dataSource.query(
      `SELECT id, content FROM posts WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    for (const row of rows) {
      const text = legacyHtmlToText(row.content);
      await app.dataSource.query(
        `UPDATE posts SET seo_title = '', meta_description = '', focus_keyword = '', meta_keywords = '{}',
           content_text = $2, excerpt = $3 WHERE id = $1`,
        [row.id, text, legacyExcerptFromText(text)],
      );
    }
    expect(Object.values(await seoScores())).toEqual(Array(6).fill(0));
    // An admin gave one lesson an SEO title of their own, and rewrote another.
    await app.dataSource.query(
      `UPDATE posts SET seo_title = 'Ser and estar, my way, in one page' WHERE id = $1`,
      [edited],
    );
    await app.dataSource.query(`UPDATE posts SET content = '<p>Rewritten by the admin.</p>' WHERE id = $1`, [
      rewritten,
    ]);

    const runner = app.dataSource.createQueryRunner();
    try {
      for (let run = 0; run < 2; run++) {
        await new BlockAwarePostText1733600000000().up(runner);
        await new DemoLessonsSeo1733700000000().up(runner);
      }
    } finally {
      await runner.release();
    }

    expect(await seoScores()).toEqual({ ...allPass, [DEMO_POSTS[1].slug]: 0 });
    const { client: admin } = await app.signIn('admin');
    const after = async (id: string) => (await admin.get<Post>(`/api/posts/${id}`)).body;
    expect(await after(edited)).toMatchObject({
      seoTitle: 'Ser and estar, my way, in one page',
      metaDescription: DEMO_POSTS[0].metaDescription,
      excerpt: DEMO_POSTS[0].excerpt,
    });
    expect(await after(rewritten)).toMatchObject({
      seoTitle: '',
      metaDescription: '',
      focusKeyword: '',
    });
    for (const demo of DEMO_POSTS.slice(2)) expect((await after(demo.id)).excerpt).toBe(demo.excerpt);
  });
});
