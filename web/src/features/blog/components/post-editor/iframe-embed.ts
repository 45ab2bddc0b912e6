import { Node } from '@tiptap/react';
import { IFRAME_ATTRIBUTES, isAllowedIframeSrc } from './post-html-rules';

function embedName(src: string): string {
  try {
    return new URL(src).hostname === 'docs.google.com' ? 'Google Slides' : 'YouTube video';
  } catch {
    return 'Embed';
  }
}

/**
 * A frame the server keeps (Google Slides or YouTube, see post-html-rules.ts) as one block in the rich-text editor.
 * Frames from any other host are not read at all, as the server drops them on save. In the editor the frame shows
 * as a labelled box rather than a live player; the live preview below the editor shows the real frame.
 */
export const IframeEmbed = Node.create({
  name: 'iframeEmbed',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,

  addAttributes() {
    // Every attribute is kept as the exact string it was written with, so a round trip changes nothing.
    return Object.fromEntries(
      IFRAME_ATTRIBUTES.map((name) => [
        name,
        { default: null, parseHTML: (element: HTMLElement) => element.getAttribute(name) },
      ]),
    );
  },

  parseHTML() {
    return [
      {
        tag: 'iframe[src]',
        getAttrs: (element) => (isAllowedIframeSrc(element.getAttribute('src')) ? null : false),
      },
    ];
  },

  renderHTML({ HTMLAttributes }) {
    return ['iframe', HTMLAttributes];
  },

  addNodeView() {
    return ({ node }) => {
      const dom = document.createElement('div');
      dom.contentEditable = 'false';
      dom.className =
        'my-4 flex w-full flex-col items-center justify-center gap-1 rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center text-sm text-slate-600';
      const src = String(node.attrs.src ?? '');
      const name = document.createElement('strong');
      name.className = 'text-slate-800';
      name.textContent = `Embedded ${embedName(src)}`;
      const detail = document.createElement('span');
      detail.className = 'break-all text-xs';
      detail.textContent = node.attrs.title ? `${String(node.attrs.title)} — ${src}` : src;
      dom.append(name, detail);
      return { dom };
    };
  },
});
