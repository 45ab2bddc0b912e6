import { isAllowedIframeSrc, POST_HTML_POLICY } from '@district/contracts';
import sanitizeHtml from 'sanitize-html';

/**
 * Where embedded frames may come from (Google Slides and YouTube, see POST_HTML_POLICY in @district/contracts).
 * Everything else is dropped, so a post can never frame an arbitrary page.
 */
export const ALLOWED_IFRAME_HOSTS: string[] = POST_HTML_POLICY.iframe.hosts.map((rule) => rule.host);

const COMMENT_REL = 'ugc noopener noreferrer nofollow';

const copyLists = <T>(lists: Readonly<Record<string, readonly T[]>>): Record<string, T[]> =>
  Object.fromEntries(Object.entries(lists).map(([key, list]) => [key, [...list]]));

/** Post options, all built from the shared policy; only how sanitize-html applies it is said here. */
const POST_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...POST_HTML_POLICY.tags],
  disallowedTagsMode: 'discard',
  nonTextTags: [...POST_HTML_POLICY.droppedWithText],
  // transformTags runs before the attribute filter, so the frame attributes it sets are in this list too.
  allowedAttributes: copyLists(POST_HTML_POLICY.attributes),
  // Also allows `class` on these elements, keeping only the names that match (and dropping an emptied class).
  allowedClasses: copyLists(POST_HTML_POLICY.classes),
  allowedSchemes: [...POST_HTML_POLICY.schemes],
  allowedSchemesByTag: copyLists(POST_HTML_POLICY.schemesByTag),
  // The policy's URL attributes, and whatever else sanitize-html treats as a URL.
  allowedSchemesAppliedToAttributes: [
    ...new Set([
      ...sanitizeHtml.defaults.allowedSchemesAppliedToAttributes,
      ...POST_HTML_POLICY.urlAttributes,
    ]),
  ],
  allowProtocolRelative: POST_HTML_POLICY.allowProtocolRelative,
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
    iframe: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, ...POST_HTML_POLICY.iframe.setAttributes },
    }),
  },
};

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

/** Post content: rich formatting, images, and frames from the allow-list only. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, POST_OPTIONS).trim();
}

/** Comments: basic formatting and links marked as user content. */
export function sanitizeCommentHtml(html: string): string {
  return sanitizeHtml(html, COMMENT_OPTIONS).trim();
}
