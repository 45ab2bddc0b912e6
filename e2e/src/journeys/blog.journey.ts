import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import type { Journey, JourneyContext } from '../support/harness';
import {
  byRole,
  click,
  fill,
  inDialog,
  isPresent,
  open,
  pathOf,
  signInWithModal,
  textOf,
  waitFor,
  waitForText,
  waitForToast,
} from '../support/ui';
import { pngImage } from '../support/png';
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

/** The stored sitemap follows content.post.* events: give the event a few seconds to arrive. */
async function untilSitemap(ctx: JourneyContext, listed: boolean, slug: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await sitemap(ctx)).includes(`/blog/${slug}<`) !== listed) {
    assert.ok(
      Date.now() < deadline,
      `the sitemap ${listed ? 'lacks the published' : 'still lists the unpublished'} post ${slug}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What a link preview (a chat app, a search engine) sees: the server's HTML, no JavaScript run. */
async function previewTags(ctx: JourneyContext, slug: string): Promise<{ status: number; html: string }> {
  const res = await fetch(new URL(`/blog/${encodeURIComponent(slug)}`, ctx.baseUrl));
  return { status: res.status, html: await res.text() };
}

/** The featured image as the browser decoded it. */
async function imageSize(
  image: ElementHandle<Element>,
): Promise<{ src: string; width: number; height: number }> {
  return image.evaluate(async (img) => {
    const el = img as HTMLImageElement;
    await el.decode().catch(() => undefined);
    return { src: el.getAttribute('src') ?? '', width: el.naturalWidth, height: el.naturalHeight };
  });
}

const blogLifecycle: Journey = {
  id: 14,
  title: 'blog: category, post, search, comment moderation, unpublish',
  topologies: ['standalone', 'cluster'],
  timeoutMs: 150_000,
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
    await fill(
      admin,
      byRole('textbox', 'Content (HTML)'),
      `<h2>About the word</h2><p>This lesson is about ${word} and nothing else.</p>`,
    );
    // The featured image, uploaded from disk: the content service checks its bytes and stores it by hash.
    const imageFile = path.join(ctx.artifacts, `upload-${tag}.png`);
    await writeFile(imageFile, pngImage(96, 48));
    const fileInput = (await admin.waitForSelector(
      'input[type="file"][aria-label="Upload featured image"]',
    )) as ElementHandle<HTMLInputElement>;
    await fileInput.uploadFile(imageFile);
    await fileInput.dispose();
    const previewImage = await waitFor(admin, 'img[alt="Featured image preview"]');
    const uploaded = await imageSize(previewImage);
    await previewImage.dispose();
    assert.match(uploaded.src, /^\/uploads\/[0-9a-f]{64}\.png$/, 'the uploaded image URL');
    assert.deepEqual(
      [uploaded.width, uploaded.height],
      [96, 48],
      'the uploaded image as the browser decoded it',
    );
    const imageUrl = await admin.$eval(
      byRole('textbox', 'Featured image URL'),
      (el) => (el as HTMLInputElement).value,
    );
    assert.equal(imageUrl, uploaded.src, 'the Featured image URL field holds the uploaded image');
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
    // This site has no third-party provider: Read More is the email sign-in, not a link to a dead end (issue #34).
    await waitFor(visitor, byRole('button', `Read More: ${title}`));
    await waitForText(visitor, title, 'main ul');
    await waitForText(visitor, categoryName, 'main ul');
    await ctx.axe.check(visitor, 'blog search');
    // …and on home, among the latest lessons.
    await open(visitor, ctx.baseUrl, '/');
    await waitForText(visitor, title, 'main');
    // Read More there asks for the email sign-in, then opens the lesson the visitor wanted.
    const { page: reader } = await ctx.session();
    await open(reader, ctx.baseUrl, '/');
    await click(reader, byRole('button', `Read More: ${title}`));
    await waitFor(reader, byRole('dialog', 'Sign In'));
    assert.equal(
      await isPresent(reader, inDialog(byRole('link', 'Continue with Google'))),
      false,
      'a link to a provider the site lacks',
    );
    await fill(reader, inDialog(byRole('textbox', 'Email')), STUDENT.email);
    await fill(reader, inDialog(byRole('textbox', 'Password')), DEMO_PASSWORD);
    await click(reader, inDialog(byRole('button', 'Sign In')));
    await reader.waitForFunction(() => window.location.pathname.startsWith('/blog/'));
    assert.match(pathOf(reader), /^\/blog\/[^/]+$/, 'Read More came back to the lesson after signing in');
    await waitFor(reader, byRole('heading', title));

    // The student opens the post; the card's link gives the slug the server made from the title.
    const student = await signedIn(ctx, STUDENT.email);
    await searchBlog(student, ctx, word);
    const readMore = await waitFor(student, byRole('link', `Read More: ${title}`));
    const href = await readMore.evaluate((a) => a.getAttribute('href') ?? '');
    await readMore.dispose();
    const slug = decodeURIComponent(href.replace(/^\/blog\//, ''));
    assert.ok(slug && !slug.includes('/'), `unexpected post link ${href}`);
    await untilSitemap(ctx, true, slug);
    // Shared links preview well: the server puts the lesson's title and image in the page's head.
    const preview = await previewTags(ctx, slug);
    assert.equal(preview.status, 200, `GET /blog/${slug}`);
    assert.ok(preview.html.includes(`<title>${title} · `), `the server-set <title> of /blog/${slug}`);
    assert.ok(preview.html.includes(`<meta property="og:title" content="${title} · `), 'og:title');
    assert.ok(
      preview.html.includes(`<meta property="og:image" content="${new URL(imageUrl, ctx.baseUrl).href}"`),
      'og:image is the uploaded image',
    );
    await click(student, byRole('link', `Read More: ${title}`));
    await waitFor(student, byRole('heading', title));
    await waitForText(student, word, 'main');
    const shown = await waitFor(student, `main img[src="${imageUrl}"]`);
    assert.deepEqual(
      Object.values(await imageSize(shown)).slice(1),
      [96, 48],
      'the featured image on the post page',
    );
    await shown.dispose();
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
    assert.ok(
      !comments.includes(Spec.pendingApproval),
      `the approved comment is still labelled: ${comments}`,
    );

    await open(admin, ctx.baseUrl, '/admin/posts');
    await click(admin, byRole('button', `Unpublish ${title}`));
    await waitFor(admin, byRole('button', `Publish ${title}`));

    await untilSitemap(ctx, false, slug);
    assert.equal((await previewTags(ctx, slug)).status, 404, 'the unpublished post page answers 404');
    await searchBlog(visitor, ctx, word);
    await waitFor(visitor, byRole('heading', Spec.noMatch));
    assert.equal(
      await isPresent(visitor, byRole('button', `Read More: ${title}`)),
      false,
      'the unpublished post is still found',
    );
  },
};

export const blogJourneys: readonly Journey[] = [blogLifecycle];
