import { lazy, Suspense, useRef, useState, type KeyboardEvent } from 'react';
import { Alert, Button, Spinner, useToast } from '@/components/ui';
import { cn } from '@/lib/cn';
import { FindBar } from './find-bar';
import { insertAt, linkHtml } from './html-tools';
import { InsertLinkDialog, type LinkRequest } from './insert-link-dialog';

/** TipTap and its extensions load only when an admin opens rich-text mode (their own chunk, off every other route). */
const loadRichText = () => import('./rich-text-editor');
const RichTextEditor = lazy(() => loadRichText().then((m) => ({ default: m.RichTextEditor })));

export type ContentMode = 'rich' | 'html';

/** Shown instead of switching when rich text would drop part of the HTML (lost: what, as lostInConversion says). */
export function richTextWarning(lost: string[]): string {
  const shown = lost.slice(0, 5).join(', ');
  const more = lost.length > 5 ? ` and ${lost.length - 5} more` : '';
  return `Rich text would drop part of this post's HTML (${shown}${more}). Stay in HTML mode to keep it, or remove it from the HTML first.`;
}

export interface ContentModeState {
  mode: ContentMode;
  /** True while the rich text editor loads and checks the HTML; the HTML is read-only meanwhile. */
  switching: boolean;
  warning: string | null;
  finding: boolean;
  setFinding: (open: boolean) => void;
  choose: (next: ContentMode, content: string) => Promise<void>;
}

/**
 * Which editor shows the content, and whether the HTML find bar is open. The page holds this rather than the
 * editor, so both survive a trip to Preview (which unmounts the editor) and a switch that finishes meanwhile.
 */
export function useContentMode(): ContentModeState {
  const { toast } = useToast();
  // HTML first for new and existing posts alike: nothing is rewritten until the admin asks for rich text (ADR 0007).
  const [mode, setMode] = useState<ContentMode>('html');
  const [switching, setSwitching] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);
  const [finding, setFinding] = useState(false);

  const choose = async (next: ContentMode, content: string) => {
    if (next === mode || switching) return;
    setWarning(null);
    if (next === 'html') {
      setMode('html');
      return;
    }
    setSwitching(true);
    try {
      const { richTextLosses } = await loadRichText();
      const lost = richTextLosses(content);
      if (lost.length) {
        setWarning(richTextWarning(lost));
      } else {
        setFinding(false);
        setMode('rich');
      }
    } catch (err) {
      console.error('Loading the rich text editor failed', err);
      toast({ type: 'error', message: 'The rich text editor could not be loaded. Please try again.' });
    } finally {
      setSwitching(false);
    }
  };

  return { mode, switching, warning, finding, setFinding, choose };
}

const textareaClasses =
  'block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20';

/** The post's HTML, edited as source (with find and Insert Link) or as rich text. */
export function PostContentEditor({
  content,
  onChange,
  contentMode,
}: {
  content: string;
  onChange: (html: string) => void;
  contentMode: ContentModeState;
}) {
  const { mode, switching, warning, finding, setFinding, choose } = contentMode;
  const [linkDialog, setLinkDialog] = useState<{ start: number; end: number; text: string } | null>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);

  const selectInContent = (start: number, end: number) => {
    const area = contentRef.current;
    if (!area) return;
    area.focus();
    area.setSelectionRange(start, end);
  };

  const onEditorKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
      // Replaces the browser's page search with a search inside the HTML source.
      event.preventDefault();
      setFinding(true);
    }
  };

  const openLinkDialog = () => {
    const area = contentRef.current;
    const start = area?.selectionStart ?? content.length;
    const end = area?.selectionEnd ?? content.length;
    setLinkDialog({ start, end, text: content.slice(start, end) });
  };

  const insertLink = ({ url, text }: LinkRequest) => {
    if (!linkDialog) return;
    const next = insertAt(content, linkDialog.start, linkDialog.end, linkHtml(url, text));
    onChange(next.text);
    setLinkDialog(null);
    requestAnimationFrame(() => selectInContent(next.caret, next.caret));
  };

  const modeButton = (id: ContentMode, label: string) => (
    <button
      type="button"
      aria-pressed={mode === id}
      disabled={switching}
      onClick={() => void choose(id, content)}
      className={cn(
        'rounded-md px-2.5 py-1 text-xs font-medium disabled:cursor-wait',
        mode === id ? 'bg-brand-700 text-white' : 'text-slate-600 hover:bg-slate-100',
      )}
    >
      {label}
    </button>
  );

  return (
    <>
      <div onKeyDown={mode === 'html' ? onEditorKeyDown : undefined} className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          {mode === 'html' ? (
            <label htmlFor="post-content" className="text-sm font-medium text-slate-700">
              Content (HTML)
            </label>
          ) : (
            <span className="text-sm font-medium text-slate-700">Content (rich text)</span>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <div
              role="group"
              aria-label="Content mode"
              aria-busy={switching || undefined}
              className="inline-flex rounded-lg border border-slate-200 bg-white p-0.5"
            >
              {modeButton('rich', 'Rich text')}
              {modeButton('html', 'HTML')}
            </div>
            {mode === 'html' ? (
              <>
                <Button size="sm" variant="outline" onClick={openLinkDialog}>
                  Insert Link
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => setFinding(true)}
                  aria-keyshortcuts="Control+F"
                >
                  Find (Ctrl+F)
                </Button>
              </>
            ) : null}
          </div>
        </div>
        {warning ? <Alert tone="warning">{warning}</Alert> : null}
        {mode === 'html' ? (
          <>
            {finding ? (
              <FindBar text={content} onSelect={selectInContent} onClose={() => setFinding(false)} />
            ) : null}
            <textarea
              id="post-content"
              ref={contentRef}
              rows={18}
              spellCheck={false}
              readOnly={switching}
              value={content}
              onChange={(e) => onChange(e.target.value)}
              className={cn(textareaClasses, 'font-mono')}
            />
            <p className="text-xs text-slate-500">Ctrl+F searches this HTML source.</p>
          </>
        ) : (
          <>
            <Suspense fallback={<Spinner label="Loading the rich text editor…" />}>
              <RichTextEditor initialContent={content} onChange={onChange} />
            </Suspense>
            <p className="text-xs text-slate-500">
              Ctrl+F is the browser&apos;s own find here; switch to HTML to search the source.
            </p>
          </>
        )}
      </div>
      {/* Outside the key handler: React events bubble out of the dialog's portal, and Ctrl+F there is the browser's. */}
      {linkDialog ? (
        <InsertLinkDialog
          open
          initialText={linkDialog.text}
          onInsert={insertLink}
          onClose={() => setLinkDialog(null)}
        />
      ) : null}
    </>
  );
}
