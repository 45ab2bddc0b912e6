/**
 * What a post's HTML may contain: the one allow-list for posts. The content service builds its sanitize-html options
 * from it (services/content/src/html/html-sanitizer.ts), and the web post editor reads it to know what saving will
 * keep (web/src/features/admin/components/post-html-rules.ts), so a change here changes both.
 * html-policy.spec.ts fails when a change loosens it past what every post must keep out (handlers, styles, script
 * URLs, frames from anywhere).
 *
 * Comments have their own, much smaller allow-list, which only the content service uses; it stays there.
 */

/** A host whose frames a post may embed, and the path every frame from it must start with. */
export interface IframeHostRule {
  readonly host: string;
  /** A path prefix such as '/embed/', starting and ending with '/'. */
  readonly pathPrefix: string;
}

export interface PostHtmlPolicy {
  /** Elements kept; any other element is dropped and its text kept (except `droppedWithText`). */
  readonly tags: readonly string[];
  /**
   * Attributes kept per element; '*' lists those kept on every element of `tags`. Never `id` or `name` (they
   * become globals the page's script may read) nor `class` (see `classes`).
   */
  readonly attributes: Readonly<Record<string, readonly string[]>>;
  /**
   * Class names kept per element, each matching one of its anchored patterns; others are dropped, and `class`
   * with them when none is left. A free `class` would let a post dress itself in the site's own styles (a
   * full-page fake sign-in, hidden text).
   */
  readonly classes: Readonly<Record<string, readonly RegExp[]>>;
  /** Attributes whose value is a URL: kept only with one of the schemes below, or as a relative URL. */
  readonly urlAttributes: readonly string[];
  /** URL schemes kept in `urlAttributes` (links), unless the element has its own list in `schemesByTag`. */
  readonly schemes: readonly string[];
  readonly schemesByTag: Readonly<Record<string, readonly string[]>>;
  /** Whether a URL such as `//host/path` (the page's scheme, another host) is kept. */
  readonly allowProtocolRelative: boolean;
  readonly iframe: {
    /** The only places a frame may come from; any other frame is dropped whole. */
    readonly hosts: readonly IframeHostRule[];
    /** Attributes set on every kept frame, overriding what the post wrote (they are in `attributes.iframe` too). */
    readonly setAttributes: Readonly<Record<string, string>>;
  };
  /** Elements dropped together with everything inside them, text included. */
  readonly droppedWithText: readonly string[];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const IFRAME_SET_ATTRIBUTES = {
  // Sandboxed anyway: the player needs scripts in its own origin, never access to ours.
  sandbox: 'allow-scripts allow-same-origin allow-popups allow-presentation',
  loading: 'lazy',
  referrerpolicy: 'strict-origin-when-cross-origin',
};

export const POST_HTML_POLICY: PostHtmlPolicy = deepFreeze({
  // prettier-ignore
  tags: [
    // Sections and text blocks.
    ...['address', 'article', 'aside', 'footer', 'header', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hgroup', 'main'],
    ...['nav', 'section', 'blockquote', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'hr', 'li', 'menu', 'ol'],
    ...['p', 'pre', 'ul'],
    // Inline text.
    ...['a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 'rb'],
    ...['rp', 'rt', 'rtc', 'ruby', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr'],
    ...['del', 'ins'],
    // Tables.
    ...['caption', 'col', 'colgroup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr'],
    // Media; frames only from `iframe.hosts`.
    ...['img', 'iframe', 'video', 'audio', 'source'],
  ],
  attributes: {
    '*': ['title', 'lang', 'dir'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    iframe: [
      ...['src', 'width', 'height', 'title', 'allowfullscreen', 'frameborder', 'allow'],
      ...Object.keys(IFRAME_SET_ATTRIBUTES),
    ],
    video: ['src', 'controls', 'width', 'height', 'poster'],
    audio: ['src', 'controls'],
    source: ['src', 'type'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    ol: ['start', 'type'],
  },
  // The rich-text editor's code blocks name their language this way (TipTap's `language-` prefix).
  classes: { code: [/^language-[a-z0-9+-]+$/] },
  urlAttributes: ['href', 'src', 'poster'],
  schemes: ['http', 'https', 'mailto', 'tel'],
  schemesByTag: {
    img: ['http', 'https'],
    video: ['https'],
    audio: ['https'],
    source: ['https'],
    iframe: ['https'],
  },
  allowProtocolRelative: false,
  iframe: {
    hosts: [
      // Google Slides.
      { host: 'docs.google.com', pathPrefix: '/presentation/' },
      // YouTube players.
      { host: 'www.youtube.com', pathPrefix: '/embed/' },
      { host: 'youtube.com', pathPrefix: '/embed/' },
      { host: 'www.youtube-nocookie.com', pathPrefix: '/embed/' },
    ],
    setAttributes: IFRAME_SET_ATTRIBUTES,
  },
  droppedWithText: ['script', 'style', 'textarea', 'option', 'xmp'],
});

/**
 * A frame source a post may keep: an absolute URL with a scheme allowed for frames (https), no user name or password,
 * one of the policy's hosts and a path under that host's prefix.
 */
export function isAllowedIframeSrc(src: string | null | undefined): boolean {
  if (!src) return false;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  const schemes = POST_HTML_POLICY.schemesByTag.iframe ?? [];
  const rule = POST_HTML_POLICY.iframe.hosts.find((h) => h.host === url.hostname);
  return (
    schemes.includes(url.protocol.replace(/:$/, '')) &&
    url.username === '' &&
    url.password === '' &&
    !!rule &&
    url.pathname.startsWith(rule.pathPrefix)
  );
}
