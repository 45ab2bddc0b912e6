import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import type { Journey, JourneyContext } from '../support/harness';
import { byRole, click, fill, isPresent, open, signInWithModal, textOf, waitFor, waitForText, waitForToast } from '../support/ui';
import { ADMIN, DEMO_PASSWORD, STUDENT, TEACHER } from './shell.journey';

/** Issue #4, the blog. Texts copied from shared/spec/blog-accounts-admin.md (sections 2, 5 and 8). */
const Spec = {
  categoryCreated: 'Category created successfully',
  postSaved: 'Post saved successfully',
  pendingApproval: 'Pending Approval',
  noMatch: 'No lessons match your search',
} as const;

async function signedIn(ctx: JourneyContext, email: string): Promise<Page> {
  const { page } = await ctx.session();
  await open(page, ctx.baseUrl, '/');
  await signInWithModal(page, email, DEMO_PASSWORD);
  return page;
}

/** Types the word into the lesson search and waits for the debounced search to settle. */
async function searchBlog(page: Page, ctx: JourneyContext, word: string): Promise<void> {
  await open(page, ctx.baseUrl, '/blog');
  await waitFor(page, byRole('heading', 'Lessons'));
  await fill(page, byRole('searchbox', 'Search lessons'), word);
}

async function sitemap(ctx: JourneyContext): Promise<string> {
  const res = await fetch(new URL('/sitemap.xml', ctx.baseUrl));
  assert.equal(res.status, 200, 'GET /sitemap.xml');
  return res.text();
}

const blogLifecycle: Journey = {
  id: 14,
  title: 'blog: category, post, search, comment moderation, unpublish',
  topologies: ['standalone'],
  timeoutMs: 120_000,
  async run(ctx) {
    // Letters only, so the full-text search sees one plain word.
    const tag = ctx.runId.replace(/[0-9]/g, (d) => String.fromCharCode(97 + Number(d)));
    const word = `zephyrine${tag}`;
    const categoryName = `E2E Category ${tag}`;
    const title = `E2E Lesson ${tag}`;
    const comment = `Thanks for this ${tag}`;

    const admin = await signedIn(ctx, ADMIN.email);
    await open(admin, ctx.baseUrl, '/admin/categories');
    await waitFor(admin, byRole('heading', 'Category Management'));
    await admin.waitForSelector('table tbody');
    await ctx.axe.check(admin, 'admin categories');
    await fill(admin, byRole('textbox', 'Name'), categoryName);
    await click(admin, byRole('button', 'Add Category'));
    await waitForToast(admin, Spec.categoryCreated);
    await waitFor(admin, byRole('button', `Edit ${categoryName}`));

    await open(admin, ctx.baseUrl, '/admin/posts/new');
    await waitFor(admin, byRole('heading', 'New Post'));
    const categorySelect = byRole('combobox', 'Category');
    await admin.waitForFunction(
      (name: string) => Array.from(document.querySelectorAll('option')).some((o) => o.textContent === name),
      {},
      categoryName,
    );
    await ctx.axe.check(admin, 'admin new post');
    await fill(admin, byRole('textbox', 'Title'), title);
    await fill(admin, byRole('textbox', 'Content (HTML)'), `<h2>About the word</h2><p>This lesson is about ${word} and nothing else.</p>`);
    const categoryId = await admin.$$eval(
      'option',
      (options, name) => (options as HTMLOptionElement[]).find((o) => o.textContent === name)?.value ?? '',
      categoryName,
    );
    assert.ok(categoryId, `no Category option ${categoryName}`);
    await fill(admin, categorySelect, categoryId);
    await fill(admin, byRole('combobox', 'Status'), 'published');
    await click(admin, byRole('button', 'Save Post'));
    await waitForToast(admin, Spec.postSaved);
    await admin.waitForFunction(() => window.location.pathname === '/admin/posts');
    await waitFor(admin, byRole('heading', 'Post Management'));
    await waitFor(admin, byRole('button', `Unpublish ${title}`));
    await ctx.axe.check(admin, 'admin posts');

    // A signed-out visitor finds the lesson by a word that is only in its content.
    const { page: visitor } = await ctx.session();
    await searchBlog(visitor, ctx, word);
    await waitFor(visitor, byRole('link', `Read More: ${title}`));
    await waitForText(visitor, title, 'main ul');
    await waitForText(visitor, categoryName, 'main ul');
    await ctx.axe.check(visitor, 'blog search');

    // The student opens the post; the card's link gives the slug the server made from the title.
    const student = await signedIn(ctx, STUDENT.email);
    await searchBlog(student, ctx, word);
    const readMore = await waitFor(student, byRole('link', `Read More: ${title}`));
    const href = await readMore.evaluate((a) => a.getAttribute('href') ?? '');
    await readMore.dispose();
    const slug = decodeURIComponent(href.replace(/^\/blog\//, ''));
    assert.ok(slug && !slug.includes('/'), `unexpected post link ${href}`);
    assert.ok((await sitemap(ctx)).includes(slug), `the sitemap lacks the published post ${slug}`);
    await click(student, byRole('link', `Read More: ${title}`));
    await waitFor(student, byRole('heading', title));
    await waitForText(student, word, 'main');
    await fill(student, byRole('textbox', 'Leave a comment'), comment);
    await click(student, byRole('button', 'Post Comment'));
    await waitForText(student, comment, '#comments-title + div + div');
    await waitForText(student, Spec.pendingApproval, '#comments-title + div + div');
    await ctx.axe.check(student, 'blog post');

    await open(admin, ctx.baseUrl, '/admin/comments');
    await waitFor(admin, byRole('heading', 'Comment Moderation'));
    const commentLabel = `comment by ${STUDENT.name}: ${comment}`;
    await waitFor(admin, byRole('button', `Approve ${commentLabel}`));
    await ctx.axe.check(admin, 'admin comments');
    await click(admin, byRole('button', `Approve ${commentLabel}`));
    await waitFor(admin, byRole('button', `Unapprove ${commentLabel}`));

    const teacher = await signedIn(ctx, TEACHER.email);
    await open(teacher, ctx.baseUrl, `/blog/${encodeURIComponent(slug)}`);
    await waitFor(teacher, byRole('heading', title));
    await waitForText(teacher, comment, '#comments-title + div + div');
    const comments = await textOf(teacher, '#comments-title + div + div');
    assert.ok(!comments.includes(Spec.pendingApproval), `the approved comment is still labelled: ${comments}`);

    await open(admin, ctx.baseUrl, '/admin/posts');
    await click(admin, byRole('button', `Unpublish ${title}`));
    await waitFor(admin, byRole('button', `Publish ${title}`));

    assert.ok(!(await sitemap(ctx)).includes(slug), `the sitemap still lists the unpublished post ${slug}`);
    await searchBlog(visitor, ctx, word);
    await waitFor(visitor, byRole('heading', Spec.noMatch));
    assert.equal(await isPresent(visitor, byRole('link', `Read More: ${title}`)), false, 'the unpublished post is still found');
  },
};

export const blogJourneys: readonly Journey[] = [blogLifecycle];
