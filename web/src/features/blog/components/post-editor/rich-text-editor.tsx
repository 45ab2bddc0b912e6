import { useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  EditorContent,
  getMarkRange,
  useEditor,
  useEditorState,
  type ChainedCommands,
  type Editor,
} from '@tiptap/react';
import { cn } from '@/lib/cn';
import { linkHtml } from './html-tools';
import { InsertImageDialog } from './insert-image-dialog';
import { InsertLinkDialog, type LinkRequest } from './insert-link-dialog';
import { richTextExtensions } from './rich-text-extensions';

// Loaded with this chunk only: the post editor imports this module when the admin opens rich-text mode.
export { richTextLosses } from './rich-text-extensions';

/** Typography inside the editable area (no typography plugin; the same look as a published lesson). */
const contentClasses = [
  'min-h-80 rounded-b-lg px-4 py-3 text-base leading-relaxed text-slate-800 focus:outline-none',
  '[&_p]:my-3 [&_h1]:mt-6 [&_h1]:text-3xl [&_h1]:font-bold [&_h2]:mt-6 [&_h2]:text-2xl [&_h2]:font-bold',
  '[&_h3]:mt-5 [&_h3]:text-xl [&_h3]:font-semibold [&_h4]:mt-4 [&_h4]:font-semibold',
  '[&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1 [&_li_p]:my-0',
  '[&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_blockquote]:my-3 [&_blockquote]:border-l-4',
  '[&_blockquote]:border-brand-200 [&_blockquote]:pl-4 [&_blockquote]:italic [&_img]:inline [&_img]:max-w-full [&_img]:rounded-lg',
  '[&_img.ProseMirror-selectednode]:ring-2 [&_img.ProseMirror-selectednode]:ring-brand-600',
  '[&_pre]:my-3 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-slate-900 [&_pre]:p-4 [&_pre]:text-slate-100',
  '[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-slate-100 [&_:not(pre)>code]:px-1',
  '[&_.ProseMirror-selectednode]:outline-2 [&_.ProseMirror-selectednode]:outline-brand-600',
].join(' ');

function ToolbarButton({
  label,
  pressed,
  active = pressed,
  disabled,
  onClick,
  children,
}: {
  label: string;
  /** Formatting toggles only: announced as pressed or not. */
  pressed?: boolean;
  /** Shown highlighted (a toggle that is on, or the link or image the caret is on). */
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      // Keeps the editor's selection: the command runs on what the admin selected, not on a collapsed caret.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      className={cn(
        'min-w-8 rounded-md px-1.5 py-1 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-40',
        active ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100',
      )}
    >
      <span aria-hidden="true">{children}</span>
    </button>
  );
}

/** Left/Right (and Home/End) move between the toolbar's buttons, as in the WAI-ARIA toolbar pattern. */
function onToolbarKeyDown(event: KeyboardEvent<HTMLDivElement>) {
  const keys = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const buttons = Array.from(
    event.currentTarget.querySelectorAll<HTMLButtonElement>('button:not([disabled])'),
  );
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  if (at === -1) return;
  event.preventDefault();
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? buttons.length - 1
        : (at + (event.key === 'ArrowRight' ? 1 : -1) + buttons.length) % buttons.length;
  buttons[next]?.focus();
}

type LinkTarget = { from: number; to: number; text: string; href: string };
type ImageTarget = { src: string; alt: string };

function selectionForLink(editor: Editor): LinkTarget {
  const { state } = editor;
  let { from, to } = state.selection;
  let href = '';
  if (editor.isActive('link')) {
    // Editing a link: the whole link, with its current address.
    const range = getMarkRange(state.doc.resolve(from), state.schema.marks.link!);
    if (range) ({ from, to } = range);
    href = String(editor.getAttributes('link').href ?? '');
  }
  return { from, to, text: state.doc.textBetween(from, to, ' '), href };
}

/**
 * Rich-text mode of the post editor (TipTap). It reads `initialContent` once and reports every change as HTML
 * (an empty document as ''), so the draft keeps one `content` string whichever mode the admin uses.
 */
export function RichTextEditor({
  initialContent,
  onChange,
}: {
  initialContent: string;
  onChange: (html: string) => void;
}) {
  const [linkTarget, setLinkTarget] = useState<LinkTarget | null>(null);
  const [imageTarget, setImageTarget] = useState<ImageTarget | null>(null);

  const editor = useEditor({
    extensions: richTextExtensions,
    content: initialContent,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Content (rich text)',
        class: contentClasses,
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      blockquote: e.isActive('blockquote'),
      codeBlock: e.isActive('codeBlock'),
      link: e.isActive('link'),
      image: e.isActive('image'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  const run = (command: (chain: ChainedCommands) => ChainedCommands) => command(editor.chain().focus()).run();

  // After a dialog closes the Modal returns focus to the toolbar button; put the caret back in the text.
  const refocus = () => requestAnimationFrame(() => editor.commands.focus());

  const insertLink = ({ url, text }: LinkRequest) => {
    if (!linkTarget) return;
    const { from, to } = linkTarget;
    if (from < to && text === linkTarget.text) {
      // Same text: link it where it is, keeping its bold or italic.
      editor.chain().setTextSelection({ from, to }).setLink({ href: url }).run();
    } else {
      editor.chain().insertContentAt({ from, to }, linkHtml(url, text)).run();
    }
    setLinkTarget(null);
    refocus();
  };

  const openImage = () => {
    const attrs = editor.isActive('image') ? editor.getAttributes('image') : {};
    setImageTarget({ src: String(attrs.src ?? ''), alt: String(attrs.alt ?? '') });
  };

  const insertImage = ({ src, alt }: { src: string; alt: string }) => {
    // With an image selected this replaces it, so an image read from HTML without alt text can be given one.
    editor.chain().setImage({ src, alt }).run();
    setImageTarget(null);
    refocus();
  };

  return (
    <div className="rounded-lg border border-slate-300 bg-white shadow-sm focus-within:border-brand-600 focus-within:ring-2 focus-within:ring-brand-600/20">
      <div
        role="toolbar"
        aria-label="Formatting"
        onKeyDown={onToolbarKeyDown}
        className="flex flex-wrap items-center gap-1 border-b border-slate-200 bg-slate-50 p-1"
      >
        <ToolbarButton label="Bold" pressed={state.bold} onClick={() => run((c) => c.toggleBold())}>
          <strong>B</strong>
        </ToolbarButton>
        <ToolbarButton label="Italic" pressed={state.italic} onClick={() => run((c) => c.toggleItalic())}>
          <em>I</em>
        </ToolbarButton>
        <span aria-hidden="true" className="mx-0.5 h-5 w-px bg-slate-300" />
        <ToolbarButton
          label="Heading 2"
          pressed={state.h2}
          onClick={() => run((c) => c.toggleHeading({ level: 2 }))}
        >
          Heading 2
        </ToolbarButton>
        <ToolbarButton
          label="Heading 3"
          pressed={state.h3}
          onClick={() => run((c) => c.toggleHeading({ level: 3 }))}
        >
          Heading 3
        </ToolbarButton>
        <ToolbarButton
          label="Bullet list"
          pressed={state.bulletList}
          onClick={() => run((c) => c.toggleBulletList())}
        >
          Bullet list
        </ToolbarButton>
        <ToolbarButton
          label="Numbered list"
          pressed={state.orderedList}
          onClick={() => run((c) => c.toggleOrderedList())}
        >
          Numbered list
        </ToolbarButton>
        <ToolbarButton
          label="Quote"
          pressed={state.blockquote}
          onClick={() => run((c) => c.toggleBlockquote())}
        >
          Quote
        </ToolbarButton>
        <ToolbarButton
          label="Code block"
          pressed={state.codeBlock}
          onClick={() => run((c) => c.toggleCodeBlock())}
        >
          {'</>'}
        </ToolbarButton>
        <span aria-hidden="true" className="mx-0.5 h-5 w-px bg-slate-300" />
        <ToolbarButton
          label="Insert Link"
          active={state.link}
          onClick={() => setLinkTarget(selectionForLink(editor))}
        >
          Link
        </ToolbarButton>
        <ToolbarButton label="Insert Image" active={state.image} onClick={openImage}>
          Image
        </ToolbarButton>
        <span aria-hidden="true" className="mx-0.5 h-5 w-px bg-slate-300" />
        <ToolbarButton label="Undo" disabled={!state.canUndo} onClick={() => run((c) => c.undo())}>
          Undo
        </ToolbarButton>
        <ToolbarButton label="Redo" disabled={!state.canRedo} onClick={() => run((c) => c.redo())}>
          Redo
        </ToolbarButton>
      </div>
      <EditorContent editor={editor} />
      {linkTarget ? (
        <InsertLinkDialog
          open
          initialText={linkTarget.text}
          initialUrl={linkTarget.href}
          onInsert={insertLink}
          onClose={() => setLinkTarget(null)}
        />
      ) : null}
      {imageTarget ? (
        <InsertImageDialog
          initialSrc={imageTarget.src}
          initialAlt={imageTarget.alt}
          onInsert={insertImage}
          onClose={() => setImageTarget(null)}
        />
      ) : null}
    </div>
  );
}
