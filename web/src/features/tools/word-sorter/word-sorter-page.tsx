import {
  useEffect,
  useReducer,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { Button, ButtonLink, Card, TextField, useToast } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { buildPrintableHtml } from './printable-page';
import { CLEAR_DELAY_MS, CLEAR_NOTICE_MS, PRINT_DELAY_MS, SorterMessages } from './word-sorter.constants';
import {
  initialSorterState,
  isEmpty,
  newWordId,
  sorterReducer,
  type ListIndex,
  type SorterWord,
} from './word-sorter-state';

const DRAG_TYPE = 'application/x-word-sorter-id';

function ListTitle({ title, onRename }: { title: string; onRename: (title: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(title);
  const done = useRef(false);
  const titleButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  // Enter, Escape or leaving the field swaps it back for the title button: keep keyboard focus on that button.
  useEffect(() => {
    if (
      wasEditing.current &&
      !editing &&
      (document.activeElement === document.body || document.activeElement === null)
    ) {
      titleButton.current?.focus();
    }
    wasEditing.current = editing;
  }, [editing]);

  const start = () => {
    setDraft(title);
    done.current = false;
    setEditing(true);
  };
  const save = () => {
    if (done.current) return;
    done.current = true;
    onRename(draft);
    setEditing(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // preventDefault: focus moves to the title button before the key's keypress, which would press that button.
    if (e.key === 'Enter') {
      e.preventDefault();
      save();
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      done.current = true;
      setEditing(false);
    }
  };

  if (editing) {
    return (
      <input
        autoFocus
        value={draft}
        maxLength={60}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={save}
        onKeyDown={onKeyDown}
        aria-label={`Rename ${title}`}
        className="w-full rounded-md border border-brand-600 bg-white px-2 py-1 text-lg font-semibold text-slate-900 focus:ring-2 focus:ring-brand-600/20 focus:outline-none"
      />
    );
  }
  return (
    <h2>
      <button
        ref={titleButton}
        type="button"
        onClick={start}
        title="Click to rename"
        className="group flex w-full items-center gap-2 rounded-md px-2 py-1 text-left text-lg font-semibold text-slate-900 hover:bg-slate-100"
      >
        <span className="min-w-0 break-words">{title}</span>
        <span className="sr-only">(click to rename)</span>
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="currentColor"
          className="size-4 shrink-0 text-slate-400 group-hover:text-slate-600"
        >
          <path d="M13.6 3.6a2 2 0 0 1 2.8 2.8l-8.5 8.5-3.6.8.8-3.6 8.5-8.5Z" />
        </svg>
      </button>
    </h2>
  );
}

export default function WordSorterPage() {
  const { user } = useSession();
  const { toast } = useToast();
  const [state, dispatch] = useReducer(sorterReducer, initialSorterState);
  // Prefilled from the signed-in user (who may load after the first render) until the student types a name.
  const [typedName, setTypedName] = useState<string | null>(null);
  const studentName = typedName ?? user?.name ?? '';
  const [newWord, setNewWord] = useState('');
  const [dropTarget, setDropTarget] = useState<ListIndex | null>(null);
  const [clearing, setClearing] = useState(false);
  const clearTimer = useRef<number | null>(null);
  const empty = isEmpty(state);
  const newWordField = useRef<HTMLInputElement>(null);
  // After a keyboard move, reorder or removal the pressed button is gone or re-inserted (which drops focus):
  // the control to focus once the lists have re-rendered.
  const focusAfter = useRef<string | null>(null);
  useEffect(() => {
    const selector = focusAfter.current;
    if (selector === null) return;
    focusAfter.current = null;
    ((selector ? document.querySelector<HTMLElement>(selector) : null) ?? newWordField.current)?.focus();
  }, [state]);

  useEffect(
    () => () => {
      if (clearTimer.current !== null) window.clearTimeout(clearTimer.current);
    },
    [],
  );

  const addWord = () => {
    if (!newWord.trim()) return;
    dispatch({ type: 'add', id: newWordId(), text: newWord });
    setNewWord('');
  };

  const clearAll = (event: MouseEvent<HTMLButtonElement>) => {
    if (clearing) return;
    const button = event.currentTarget;
    toast({ type: 'warning', message: SorterMessages.clearWarning, durationMs: CLEAR_NOTICE_MS });
    setClearing(true);
    clearTimer.current = window.setTimeout(() => {
      clearTimer.current = null;
      // The emptied lists disable this button: start again from the word field rather than the top of the page.
      const active = document.activeElement;
      if (active === button || active === document.body || active === null) focusAfter.current = '';
      dispatch({ type: 'clear' });
      setClearing(false);
      toast({ type: 'success', message: SorterMessages.cleared });
    }, CLEAR_DELAY_MS);
  };

  const exportPdf = () => {
    try {
      const printWindow = window.open('', '_blank');
      if (!printWindow) throw new Error(SorterMessages.popupBlocked);
      const html = buildPrintableHtml({ studentName, state, date: new Date() });
      printWindow.document.open();
      printWindow.document.write(html);
      printWindow.document.close();
      window.setTimeout(() => {
        printWindow.focus();
        printWindow.print();
      }, PRINT_DELAY_MS);
      toast({ type: 'success', title: SorterMessages.printOpenedTitle, message: SorterMessages.printOpened });
    } catch (error) {
      toast({
        type: 'error',
        title: SorterMessages.printErrorTitle,
        message: SorterMessages.printError(error instanceof Error ? error.message : undefined),
      });
    }
  };

  const onDragStart = (e: DragEvent, word: SorterWord) => {
    e.dataTransfer.setData(DRAG_TYPE, word.id);
    e.dataTransfer.setData('text/plain', word.text);
    e.dataTransfer.effectAllowed = 'move';
  };
  const onDrop = (e: DragEvent, to: ListIndex, index?: number) => {
    e.preventDefault();
    e.stopPropagation();
    setDropTarget(null);
    const id = e.dataTransfer.getData(DRAG_TYPE);
    if (id) dispatch({ type: 'move', id, to, index });
  };

  const renderList = (list: ListIndex) => {
    const other: ListIndex = list === 0 ? 1 : 0;
    const words = state.lists[list];
    return (
      <Card
        key={list}
        onDragOver={(e) => {
          if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'move';
          setDropTarget(list);
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropTarget(null);
        }}
        onDrop={(e) => onDrop(e, list)}
        className={cn(
          'flex min-h-64 flex-col p-4 transition-colors',
          dropTarget === list && 'border-brand-500 bg-brand-50/60 ring-2 ring-brand-500/30',
        )}
      >
        <div className="mb-3 flex items-center justify-between gap-2">
          <div className="min-w-0 flex-1">
            <ListTitle
              title={state.titles[list]}
              onRename={(title) => dispatch({ type: 'rename', list, title })}
            />
          </div>
          <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600">
            {words.length}
          </span>
        </div>
        <ul aria-label={state.titles[list]} className="flex flex-1 flex-col gap-2">
          {words.map((word, index) => (
            <li
              key={word.id}
              draggable
              onDragStart={(e) => onDragStart(e, word)}
              onDragEnd={() => setDropTarget(null)}
              onDrop={(e) => onDrop(e, list, index)}
              className="flex cursor-grab items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 shadow-sm active:cursor-grabbing"
            >
              <span aria-hidden="true" className="text-slate-400">
                ⋮⋮
              </span>
              <span className="min-w-0 flex-1 break-words text-slate-900">{word.text}</span>
              <button
                type="button"
                data-move-word={word.id}
                onClick={() => {
                  focusAfter.current = `[data-move-word="${word.id}"]`;
                  dispatch({ type: 'move', id: word.id, to: other });
                }}
                onKeyDown={(e) => {
                  // Reordering without dragging: Alt+ArrowUp / Alt+ArrowDown moves the word within its list.
                  if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
                  e.preventDefault();
                  const to = index + (e.key === 'ArrowUp' ? -1 : 1);
                  if (to < 0 || to >= words.length) return;
                  focusAfter.current = `[data-move-word="${word.id}"]`;
                  dispatch({ type: 'move', id: word.id, to: list, index: to });
                }}
                aria-keyshortcuts="Alt+ArrowUp Alt+ArrowDown"
                aria-label={`Move "${word.text}" to ${state.titles[other]}`}
                title={`Move to ${state.titles[other]}`}
                className="rounded-md p-1.5 text-slate-500 hover:bg-brand-50 hover:text-brand-700"
              >
                <span aria-hidden="true">{list === 0 ? '→' : '←'}</span>
              </button>
              <button
                type="button"
                onClick={() => {
                  const neighbour = words[index + 1] ?? words[index - 1];
                  focusAfter.current = neighbour ? `[data-remove-word="${neighbour.id}"]` : '';
                  dispatch({ type: 'remove', id: word.id });
                }}
                data-remove-word={word.id}
                aria-label={`Remove "${word.text}"`}
                title="Remove"
                className="rounded-md p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-700"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
                  <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
                </svg>
              </button>
            </li>
          ))}
          {words.length === 0 ? (
            <li className="flex flex-1 items-center justify-center rounded-lg border-2 border-dashed border-slate-200 p-6 text-sm text-slate-500">
              {SorterMessages.emptyList}
            </li>
          ) : null}
        </ul>
      </Card>
    );
  };

  return (
    <PageContainer>
      <PageHeader
        title={SorterMessages.title}
        description={SorterMessages.description}
        actions={
          <ButtonLink to="/educational-tools" variant="outline">
            {SorterMessages.backToTools}
          </ButtonLink>
        }
      />
      <Card className="mb-6 p-4">
        <div className="grid grid-cols-1 gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)] md:items-end">
          <TextField
            label={SorterMessages.studentName}
            value={studentName}
            autoComplete="name"
            maxLength={120}
            onChange={(e) => setTypedName(e.target.value)}
          />
          <form
            className="flex items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              addWord();
            }}
          >
            <TextField
              ref={newWordField}
              className="min-w-0 flex-1"
              label={SorterMessages.addWordLabel}
              value={newWord}
              maxLength={100}
              placeholder="Type a word and press Enter"
              onChange={(e) => setNewWord(e.target.value)}
            />
            <Button type="submit" disabled={!newWord.trim()}>
              {SorterMessages.addWord}
            </Button>
          </form>
        </div>
      </Card>
      <p className="mb-3 text-sm text-slate-600">
        New words go to the first list. Drag a word to the other list, or use its arrow button; click a list
        title to rename it. With the keyboard, Alt+Up and Alt+Down on a word&apos;s arrow button move it up or
        down.
      </p>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">{([0, 1] as const).map(renderList)}</div>
      <div className="mt-6 flex flex-wrap gap-2">
        <Button onClick={exportPdf} disabled={empty}>
          {SorterMessages.exportPdf}
        </Button>
        {/* aria-disabled while the clear is pending, so the button keeps keyboard focus. */}
        <Button variant="danger" onClick={clearAll} disabled={empty} aria-disabled={clearing || undefined}>
          {SorterMessages.clearAll}
        </Button>
      </div>
    </PageContainer>
  );
}
