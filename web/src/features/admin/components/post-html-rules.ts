/**
 * What the server keeps of a post's HTML, mirrored from services/content/src/html/html-sanitizer.ts (POST_OPTIONS).
 * The editor uses it to accept only the frames the server would keep, and to tell whether switching to rich text
 * would drop anything that saving would have kept. Keep the two in step when the server's allow-list changes.
 */

/** Frame hosts and the embed path each must use (server: ALLOWED_IFRAME_HOSTS and IFRAME_PATHS). */
const IFRAME_PATHS: Record<string, RegExp> = {
  'docs.google.com': /^\/presentation\//,
  'www.youtube.com': /^\/embed\//,
  'youtube.com': /^\/embed\//,
  'www.youtube-nocookie.com': /^\/embed\//,
};

/** A frame source the server keeps: https, no credentials, an allowed host and that host's embed path. */
export function isAllowedIframeSrc(src: string | null | undefined): boolean {
  if (!src) return false;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  const path = IFRAME_PATHS[url.hostname];
  return (
    url.protocol === 'https:' && url.username === '' && url.password === '' && !!path && path.test(url.pathname)
  );
}

/** Attributes the rich-text editor keeps on a frame; the server keeps the same ones (and sets the last three itself). */
export const IFRAME_ATTRIBUTES = [
  'src',
  'width',
  'height',
  'title',
  'allowfullscreen',
  'frameborder',
  'allow',
  'sandbox',
  'loading',
  'referrerpolicy',
] as const;

/** sanitize-html's default allowedTags plus the post extras. */
const SERVER_TAGS = new Set([
  ...['address', 'article', 'aside', 'footer', 'header', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hgroup', 'main', 'nav'],
  ...['section', 'blockquote', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'hr', 'li', 'menu', 'ol', 'p', 'pre'],
  ...['ul', 'a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 'rb'],
  ...['rp', 'rt', 'rtc', 'ruby', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr'],
  ...['caption', 'col', 'colgroup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr'],
  ...['img', 'del', 'ins', 'iframe', 'video', 'audio', 'source'],
]);

/** Elements the server drops together with their text (sanitize-html's nonTextTags). */
const DROPPED_WITH_TEXT = 'script, style, textarea, option, noscript';

const SERVER_ATTRIBUTES: Record<string, readonly string[]> = {
  '*': ['class', 'title', 'lang', 'dir'],
  a: ['href', 'name', 'target', 'rel'],
  img: ['src', 'alt', 'width', 'height', 'loading'],
  iframe: IFRAME_ATTRIBUTES,
  video: ['src', 'controls', 'width', 'height', 'poster'],
  audio: ['src', 'controls'],
  source: ['src', 'type'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan', 'scope'],
  ol: ['start', 'type'],
};

/** URL schemes the server keeps per attribute (allowedSchemes, allowedSchemesByTag); relative URLs are kept too. */
const URL_SCHEMES: Record<string, readonly string[]> = {
  'a href': ['http', 'https', 'mailto', 'tel'],
  'img src': ['http', 'https'],
  'video src': ['https'],
  'audio src': ['https'],
  'source src': ['https'],
  'iframe src': ['https'],
};

function keepsUrl(tag: string, name: string, value: string): boolean {
  const schemes = URL_SCHEMES[`${tag} ${name}`];
  if (!schemes) return true;
  // Browsers ignore whitespace and control characters in a scheme ("java\tscript:"), so the server does too.
  const compact = Array.from(value)
    .filter((ch) => ch.charCodeAt(0) > 0x20)
    .join('');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1];
  if (!scheme) return !value.trim().startsWith('//');
  return schemes.includes(scheme.toLowerCase());
}

/** Tags the rich-text editor writes differently with the same meaning on the page. */
const SAME_AS: Record<string, string> = { b: 'strong', i: 'em', del: 's' };

/** How one element reads for the comparison: its tag and the attributes the server would keep, or null to skip it. */
function signature(el: Element): string | null {
  const tag = el.tagName.toLowerCase();
  if (!SERVER_TAGS.has(tag)) return null;
  if (tag === 'iframe' && !isAllowedIframeSrc(el.getAttribute('src'))) return null;
  const allowed = [...(SERVER_ATTRIBUTES['*'] ?? []), ...(SERVER_ATTRIBUTES[tag] ?? [])];
  const attrs = allowed
    .filter((name) => el.hasAttribute(name))
    .map((name) => [name, (el.getAttribute(name) ?? '').trim()] as const)
    // Values that mean nothing: an empty class or target, and a list starting at 1.
    .filter(([name, value]) => !((name === 'class' || name === 'target') && value === ''))
    .filter(([name, value]) => !(tag === 'ol' && name === 'start' && value === '1'))
    .filter(([name, value]) => keepsUrl(tag, name, value))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}="${value.replace(/"/g, '&quot;')}"`);
  // A bare <div> or <span> only groups content, and a bare <a> does nothing: the editor keeps their text.
  if ((tag === 'div' || tag === 'span' || tag === 'a') && attrs.length === 0) return null;
  return `<${[SAME_AS[tag] ?? tag, ...attrs].join(' ')}>`;
}

function read(html: string): { signatures: Set<string>; text: string } {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  doc.body.querySelectorAll(DROPPED_WITH_TEXT).forEach((el) => el.remove());
  doc.body.querySelectorAll('iframe').forEach((el) => {
    if (!isAllowedIframeSrc(el.getAttribute('src'))) el.remove();
  });
  const signatures = new Set<string>();
  doc.body.querySelectorAll('*').forEach((el) => {
    const sig = signature(el);
    if (sig) signatures.add(sig);
  });
  return { signatures, text: (doc.body.textContent ?? '').replace(/\s+/g, '') };
}

/**
 * What saving `original` would keep but `converted` (the same post after the rich-text editor read and wrote it)
 * no longer has: each lost element as the server would keep it, such as `<table>` or `<p class="intro">`, and
 * 'some text' when text went missing. Empty when nothing is lost. Frames from other hosts, scripts and attributes
 * the server strips are not counted: saving drops them anyway.
 */
export function lostInConversion(original: string, converted: string): string[] {
  const before = read(original);
  const after = read(converted);
  const lost = [...before.signatures].filter((sig) => !after.signatures.has(sig));
  if (before.text !== after.text) lost.push('some text');
  return lost;
}
