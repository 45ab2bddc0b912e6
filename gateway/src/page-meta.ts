import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { DEFAULT_SEO_SETTINGS, Headers, type Post, type SeoSettings } from '@district/contracts';
import type { UpstreamPool } from './upstream-pool';
import { fetchUpstreamJson, type UpstreamJson } from './upstream-fetch';

/**
 * Server-set <title>, description, canonical link and Open Graph / Twitter tags for `/blog/{slug}`, so a
 * shared lesson link previews well in chat apps and search results that do not run JavaScript (issue #4 §5).
 * The SPA's index.html is served as usual, with these tags in its head; they come from the public post call of
 * the service the route table sends it to (a path built from a validated slug on a configured upstream: no
 * user-chosen host is ever fetched).
 */

/** `/blog/{slug}`: one segment, the spec's slug alphabet (or a post id, which is hex and hyphens). */
const BLOG_POST_PATH = /^\/blog\/([a-z0-9][a-z0-9-]{0,119})\/?$/;

export function blogSlugOf(pathname: string): string | undefined {
  return BLOG_POST_PATH.exec(pathname)?.[1];
}

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute canonical URL of the page. */
  url: string;
  siteName: string;
  /** Absolute http(s) URL of the preview image. */
  image?: string;
  keywords: readonly string[];
  publishedAt?: string;
  section?: string;
  tags: readonly string[];
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c] as string,
  );
}

/** Collapses whitespace and cuts at `max` characters on a word boundary, with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** An image URL safe to put in a preview: http(s) only, made absolute against the site's origin. */
export function absoluteImageUrl(value: string | null | undefined, origin: string): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function postPageMeta(post: Post, settings: Pick<SeoSettings, 'siteName'>, origin: string): PageMeta {
  const heading = post.seoTitle?.trim() || post.title;
  const description = clip(post.metaDescription?.trim() || post.excerpt || heading, 200);
  return {
    title: `${heading} · ${settings.siteName}`,
    description,
    url: `${origin}/blog/${encodeURIComponent(post.slug)}`,
    siteName: settings.siteName,
    image: absoluteImageUrl(post.featuredImage, origin),
    keywords: post.metaKeywords ?? [],
    publishedAt: post.publishedAt ?? undefined,
    section: post.categoryName ?? undefined,
    tags: post.tags ?? [],
  };
}

/** The tags for the page's <head>. */
export function renderHeadTags(meta: PageMeta): string {
  const e = escapeHtml;
  const tags = [
    `<title>${e(meta.title)}</title>`,
    `<meta name="description" content="${e(meta.description)}" />`,
    meta.keywords.length ? `<meta name="keywords" content="${e(meta.keywords.join(', '))}" />` : '',
    `<link rel="canonical" href="${e(meta.url)}" />`,
    `<meta property="og:type" content="article" />`,
    `<meta property="og:site_name" content="${e(meta.siteName)}" />`,
    `<meta property="og:title" content="${e(meta.title)}" />`,
    `<meta property="og:description" content="${e(meta.description)}" />`,
    `<meta property="og:url" content="${e(meta.url)}" />`,
    meta.image ? `<meta property="og:image" content="${e(meta.image)}" />` : '',
    meta.publishedAt ? `<meta property="article:published_time" content="${e(meta.publishedAt)}" />` : '',
    meta.section ? `<meta property="article:section" content="${e(meta.section)}" />` : '',
    ...meta.tags.map((tag) => `<meta property="article:tag" content="${e(tag)}" />`),
    `<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${e(meta.title)}" />`,
    `<meta name="twitter:description" content="${e(meta.description)}" />`,
    meta.image ? `<meta name="twitter:image" content="${e(meta.image)}" />` : '',
  ];
  return tags.filter(Boolean).join('\n    ');
}

/**
 * index.html with the page's tags: its own <title> and description are replaced (the first <title> wins in
 * browsers, and two descriptions confuse crawlers), the rest go at the end of <head>.
 */
export function injectHead(indexHtml: string, headTags: string): string {
  const withoutOwn = indexHtml
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '');
  const at = withoutOwn.search(/<\/head>/i);
  if (at === -1) return withoutOwn;
  return `${withoutOwn.slice(0, at)}  ${headTags}\n  ${withoutOwn.slice(at)}`;
}

export type PostLookup =
  | { kind: 'found'; meta: PageMeta }
  | { kind: 'missing' }
  /** The posts' service is down, slow or answered oddly: serve the plain app and let it deal with the post. */
  | { kind: 'unavailable' };

/** Where a public post is read; the gateway asks the service its route table sends this path to. */
export const POST_LOOKUP_PATH = '/api/posts/public/';

export interface PageMetaOptions {
  /** The replicas of the service that answers POST_LOOKUP_PATH; none when no service does. */
  pool: UpstreamPool | undefined;
  /** The site's public origin, for canonical and image URLs. */
  publicOrigin: string;
  logger: Logger;
  timeoutMs?: number;
  /** How long the site name is reused before it is read again. */
  settingsTtlMs?: number;
}

/** Looks up a published post's preview details from the service that answers POST_LOOKUP_PATH. */
export class PostPageMeta {
  private settings?: { value: Pick<SeoSettings, 'siteName'>; until: number };
  private readonly timeoutMs: number;
  private readonly settingsTtlMs: number;
  private readonly origin: string;

  constructor(private readonly options: PageMetaOptions) {
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.settingsTtlMs = options.settingsTtlMs ?? 30_000;
    this.origin = options.publicOrigin.replace(/\/+$/, '');
  }

  async lookup(slug: string, req: IncomingMessage): Promise<PostLookup> {
    const requestId = String(req.headers[Headers.requestId] ?? '');
    const pool = this.options.pool;
    if (!pool || pool.availableCount() === 0) return { kind: 'unavailable' };
    try {
      const [post, settings] = await Promise.all([
        this.getJson<Post>(pool, `${POST_LOOKUP_PATH}${encodeURIComponent(slug)}`, requestId),
        this.siteSettings(pool, requestId),
      ]);
      if (post.status === 404) return { kind: 'missing' };
      if (post.status !== 200 || !post.body || typeof post.body.slug !== 'string')
        return { kind: 'unavailable' };
      return { kind: 'found', meta: postPageMeta(post.body, settings, this.origin) };
    } catch (err) {
      this.options.logger.warn({ err, requestId, slug }, 'post preview details unavailable');
      return { kind: 'unavailable' };
    }
  }

  private async siteSettings(pool: UpstreamPool, requestId: string): Promise<Pick<SeoSettings, 'siteName'>> {
    const now = Date.now();
    if (this.settings && this.settings.until > now) return this.settings.value;
    const answer = await this.getJson<SeoSettings>(pool, '/api/seo/settings', requestId);
    const siteName = answer.status === 200 && answer.body?.siteName ? answer.body.siteName : undefined;
    if (!siteName) return this.settings?.value ?? { siteName: DEFAULT_SEO_SETTINGS.siteName };
    this.settings = { value: { siteName }, until: now + this.settingsTtlMs };
    return this.settings.value;
  }

  private getJson<T>(pool: UpstreamPool, path: string, requestId: string): Promise<UpstreamJson<T>> {
    return fetchUpstreamJson<T>(pool, path, { requestId, timeoutMs: this.timeoutMs });
  }
}
