import { isAllowedIframeSrc, POST_HTML_POLICY } from '@district/contracts/content';

/**
 * What the server keeps of a post's HTML, read from the post allow-list both share (POST_HTML_POLICY in
 * @district/contracts, which the content service's sanitiser is built from). The editor uses it to accept only the
 * frames the server would keep, and to tell whether switching to rich text would drop anything that saving would
 * have kept.
 */

/** A frame source the server keeps: https, no credentials, an allowed host and that host's embed path. */
export { isAllowedIframeSrc };

/** Attributes the rich-text editor keeps on a frame: those the server keeps (it sets a few of them itself). */
export const IFRAME_ATTRIBUTES: readonly string[] = POST_HTML_POLICY.attributes.iframe ?? [];

const SERVER_TAGS: ReadonlySet<string> = new Set(POST_HTML_POLICY.tags);

/** Elements the server drops together with their text. */
const DROPPED_WITH_TEXT = POST_HTML_POLICY.droppedWithText.join(', ');

const SERVER_ATTRIBUTES = POST_HTML_POLICY.attributes;

/** The class names the server keeps on `tag` (those matching the policy's patterns), space-separated. */
function keptClasses(tag: string, value: string): string {
  const patterns = POST_HTML_POLICY.classes[tag] ?? [];
  return value
    .split(/\s+/)
    .filter((name) => patterns.some((pattern) => pattern.test(name)))
    .join(' ');
}

/** URL schemes the server keeps in a URL attribute of `tag`; null when `name` is not a URL. Relative URLs are kept too. */
function urlSchemes(tag: string, name: string): readonly string[] | null {
  if (!POST_HTML_POLICY.urlAttributes.includes(name)) return null;
  return POST_HTML_POLICY.schemesByTag[tag] ?? POST_HTML_POLICY.schemes;
}

function keepsUrl(tag: string, name: string, value: string): boolean {
  const schemes = urlSchemes(tag, name);
  if (!schemes) return true;
  // Browsers ignore whitespace and control characters in a scheme ("java\tscript:"), so the server does too.
  const compact = Array.from(value)
    .filter((ch) => ch.charCodeAt(0) > 0x20)
    .join('');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1];
  if (!scheme) return POST_HTML_POLICY.allowProtocolRelative || !value.trim().startsWith('//');
  return schemes.includes(scheme.toLowerCase());
}

/** Tags the rich-text editor writes differently with the same meaning on the page. */
const SAME_AS: Record<string, string> = { b: 'strong', i: 'em', del: 's' };

/** How one element reads for the comparison: its tag and the attributes the server would keep, or null to skip it. */
function signature(el: Element): string | null {
  const tag = el.tagName.toLowerCase();
  if (!SERVER_TAGS.has(tag)) return null;
  if (tag === 'iframe' && !isAllowedIframeSrc(el.getAttribute('src'))) return null;
  const allowed = [
    ...(SERVER_ATTRIBUTES['*'] ?? []),
    ...(SERVER_ATTRIBUTES[tag] ?? []),
    ...(POST_HTML_POLICY.classes[tag] ? ['class'] : []),
  ];
  const attrs = allowed
    .filter((name) => el.hasAttribute(name))
    .map((name) => [name, (el.getAttribute(name) ?? '').trim()] as const)
    .map(([name, value]) => [name, name === 'class' ? keptClasses(tag, value) : value] as const)
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
 * no longer has: each lost element as the server would keep it, such as `<table>` or `<p title="intro">`, and
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
