import type { PageHead, PageInitialData, PageText } from '@district/nest-common';

/**
 * Server-set <title>, description, canonical link and Open Graph / Twitter tags for the pages a plug-in describes
 * (issue #4 §5), so a shared link previews well in chat apps and search results that do not run JavaScript. The
 * values come from the plug-in the owning service declares; this file only escapes and places them.
 */

/** A page that names nothing public: the app says so, crawlers drop the URL. */
export const NOINDEX_TAG = '<meta name="robots" content="noindex" />';

export function escapeHtml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c] as string,
  );
}

/** A URL safe to put in a preview: http(s) only, made absolute against the site's origin. */
export function absoluteUrl(value: string | null | undefined, origin: string): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The tags for the page's <head>; `origin` is the site's public origin (no host is taken from a request). */
export function renderHeadTags(head: PageHead, origin: string): string {
  const e = escapeHtml;
  const site = origin.replace(/\/+$/, '');
  const url = `${site}${head.path.startsWith('/') ? head.path : `/${head.path}`}`;
  const image = absoluteUrl(head.image, site);
  const tags = [
    `<title>${e(head.title)}</title>`,
    `<meta name="description" content="${e(head.description)}" />`,
    head.keywords.length ? `<meta name="keywords" content="${e(head.keywords.join(', '))}" />` : '',
    `<link rel="canonical" href="${e(url)}" />`,
    `<meta property="og:type" content="article" />`,
    `<meta property="og:site_name" content="${e(head.siteName)}" />`,
    `<meta property="og:title" content="${e(head.title)}" />`,
    `<meta property="og:description" content="${e(head.description)}" />`,
    `<meta property="og:url" content="${e(url)}" />`,
    image ? `<meta property="og:image" content="${e(image)}" />` : '',
    head.publishedAt ? `<meta property="article:published_time" content="${e(head.publishedAt)}" />` : '',
    head.section ? `<meta property="article:section" content="${e(head.section)}" />` : '',
    ...head.tags.map((tag) => `<meta property="article:tag" content="${e(tag)}" />`),
    `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${e(head.title)}" />`,
    `<meta name="twitter:description" content="${e(head.description)}" />`,
    image ? `<meta name="twitter:image" content="${e(image)}" />` : '',
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

/** The id of the <script type="application/json"> the web app reads its first screen's data from (web/src/lib/initial-data.ts). */
export const INITIAL_DATA_ID = 'initial-data';

/**
 * JSON that can sit inside a <script> element: `<`, `>` and `&` become \u escapes (so no `</script>` or `<!--`
 * can end or change the element), and so do U+2028/U+2029 (line terminators to older JavaScript parsers).
 * JSON.parse gives back exactly the original value.
 */
export function jsonForScript(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A same-site path only: a plug-in's link that is not one becomes plain text. */
function sitePath(href: string): string | undefined {
  return /^\/(?![/\\])[^\s]*$/.test(href) ? href : undefined;
}

/**
 * The page's content as plain, escaped HTML inside <noscript> (ADR 0023): crawlers and previews that run no
 * script read it; browsers with script never render it, so it cannot flash or shift the app's layout.
 */
export function renderPlainContent(text: PageText): string {
  const e = escapeHtml;
  const parts = [`<h1>${e(text.heading)}</h1>`];
  for (const p of text.paragraphs ?? []) parts.push(`<p>${e(p)}</p>`);
  const links = text.links ?? [];
  if (links.length) {
    const items = links.map((link) => {
      const href = sitePath(link.href);
      const title = href ? `<a href="${e(href)}">${e(link.title)}</a>` : e(link.title);
      return `<li><h2>${title}</h2>${link.summary ? `<p>${e(link.summary)}</p>` : ''}</li>`;
    });
    parts.push(`<ul>${items.join('')}</ul>`);
  }
  return `<noscript><main>${parts.join('')}</main></noscript>`;
}

/** The embedded data and the plain copy, placed at the end of <body> (after #root; the app's module script is deferred). */
export function injectInitialData(indexHtml: string, initial: PageInitialData): string {
  const script = `<script type="application/json" id="${INITIAL_DATA_ID}">${jsonForScript(initial.data)}</script>`;
  const plain = renderPlainContent(initial.text);
  const at = indexHtml.search(/<\/body>/i);
  if (at === -1) return indexHtml;
  return `${indexHtml.slice(0, at)}  ${plain}\n    ${script}\n  ${indexHtml.slice(at)}`;
}
