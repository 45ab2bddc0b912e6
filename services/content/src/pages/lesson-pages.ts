import { DEFAULT_SEO_SETTINGS, TOTAL_COUNT_HEADER, type Post, type SeoSettings } from '@district/contracts';
import type {
  PageFetch,
  PageHead,
  PageInitialData,
  PageLookup,
  PagePlugin,
  PageText,
} from '@district/nest-common';
import { htmlToParagraphs, htmlToText } from '../html/html-text';

/**
 * content's page plug-in: `/blog/{slug}` gets the lesson's own title, description and preview tags (issue #4
 * §5), read from content's public post call by the gateway, which runs it without knowing what a lesson is.
 * Home, `/blog` and `/blog/{slug}` also get the data their first screen shows (issue #15): the same public
 * answers a signed-out visitor's app would fetch, embedded so the app paints lessons without fetching them, and
 * the same lessons as plain text for crawlers that run no script.
 */

/** `/blog/{slug}`: one segment, the spec's slug alphabet (or a post id, which is hex and hyphens). */
const BLOG_POST_PATH = /^\/blog\/([a-z0-9][a-z0-9-]{0,119})\/?$/;

/** Where a public post is read; the gateway asks the service its route table sends this path to. */
export const POST_LOOKUP_PATH = '/api/posts/public/';
const SETTINGS_PATH = '/api/seo/settings';

/** The GET the lesson page makes for its comments, exactly as the web app spells it. */
export function lessonCommentsPath(postId: string): string {
  return `/api/posts/${encodeURIComponent(postId)}/comments`;
}

export function blogSlugOf(pathname: string): string | undefined {
  return BLOG_POST_PATH.exec(pathname)?.[1];
}

/** The list pages' keys: paths, so they can never be mistaken for a slug (which has no '/'). */
export const HOME_PAGE = '/';
export const BLOG_LIST_PAGE = '/blog';
/** What the web app asks for on those pages (web/src/config/constants.ts HOME_POSTS_LIMIT, blog.constants.ts BLOG_PAGE_SIZE). */
export const HOME_POSTS_LIMIT = 6;
export const BLOG_PAGE_SIZE = 9;
/** At most this much lesson text goes into the crawlers' copy (the embedded data has the whole lesson). */
const TEXT_MAX = 20_000;

/** The embedded data, read by the web app (web/src/lib/initial-data.ts checks every field again). */
export type LessonPagesData =
  | { page: 'home'; limit: number; posts: Post[] }
  | { page: 'blog'; limit: number; page1: { posts: Post[]; total: number } }
  | { page: 'post'; slug: string; post: Post };

export function lessonPagesKey(pathname: string): string | undefined {
  if (pathname === HOME_PAGE) return HOME_PAGE;
  if (pathname === BLOG_LIST_PAGE || pathname === `${BLOG_LIST_PAGE}/`) return BLOG_LIST_PAGE;
  return blogSlugOf(pathname);
}

/** A post from a public answer that really is public: published, with a slug (anything else is left out). */
function isPublished(post: unknown): post is Post {
  if (typeof post !== 'object' || post === null) return false;
  const p = post as Partial<Post>;
  return p.status === 'published' && typeof p.slug === 'string' && typeof p.title === 'string';
}

function lessonLink(post: Post): { href: string; title: string; summary: string } {
  return {
    href: `/blog/${encodeURIComponent(post.slug)}`,
    title: post.title,
    summary: clip(htmlToText(post.excerpt ?? ''), 300),
  };
}

function listText(heading: string, posts: Post[]): PageText {
  return { heading, links: posts.map(lessonLink) };
}

/** The lesson as plain text: one paragraph per block of its content (a table row's cells on one line), clipped. */
export function lessonText(post: Post): PageText {
  const paragraphs: string[] = [];
  let length = 0;
  for (const text of htmlToParagraphs(post.content ?? '')) {
    if (length + text.length > TEXT_MAX) {
      paragraphs.push(clip(text, Math.max(1, TEXT_MAX - length)));
      break;
    }
    paragraphs.push(text);
    length += text.length;
  }
  return { heading: post.title, paragraphs };
}

/** Collapses whitespace and cuts at `max` characters on a word boundary, with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function lessonPageHead(post: Post, settings: Pick<SeoSettings, 'siteName'>): PageHead {
  const heading = post.seoTitle?.trim() || post.title;
  return {
    title: `${heading} · ${settings.siteName}`,
    description: clip(post.metaDescription?.trim() || post.excerpt || heading, 200),
    path: `/blog/${encodeURIComponent(post.slug)}`,
    siteName: settings.siteName,
    image: post.featuredImage,
    keywords: post.metaKeywords ?? [],
    publishedAt: post.publishedAt ?? undefined,
    section: post.categoryName ?? undefined,
    tags: post.tags ?? [],
  };
}

/** A plug-in with its own site-name cache (one per gateway). */
export function createLessonPages(options: { settingsTtlMs?: number } = {}): PagePlugin {
  const settingsTtlMs = options.settingsTtlMs ?? 30_000;
  let settings: { value: Pick<SeoSettings, 'siteName'>; until: number } | undefined;

  async function siteSettings(fetch: PageFetch): Promise<Pick<SeoSettings, 'siteName'>> {
    const now = Date.now();
    if (settings && settings.until > now) return settings.value;
    const answer = await fetch<SeoSettings>(SETTINGS_PATH);
    const siteName = answer.status === 200 && answer.body?.siteName ? answer.body.siteName : undefined;
    if (!siteName) return settings?.value ?? { siteName: DEFAULT_SEO_SETTINGS.siteName };
    settings = { value: { siteName }, until: now + settingsTtlMs };
    return settings.value;
  }

  async function listPage(key: string, fetch: PageFetch): Promise<PageLookup> {
    const home = key === HOME_PAGE;
    const limit = home ? HOME_POSTS_LIMIT : BLOG_PAGE_SIZE;
    // The public list's own cache may answer (ADR 0009): every visitor gets the same list.
    const answer = await fetch<unknown>(`/api/posts/public?limit=${limit}${home ? '' : '&page=1'}`, {
      fresh: false,
    });
    if (answer.status !== 200 || !Array.isArray(answer.body)) return { kind: 'unavailable' };
    const posts = answer.body.filter(isPublished).slice(0, limit);
    if (home) {
      return {
        kind: 'found',
        initial: { data: { page: 'home', limit, posts }, text: listText('Latest Lessons', posts) },
      };
    }
    const header = Number(answer.headers?.[TOTAL_COUNT_HEADER]);
    // A draft the filter dropped must not be counted either; without the header the app would use the length.
    const total =
      Number.isInteger(header) && header >= 0 && posts.length === answer.body.length ? header : posts.length;
    const initial: PageInitialData = {
      data: { page: 'blog', limit, page1: { posts, total } },
      text: listText('Lessons', posts),
    };
    return { kind: 'found', initial };
  }

  return {
    match: lessonPagesKey,
    async lookup(key: string, fetch: PageFetch): Promise<PageLookup> {
      if (key === HOME_PAGE || key === BLOG_LIST_PAGE) return listPage(key, fetch);
      const slug = key;
      const [post, site] = await Promise.all([
        fetch<Post>(`${POST_LOOKUP_PATH}${encodeURIComponent(slug)}`),
        siteSettings(fetch),
      ]);
      if (post.status === 404) return { kind: 'missing' };
      if (post.status !== 200 || !post.body || typeof post.body.slug !== 'string')
        return { kind: 'unavailable' };
      // A non-public answer on the public path is treated as not found: nothing of it reaches the page.
      if (!isPublished(post.body)) return { kind: 'missing' };
      const data: LessonPagesData = { page: 'post', slug, post: post.body };
      return {
        kind: 'found',
        head: lessonPageHead(post.body, site),
        initial: { data, text: lessonText(post.body) },
        // The lesson's comments load with its first screen (web features/blog/api/comments.ts): asked for in parallel
        // with the app's code (ADR 0024).
        preload: [lessonCommentsPath(post.body.id)],
      };
    },
  };
}
