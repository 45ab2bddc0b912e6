import { generateHTML, generateJSON, type Extensions } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { Image } from '@tiptap/extension-image';
import { isSafeLinkUrl } from './html-tools';
import { IframeEmbed } from './iframe-embed';
import { lostInConversion } from './post-html-rules';

/** Images inline, as in HTML, so an image inside a paragraph stays there; `loading` is kept like the server keeps it. */
const PostImage = Image.extend({
  addAttributes() {
    return { ...this.parent?.(), loading: { default: null } };
  },
}).configure({ inline: true });

/** The rich-text editor's schema: what it can read from and write to the post's HTML. */
export const richTextExtensions: Extensions = [
  StarterKit.configure({
    // Every heading level survives a round trip; the toolbar offers H2 and H3 (the page title is the H1).
    heading: { levels: [1, 2, 3, 4, 5, 6] },
    // No empty paragraph appended after a last heading or list: the HTML stays as written.
    trailingNode: false,
    link: {
      openOnClick: false,
      // Typing after a link does not extend it (inclusive follows autolink); links come from the Insert Link dialog or a paste.
      autolink: false,
      // Plain <a href>, as the HTML mode writes it; the server adds rel for target="_blank".
      HTMLAttributes: { target: null, rel: null, class: null },
      // The same rule as the Insert Link dialog: a javascript: or data: link is never read, pasted or set.
      isAllowedUri: (url) => isSafeLinkUrl(url),
    },
  }),
  PostImage,
  IframeEmbed,
];

/** The HTML the rich-text editor would write for `html` after reading it. */
export function throughRichText(html: string): string {
  return generateHTML(generateJSON(html, richTextExtensions), richTextExtensions);
}

/** What of `html` the rich-text editor cannot keep (see lostInConversion); empty when switching is safe. */
export function richTextLosses(html: string): string[] {
  if (!html.trim()) return [];
  return lostInConversion(html, throughRichText(html));
}
