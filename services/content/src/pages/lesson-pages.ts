import { DEFAULT_SEO_SETTINGS, type Post, type SeoSettings } from '@district/contracts';
import type { PageFetch, PageHead, PageLookup, PagePlugin } from '@district/nest-common';

/**
 * content's page plug-in: `/blog/{slug}` gets the lesson's own title, description and preview tags (issue #4
 * §5), read from content's public post call by the gateway, which runs it without knowing what a lesson is.
 */

/** `/blog/{slug}`: one segment, the spec's slug alphabet (or a post id, which is hex and hyphens). */
const BLOG_POST_PATH = /^\/blog\/([a-z0-9][a-z0-9-]{0,119})\/?$/;

/** Where a public post is read; the gateway asks the service its route table sends this path to. */
export const POST_LOOKUP_PATH = '/api/posts/public/';
const SETTINGS_PATH = '/api/seo/settings';

export function blogSlugOf(pathname: string): string | undefined {
  return BLOG_POST_PATH.exec(pathname)?.[1];
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

  return {
    match: blogSlugOf,
    async lookup(slug: string, fetch: PageFetch): Promise<PageLookup> {
      const [post, site] = await Promise.all([
        fetch<Post>(`${POST_LOOKUP_PATH}${encodeURIComponent(slug)}`),
        siteSettings(fetch),
      ]);
      if (post.status === 404) return { kind: 'missing' };
      if (post.status !== 200 || !post.body || typeof post.body.slug !== 'string')
        return { kind: 'unavailable' };
      return { kind: 'found', head: lessonPageHead(post.body, site) };
    },
  };
}
