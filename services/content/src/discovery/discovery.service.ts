import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { PLATFORM_RUNTIME, type PlatformRuntime } from '@district/nest-common';
import { PostsRepository } from '../posts/posts.repository';
import { SiteSettingsService } from '../settings/site-settings.service';
import { DiscoveryRepository } from './discovery.repository';

/** sitemaps.org allows 50,000 URLs per file. */
const SITEMAP_MAX_POSTS = 49_000;
const RSS_ITEMS = 50;
const SITEMAP_DOCUMENT = 'sitemap.xml';

export interface StoredSitemap {
  xml: string;
  urlCount: number;
  generatedAt: Date;
}

export function escapeXml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
  );
}

/** Removes characters XML 1.0 forbids, so a stray control character in a title cannot break the feed. */
function xmlText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return escapeXml(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''));
}

/** What search engines and feed readers fetch: /sitemap.xml, /robots.txt and /rss.xml, built from the database. */
@Injectable()
export class DiscoveryService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DiscoveryRepository) private readonly documents: DiscoveryRepository,
    @Inject(PostsRepository) private readonly posts: PostsRepository,
    @Inject(SiteSettingsService) private readonly settings: SiteSettingsService,
    @Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime,
  ) {}

  /**
   * The stored sitemap, as the last regeneration left it (content.post.* events and the admin's "Generate
   * sitemap" keep it current; see ADR 0008). Built and stored on first use.
   */
  async sitemap(): Promise<StoredSitemap> {
    const stored = await this.documents.find(SITEMAP_DOCUMENT);
    if (stored) return { xml: stored.body, urlCount: stored.itemCount, generatedAt: stored.generatedAt };
    return this.regenerateSitemap();
  }

  /**
   * Builds the sitemap from the published posts and stores it. Regenerations are serialised by a lock, and each
   * reads the posts after taking it, so the last one stored always saw the latest committed change, however
   * events from several replicas interleave.
   */
  async regenerateSitemap(): Promise<StoredSitemap> {
    return this.dataSource.transaction(async (tx) => {
      await this.documents.lockSitemap(tx);
      const built = await this.buildSitemap(tx);
      const generatedAt = await this.documents.store(tx, SITEMAP_DOCUMENT, built.xml, built.urlCount);
      return { ...built, generatedAt };
    });
  }

  /** The home page, the lesson list and every published post with its last change. */
  private async buildSitemap(tx: EntityManager): Promise<{ xml: string; urlCount: number }> {
    const rows = await this.posts.publishedSlugs(SITEMAP_MAX_POSTS, tx);
    const base = this.runtime.publicUrl.replace(/\/+$/, '');
    const newest = rows.reduce<Date | null>(
      (max, r) => (!max || r.updated_at > max ? r.updated_at : max),
      null,
    );
    const entry = (path: string, lastmod: Date | null) =>
      `  <url><loc>${escapeXml(base + path)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`;
    const urls = [
      entry('/', newest),
      entry('/blog', newest),
      ...rows.map((r) => entry(`/blog/${encodeURIComponent(r.slug)}`, r.updated_at)),
    ];
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
    return { xml, urlCount: urls.length };
  }

  /** The admin's robots.txt, or one that keeps crawlers out of the admin and API and points at the sitemap. */
  async robots(): Promise<string> {
    const settings = await this.settings.get();
    if (settings.robotsTxt.trim())
      return settings.robotsTxt.endsWith('\n') ? settings.robotsTxt : `${settings.robotsTxt}\n`;
    const base = this.runtime.publicUrl.replace(/\/+$/, '');
    const lines = ['User-agent: *', 'Allow: /', 'Disallow: /admin', 'Disallow: /api/'];
    if (settings.sitemapEnabled) lines.push('', `Sitemap: ${base}/sitemap.xml`);
    return `${lines.join('\n')}\n`;
  }

  /** RSS 2.0 of the latest published lessons. */
  async rss(): Promise<string> {
    const settings = await this.settings.get();
    const rows = await this.posts.latestPublished(RSS_ITEMS);
    const base = this.runtime.publicUrl.replace(/\/+$/, '');
    const items = rows.map((r) => {
      const link = `${base}/blog/${encodeURIComponent(r.slug)}`;
      return [
        '    <item>',
        `      <title>${xmlText(r.title)}</title>`,
        `      <link>${escapeXml(link)}</link>`,
        `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
        `      <description>${xmlText(r.excerpt)}</description>`,
        `      <dc:creator>${xmlText(r.author_name)}</dc:creator>`,
        r.category_name ? `      <category>${xmlText(r.category_name)}</category>` : null,
        `      <pubDate>${r.published_at.toUTCString()}</pubDate>`,
        '    </item>',
      ]
        .filter((line) => line !== null)
        .join('\n');
    });
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
      '  <channel>',
      `    <title>${xmlText(settings.siteName)}</title>`,
      `    <link>${escapeXml(`${base}/blog`)}</link>`,
      `    <description>${xmlText(settings.siteDescription || settings.siteName)}</description>`,
      `    <atom:link href="${escapeXml(`${base}/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
      rows[0] ? `    <lastBuildDate>${rows[0].published_at.toUTCString()}</lastBuildDate>` : null,
      ...items,
      '  </channel>',
      '</rss>',
      '',
    ]
      .filter((line) => line !== null)
      .join('\n');
  }
}
