import sanitizeHtml from 'sanitize-html';

/**
 * Where embedded frames may come from: Google Slides (docs.google.com/presentation) and YouTube.
 * Everything else is dropped, so a post can never frame an arbitrary page.
 */
export const ALLOWED_IFRAME_HOSTS = [
  'docs.google.com',
  'www.youtube.com',
  'youtube.com',
  'www.youtube-nocookie.com',
];
const IFRAME_PATHS: Record<string, RegExp> = {
  'docs.google.com': /^\/presentation\//,
  'www.youtube.com': /^\/embed\//,
  'youtube.com': /^\/embed\//,
  'www.youtube-nocookie.com': /^\/embed\//,
};

const COMMENT_REL = 'ugc noopener noreferrer nofollow';

/** A frame source we keep: https, an allowed host, and that host's embed path. */
export function isAllowedIframeSrc(src: string | undefined): boolean {
  if (!src) return false;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  const path = IFRAME_PATHS[url.hostname];
  return (
    url.protocol === 'https:' &&
    url.username === '' &&
    url.password === '' &&
    !!path &&
    path.test(url.pathname)
  );
}

const POST_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'figure',
    'figcaption',
    'h1',
    'h2',
    'span',
    'del',
    'ins',
    'sub',
    'sup',
    'mark',
    'u',
    's',
    'iframe',
    'video',
    'audio',
    'source',
  ],
  disallowedTagsMode: 'discard',
  allowedAttributes: {
    '*': ['class', 'title', 'lang', 'dir'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    iframe: ['src', 'width', 'height', 'title', 'allowfullscreen', 'frameborder', 'allow'],
    video: ['src', 'controls', 'width', 'height', 'poster'],
    audio: ['src', 'controls'],
    source: ['src', 'type'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    ol: ['start', 'type'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: {
    img: ['http', 'https'],
    video: ['https'],
    audio: ['https'],
    source: ['https'],
    iframe: ['https'],
  },
  allowProtocolRelative: false,
  allowedIframeHostnames: ALLOWED_IFRAME_HOSTS,
  allowIframeRelativeUrls: false,
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !isAllowedIframeSrc(frame.attribs.src),
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs:
        attribs.target === '_blank'
          ? { ...attribs, rel: 'noopener noreferrer' }
          : { ...attribs, target: attribs.target === '_self' ? '_self' : '' },
    }),
    // Sandboxed anyway: the player needs scripts in its own origin, never access to ours.
    iframe: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...attribs,
        sandbox: 'allow-scripts allow-same-origin allow-popups allow-presentation',
        loading: 'lazy',
        referrerpolicy: 'strict-origin-when-cross-origin',
      },
    }),
  },
};
// transformTags runs before the attribute filter, so the attributes it adds must be allowed.
(POST_OPTIONS.allowedAttributes as Record<string, string[]>).iframe.push(
  'sandbox',
  'loading',
  'referrerpolicy',
);

const COMMENT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'p',
    'br',
    'ul',
    'ol',
    'li',
    'blockquote',
    'code',
    'pre',
    'a',
  ],
  disallowedTagsMode: 'discard',
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: COMMENT_REL }) },
};

const TEXT_OPTIONS: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };

/** Post content: rich formatting, images, and frames from the allow-list only. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, POST_OPTIONS).trim();
}

/** Comments: basic formatting and links marked as user content. */
export function sanitizeCommentHtml(html: string): string {
  return sanitizeHtml(html, COMMENT_OPTIONS).trim();
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/** The readable text of an HTML fragment, whitespace collapsed (read time, search, excerpts). */
export function htmlToText(html: string): string {
  return sanitizeHtml(html, TEXT_OPTIONS)
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, code: string) => {
      const lower = code.toLowerCase();
      if (lower.startsWith('#x')) return safeCodePoint(parseInt(lower.slice(2), 16)) ?? entity;
      if (lower.startsWith('#')) return safeCodePoint(parseInt(lower.slice(1), 10)) ?? entity;
      return NAMED[lower] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}
