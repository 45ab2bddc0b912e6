import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { VIEWPORT } from '../support/browser';
import type { Journey, JourneyContext } from '../support/harness';
import { TOPOLOGIES } from '../support/stacks';
import { byRole, click, open, waitFor } from '../support/ui';
import { ADMIN, apiCall, DEMO_PASSWORD, pageFetch, STUDENT, TEACHER } from './shell.journey';

/**
 * Issue #34 item 11: no page scrolls sideways on a phone. Every route of the SPA's route table is opened at 375 px
 * by the persona that sees its real screen (and the guard screens by a visitor), and the document may be no wider
 * than the viewport; each page is then measured again at 320 and 414 px and at the desktop width without reloading
 * (a resize is only a layout, so the extra widths cost almost nothing).
 */

/** 375 px first (the phone), then the narrowest and widest common phones, then the suite's desktop width. */
const WIDTHS = [375, 320, 414, VIEWPORT.width] as const;

type Persona = 'visitor' | 'student' | 'teacher' | 'admin';

/** Every path pattern of web/src/app/router.tsx's `appRoutes`, read from the source so a new route cannot be skipped. */
function routerPaths(): string[] {
  const source = readFileSync(path.resolve(__dirname, '../../../web/src/app/router.tsx'), 'utf8');
  const table = source.slice(source.indexOf('export const appRoutes'));
  const paths = [...table.slice(0, table.indexOf('];')).matchAll(/\{\s*path:\s*'([^']+)'/g)].map((m) => m[1]);
  assert.ok(paths.length > 20, `read only ${paths.length} routes from web/src/app/router.tsx`);
  return paths;
}

interface Visit {
  persona: Persona;
  url: string;
}

/**
 * Who opens each route pattern, and at which concrete address. Every pattern of the router must be here (checked),
 * with the persona that gets the screen itself: admin pages by the admin, the grade dashboards and lesson plans by
 * a teacher, the other login pages by a student, public pages by a visitor. A few screens whose content differs
 * by role are visited twice, and a visitor meets the guard screen.
 */
function visitsFor(
  pattern: string,
  ids: { slug: string; postId: string; runId: string; classId: string },
): Visit[] {
  const as = (persona: Persona, url = pattern): Visit => ({ persona, url });
  switch (pattern) {
    case '/admin/posts/new':
    case '/admin/posts':
    case '/admin/users':
    case '/admin/comments':
    case '/admin/categories':
    case '/admin/seo':
    case '/admin/chatrooms':
    case '/admin/schools':
    case '/admin/classes':
    case '/admin/roster':
    case '/admin':
      return [as('admin')];
    // The district's screens (ADR 0042): a district administrator manages every school; the demo teacher teaches
    // the demo student's class, which both open.
    case '/schools':
    case '/schools/classes':
      return [as('admin')];
    case '/classes':
      return [as('student'), as('teacher')];
    case '/classes/:id':
      return [as('student', `/classes/${ids.classId}`), as('teacher', `/classes/${ids.classId}`)];
    case '/admin/posts/edit/:id':
      return [as('admin', `/admin/posts/edit/${ids.postId}`)];
    case '/admin/quiz-grades-dashboard':
    case '/admin/text-quiz-grades-dashboard':
    case '/lesson-plans':
      return [as('teacher')];
    case '/blog/:slug':
      // The visitor meets the 'Authentication Required' guard; the admin also gets the inline Edit Post button.
      return [
        as('visitor', `/blog/${ids.slug}`),
        as('student', `/blog/${ids.slug}`),
        as('admin', `/blog/${ids.slug}`),
      ];
    case '/educational-tools':
    case '/audio-quizzes':
    case '/audio-lists':
    case '/google-slides':
      // Teachers see more here (all 12 tools, the grades table, the create and edit controls).
      return [as('student'), as('teacher')];
    case '/text-quizzes':
    case '/listen-to-type':
    case '/profile':
      return [as('student')];
    case '/blog':
    case '/bingo-generator':
    case '/word-bingo':
    case '/spanish-alphabet':
    case '/word-sorter':
    case '/code-evolution':
    case '/crossword-generator':
    case '/sound-demo':
    case '/':
      return [as('visitor')];
    case '*':
      return [as('visitor', `/no/such/page-${ids.runId}`)];
    default:
      throw new Error(`route ${pattern} of web/src/app/router.tsx has no visit in layout.journey.ts: add it`);
  }
}

/** What sticks out past the right edge: the innermost elements wider than the viewport, to say where to look. */
async function overflowReport(
  page: Page,
  width: number,
): Promise<{ scrollWidth: number; culprits: string[] }> {
  return page.evaluate((w: number) => {
    const out = (el: Element) => el.getBoundingClientRect().right > w + 0.5;
    const culprits = Array.from(document.body.querySelectorAll('*'))
      .filter((el) => out(el) && !Array.from(el.children).some(out))
      .slice(0, 6)
      .map((el) => {
        const r = el.getBoundingClientRect();
        const text = (el.textContent ?? '').trim().slice(0, 40);
        return `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}"> ${Math.round(r.left)}–${Math.round(r.right)} px "${text}"`;
      });
    return { scrollWidth: document.documentElement.scrollWidth, culprits };
  }, width);
}

/**
 * The page shows its content: app shell up, nothing busy or spinning, and the API quiet for a moment. Media and
 * embedded frames (slides, audio) may keep loading from elsewhere; they do not change the layout's width.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForSelector('footer');
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .animate-spin'), {
    timeout: 10_000,
  });
  await page.waitForNetworkIdle({ idleTime: 150, timeout: 1_000, concurrency: 1 }).catch(() => undefined);
}

/**
 * Opens `url` in the already loaded app the way its own links do (a history entry the router follows), not by a
 * full load: the page is the same once its data is in, and not starting the app 36 times keeps the journey short.
 */
async function goTo(page: Page, url: string): Promise<void> {
  await page.evaluate((u: string) => {
    window.history.pushState(null, '', u);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await page.waitForFunction((u: string) => window.location.pathname === u, {}, url);
  // Let React commit the new route (or its loading spinner, which settled() then waits out).
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Signs in over the API from the test and hands the session cookie to the page's context: one app start, not two. */
async function signInByApi(ctx: JourneyContext, page: Page, email: string): Promise<void> {
  const res = await apiCall(ctx, 'POST', '/api/auth/login', { email, password: DEMO_PASSWORD });
  assert.equal(res.status, 200, `sign-in of ${email}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('district_session='));
  assert.ok(cookie, 'the sign-in set the session cookie');
  const value = cookie.slice('district_session='.length).split(';')[0]!;
  await page.setCookie({
    name: 'district_session',
    value,
    url: ctx.baseUrl,
    httpOnly: true,
    sameSite: 'Lax',
  });
}

/** Pages photographed at 375 px into e2e/artifacts, to look at. */
const SCREENSHOTS = ['/', '/blog/', '/admin/categories', '/admin/users', '/audio-lists'];

const noSidewaysScroll: Journey = {
  id: 60,
  title: 'every route at 320, 375 and 414 px and on a desktop: nothing scrolls sideways',
  topologies: TOPOLOGIES,
  timeoutMs: 120_000,
  async run(ctx: JourneyContext) {
    const emails = {
      visitor: null,
      student: STUDENT.email,
      teacher: TEACHER.email,
      admin: ADMIN.email,
    } as const;
    const pages = new Map<Persona, Page>(
      await Promise.all(
        (Object.keys(emails) as Persona[]).map(async (persona): Promise<[Persona, Page]> => {
          const { page } = await ctx.session();
          await page.setViewport({ width: 375, height: 800 });
          const email = emails[persona];
          if (email) await signInByApi(ctx, page, email);
          await open(page, ctx.baseUrl, '/');
          return [persona, page];
        }),
      ),
    );
    const admin = pages.get('admin')!;
    const fixture = await longWordLesson(admin, ctx.runId);
    try {
      const classes = await pageFetch(pages.get('teacher')!, 'GET', '/api/classes');
      assert.equal(classes.status, 200, `the demo teacher's classes: ${JSON.stringify(classes.body)}`);
      const classId = (classes.body as { id: string }[])[0]?.id;
      assert.ok(classId, 'the demo teacher teaches a class of the demo district');
      const ids = { slug: fixture.slug, postId: fixture.postId, runId: ctx.runId, classId };
      await visitEveryRoute(ctx, pages, ids);
    } finally {
      await fixture.remove();
    }
  },
};

/**
 * A published lesson, a category and a comment made of words longer than a phone is wide: an author may paste a
 * URL or a long compound word anywhere, and the layout must wrap it, not widen the page (the 627 px cards
 * came from such a word in an excerpt). Removed again afterwards, so later journeys see the demo district.
 */
async function longWordLesson(
  admin: Page,
  runId: string,
): Promise<{ slug: string; postId: string; remove(): Promise<void> }> {
  const word = (n: number) => `Pneumonoultramicroscopicsilicovolcanoconiosis${runId}`.repeat(n);
  const category = await pageFetch(admin, 'POST', '/api/categories', {
    name: word(2).slice(0, 100),
    description: word(2),
  });
  assert.equal(category.status, 201, `category: ${JSON.stringify(category.body)}`);
  const categoryId = (category.body as { id: string }).id;
  const post = await pageFetch(admin, 'POST', '/api/posts', {
    title: `Layout ${word(3)}`.slice(0, 200),
    slug: `layout-long-words-${runId}`,
    content: `<p>${word(4)}</p><p>https://example.org/${word(2)}</p><h2>${word(2)}</h2>`,
    categoryId,
    tags: [word(1).slice(0, 50)],
    status: 'published',
  });
  assert.equal(post.status, 201, `post: ${JSON.stringify(post.body)}`);
  const { id: postId, slug } = post.body as { id: string; slug: string };
  const comment = await pageFetch(admin, 'POST', `/api/posts/${postId}/comments`, {
    content: `<p>${word(3)}</p>`,
    status: 'approved',
  });
  assert.equal(comment.status, 201, `comment: ${JSON.stringify(comment.body)}`);
  return {
    slug,
    postId,
    async remove() {
      await pageFetch(admin, 'DELETE', `/api/posts/${postId}`);
      await pageFetch(admin, 'DELETE', `/api/categories/${categoryId}`);
    },
  };
}

async function visitEveryRoute(
  ctx: JourneyContext,
  pages: Map<Persona, Page>,
  ids: { slug: string; postId: string; runId: string; classId: string },
): Promise<void> {
  const visits = routerPaths().flatMap((pattern) => visitsFor(pattern, ids));
  const problems: string[] = [];
  const measure = async (page: Page, where: string, width: number) => {
    const { scrollWidth, culprits } = await overflowReport(page, width);
    if (scrollWidth > width)
      problems.push(`${where} at ${width} px is ${scrollWidth} px wide:\n      ${culprits.join('\n      ')}`);
  };

  // Each persona's page walks its own routes; the four walk side by side (each has its own context).
  const personas = [...pages.keys()];
  await Promise.all(
    personas.map(async (persona) => {
      const page = pages.get(persona)!;
      for (const visit of visits.filter((v) => v.persona === persona)) {
        await goTo(page, visit.url);
        await settled(page);
        for (const width of WIDTHS) {
          await page.setViewport({ width, height: 800 });
          await measure(page, `${visit.url} (${persona})`, width);
        }
        await page.setViewport({ width: 375, height: 800 });
        const shot = SCREENSHOTS.find((s) => visit.url.startsWith(s) && (s !== '/' || visit.url === '/'));
        if (shot !== undefined) {
          const name = shot.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';
          // The top of the page at full resolution, in a tall window (capturing beyond the viewport drops
          // backdrop-blurred boxes from the picture).
          await page.setViewport({ width: 375, height: 1600 });
          await page.evaluate(
            () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
          );
          await page.screenshot({
            path: path.join(ctx.artifacts, `${ctx.topology}-j60-375-${name}.png`) as `${string}.png`,
          });
          await page.setViewport({ width: 375, height: 800 });
        }
      }
    }),
  );

  // The open navigation menu and the sign-in dialog on the narrowest phone.
  const visitor = pages.get('visitor')!;
  await visitor.setViewport({ width: 320, height: 700 });
  await open(visitor, ctx.baseUrl, '/');
  await click(visitor, byRole('button', 'Open menu'));
  await waitFor(visitor, byRole('button', 'Sign In'));
  await measure(visitor, '/ with the menu open', 320);
  await click(visitor, byRole('button', 'Sign In'));
  await waitFor(visitor, byRole('dialog', 'Sign In'));
  await measure(visitor, '/ with the Sign In dialog', 320);

  ctx.log(`${visits.length} visits × ${WIDTHS.length} widths`);
  assert.deepEqual(problems, [], `pages wider than the window:\n  ${problems.join('\n  ')}`);
}

export const layoutJourneys: readonly Journey[] = [noSidewaysScroll];
