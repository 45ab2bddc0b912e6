import type { Post, SeoSettings } from '@district/contracts';
import type { PageFetch, PageLookup, PagePlugin } from '@district/nest-common';

/** index.html as Vite builds it (shortened): the head the gateway writes its tags into, the entry script. */
export const BUILT_INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>District Learning</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

/**
 * A test page plug-in: the gateway knows no page, so its tests hand it this one, as the launcher hands it the
 * one content declares (services/content/src/pages/lesson-pages.ts, tested there). Same paths and calls:
 * `/blog/{slug}` from `/api/posts/public/{slug}`, the site name from `/api/seo/settings` reused for 30 s.
 */
export function testLessonPages(): PagePlugin {
  let siteName: { value: string; until: number } | undefined;
  const siteNameOf = async (fetch: PageFetch): Promise<string> => {
    if (siteName && siteName.until > Date.now()) return siteName.value;
    const answer = await fetch<SeoSettings>('/api/seo/settings');
    const value = answer.body?.siteName ?? 'District';
    siteName = { value, until: Date.now() + 30_000 };
    return value;
  };
  return {
    match: (pathname) => /^\/blog\/([a-z0-9][a-z0-9-]{0,119})\/?$/.exec(pathname)?.[1],
    async lookup(slug, fetch): Promise<PageLookup> {
      const [post, site] = await Promise.all([fetch<Post>(`/api/posts/public/${slug}`), siteNameOf(fetch)]);
      if (post.status === 404) return { kind: 'missing' };
      if (post.status !== 200 || !post.body) return { kind: 'unavailable' };
      const p = post.body;
      const heading = p.seoTitle?.trim() || p.title;
      return {
        kind: 'found',
        head: {
          title: `${heading} · ${site}`,
          description: p.metaDescription?.trim() || p.excerpt || heading,
          path: `/blog/${p.slug}`,
          siteName: site,
          image: p.featuredImage,
          keywords: p.metaKeywords ?? [],
          publishedAt: p.publishedAt ?? undefined,
          section: p.categoryName ?? undefined,
          tags: p.tags ?? [],
        },
      };
    },
  };
}
