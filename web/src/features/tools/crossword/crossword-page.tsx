import { useEffect, useId, useMemo, useState } from 'react';
import { Alert, Button, Card, CardBody, CardHeader, TextField, useToast } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { cn } from '@/lib/cn';
import { downloadBytes } from '@/lib/download-file';
import { CrosswordMessages, DEFAULT_TITLE, GRID_SIZE, UNPLACED_REASON_TEXT } from './crossword.constants';
import {
  answeredEntries,
  layoutCrossword,
  type CrosswordEntry,
  type CrosswordLayout,
  type Direction,
} from './crossword-layout';

/** An entry row with a stable key, so removing a row keeps focus and typing on the right inputs. */
type EntryRow = CrosswordEntry & { key: number };
let nextKey = 0;
const blank = (): EntryRow => ({ key: nextKey++, clue: '', answer: '' });
const PREVIEW_DELAY_MS = 250;

/** The value once it has stopped changing for `ms`. */
function useSettledValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const LABEL: Record<Direction, string> = { across: CrosswordMessages.across, down: CrosswordMessages.down };

function EntryList({
  direction,
  entries,
  onChange,
}: {
  direction: Direction;
  entries: EntryRow[];
  onChange: (next: EntryRow[]) => void;
}) {
  const update = (index: number, patch: Partial<CrosswordEntry>) =>
    onChange(entries.map((e, i) => (i === index ? { ...e, ...patch } : e)));
  return (
    <Card>
      <CardHeader title={`${LABEL[direction]} Words`} as="h2" />
      <CardBody className="space-y-3">
        <ol className="space-y-3">
          {entries.map((entry, i) => (
            <li key={entry.key} className="rounded-xl border border-slate-200 bg-slate-50/60 p-3">
              <div className="mb-2 flex items-center justify-between">
                <span className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
                  {LABEL[direction]} {i + 1}
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-red-700 hover:bg-red-50"
                  // Spec: an entry can be removed only while more than one remains.
                  disabled={entries.length <= 1}
                  onClick={() => onChange(entries.filter((_, j) => j !== i))}
                  aria-label={`Remove ${LABEL[direction].toLowerCase()} entry ${i + 1}`}
                >
                  Remove
                </Button>
              </div>
              <div className="grid grid-cols-1 gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
                <TextField
                  label="Clue"
                  value={entry.clue}
                  onChange={(e) => update(i, { clue: e.target.value })}
                  aria-label={`${LABEL[direction]} ${i + 1} clue`}
                  maxLength={200}
                />
                <TextField
                  label="Answer"
                  value={entry.answer}
                  onChange={(e) => update(i, { answer: e.target.value })}
                  aria-label={`${LABEL[direction]} ${i + 1} answer`}
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={40}
                />
              </div>
            </li>
          ))}
        </ol>
        <Button variant="outline" size="sm" onClick={() => onChange([...entries, blank()])}>
          Add {LABEL[direction]} Word
        </Button>
      </CardBody>
    </Card>
  );
}

function GridPreview({ layout, showAnswers }: { layout: CrosswordLayout; showAnswers: boolean }) {
  return (
    <div
      role="img"
      aria-label={`Crossword grid, ${GRID_SIZE} by ${GRID_SIZE}, with ${layout.placed.length} words placed`}
      className="mx-auto grid w-full max-w-md grid-cols-[repeat(15,minmax(0,1fr))] gap-px rounded-lg bg-slate-100 p-px"
    >
      {layout.grid.flatMap((row, r) =>
        row.map((letter, c) => (
          <div
            key={`${r}-${c}`}
            className={cn(
              'relative aspect-square',
              letter ? 'bg-white ring-1 ring-slate-500' : 'bg-slate-100',
            )}
          >
            {layout.numbers[r][c] !== null ? (
              <span className="absolute top-0 left-0.5 text-[0.45rem] leading-none text-slate-600 sm:text-[0.55rem]">
                {layout.numbers[r][c]}
              </span>
            ) : null}
            {letter && showAnswers ? (
              <span className="absolute inset-0 flex items-center justify-center text-[0.6rem] font-bold text-slate-900 sm:text-sm">
                {letter}
              </span>
            ) : null}
          </div>
        )),
      )}
    </div>
  );
}

export default function CrosswordPage() {
  const { toast } = useToast();
  const [title, setTitle] = useState(DEFAULT_TITLE);
  const [across, setAcross] = useState<EntryRow[]>(() => [blank()]);
  const [down, setDown] = useState<EntryRow[]>(() => [blank()]);
  const [showAnswers, setShowAnswers] = useState(true);
  const [generating, setGenerating] = useState(false);
  const answersId = useId();

  const input = useMemo(() => ({ across, down }), [across, down]);
  // The layout tries many arrangements (up to ~100 ms for long lists), so the preview follows typing after a pause.
  const settled = useSettledValue(input, PREVIEW_DELAY_MS);
  const layout = useMemo(() => layoutCrossword(settled), [settled]);
  const hasAnswers = answeredEntries(input).length > 0;

  const generatePdf = async () => {
    if (!hasAnswers) {
      toast({ type: 'error', message: CrosswordMessages.needAnAnswer });
      return;
    }
    const current = layoutCrossword(input);
    if (current.placed.length === 0) {
      toast({ type: 'error', message: CrosswordMessages.nothingPlaced });
      return;
    }
    setGenerating(true);
    try {
      const { buildCrosswordPdf, crosswordFileName } = await import('./crossword-pdf');
      const name = title.trim() || DEFAULT_TITLE;
      downloadBytes(buildCrosswordPdf({ title: name, layout: current }), crosswordFileName(name));
      if (current.unplaced.length) {
        toast({
          type: 'warning',
          title: CrosswordMessages.unplacedTitle,
          message: `Left out of the PDF: ${current.unplaced.map((u) => u.answer).join(', ')}`,
        });
      }
    } catch {
      toast({ type: 'error', message: CrosswordMessages.pdfError });
    } finally {
      setGenerating(false);
    }
  };

  const clues = (direction: Direction) => layout.placed.filter((w) => w.direction === direction);

  return (
    <PageContainer>
      <PageHeader
        title="Crossword Generator"
        description="Write clues and answers; the puzzle is laid out as you type. The PDF has an answer key and a student worksheet."
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="space-y-6">
          <Card>
            <CardBody>
              <TextField
                label="Title"
                value={title}
                onChange={(e) => setTitle(e.target.value)}
                maxLength={80}
              />
            </CardBody>
          </Card>
          <EntryList direction="across" entries={across} onChange={setAcross} />
          <EntryList direction="down" entries={down} onChange={setDown} />
        </div>

        <div className="space-y-6 lg:sticky lg:top-20 lg:self-start">
          <Card>
            <CardHeader
              title="Preview"
              actions={
                <Button onClick={() => void generatePdf()} disabled={generating}>
                  {generating ? CrosswordMessages.generatingPdf : CrosswordMessages.generatePdf}
                </Button>
              }
            />
            <CardBody className="space-y-4">
              {layout.unplaced.length ? (
                <Alert tone="warning" title={CrosswordMessages.unplacedTitle}>
                  <ul className="list-disc space-y-0.5 pl-5">
                    {layout.unplaced.map((u) => (
                      <li key={`${u.direction}-${u.index}`}>
                        <strong>{u.answer}</strong> ({LABEL[u.direction]} {u.index + 1}):{' '}
                        {UNPLACED_REASON_TEXT[u.reason]}
                      </li>
                    ))}
                  </ul>
                </Alert>
              ) : null}
              {layout.placed.length ? (
                <>
                  <div className="flex items-center gap-2">
                    <input
                      id={answersId}
                      type="checkbox"
                      className="size-4 accent-brand-700"
                      checked={showAnswers}
                      onChange={(e) => setShowAnswers(e.target.checked)}
                    />
                    <label htmlFor={answersId} className="text-sm text-slate-700">
                      Show answers
                    </label>
                  </div>
                  <GridPreview layout={layout} showAnswers={showAnswers} />
                  {layout.components > 1 ? (
                    <p className="text-xs text-slate-500">
                      Some words share no letter with the rest (or run the same way), so the puzzle is in{' '}
                      {layout.components} separate parts.
                    </p>
                  ) : null}
                  <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                    {(['across', 'down'] as const).map((direction) => (
                      <section key={direction} aria-label={`${LABEL[direction]} clues`}>
                        <h3 className="mb-1 font-semibold text-slate-900">{LABEL[direction]}</h3>
                        <ol className="space-y-1 text-sm text-slate-700">
                          {clues(direction).map((w) => (
                            <li key={`${w.direction}-${w.index}`}>
                              <span className="font-semibold">{w.number}.</span>{' '}
                              {w.clue || <em className="text-slate-400">(no clue)</em>}
                            </li>
                          ))}
                        </ol>
                      </section>
                    ))}
                  </div>
                </>
              ) : (
                <p className="py-10 text-center text-sm text-slate-500">
                  Add a word with an answer to see the puzzle here.
                </p>
              )}
            </CardBody>
          </Card>
        </div>
      </div>
    </PageContainer>
  );
}
