import { useId, useMemo, useState } from 'react';
import { Button, Card, CardBody, CardHeader, SelectField, TextField, useToast } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { downloadBytes } from '@/lib/download-file';
import { BingoCardView } from './bingo-card-view';
import type { BingoCard } from './bingo-card';
import {
  BingoMessages,
  DEFAULT_CARDS,
  MAX_CARDS,
  MIN_CARDS,
  WORD_BINGO,
  type WordBingoSize,
} from './bingo.constants';
import {
  effectiveTitle,
  generateWordBingoCards,
  isWordBingoSize,
  normalizeCardCount,
  parseWordList,
  requiredWordCount,
  validateWordBingo,
  wordBingoFileName,
  wordCallOrder,
} from './word-bingo';

/** The word variant, mounted at /word-bingo (docs/adr/0005-bingo-routes.md). */
export default function WordBingoPage() {
  const { toast } = useToast();
  const [title, setTitle] = useState<string>(WORD_BINGO.defaultTitle);
  const [size, setSize] = useState<WordBingoSize>(WORD_BINGO.defaultSize);
  const [wordText, setWordText] = useState('');
  const [cardCount, setCardCount] = useState(String(DEFAULT_CARDS));
  const [callerSheet, setCallerSheet] = useState(false);
  const [preview, setPreview] = useState<{ card: BingoCard; title: string } | null>(null);
  const [generating, setGenerating] = useState(false);
  const wordsId = useId();
  const wordsHintId = useId();
  const callerId = useId();

  const words = useMemo(() => parseWordList(wordText), [wordText]);
  const needed = requiredWordCount(size);
  const noWords = words.length === 0;

  const check = (): boolean => {
    const problem = validateWordBingo(words, size);
    if (problem) toast({ type: 'warning', message: problem });
    return problem === null;
  };

  const previewCard = () => {
    if (!check()) return;
    const [card] = generateWordBingoCards({ words, size, cards: 1 }, Math.random);
    setPreview({ card, title: effectiveTitle(title) });
  };

  const exportPdf = async () => {
    if (!check()) return;
    const cards = normalizeCardCount(cardCount);
    setCardCount(String(cards));
    setGenerating(true);
    try {
      const { buildWordBingoPdf } = await import('./bingo-pdf');
      const batch = generateWordBingoCards({ words, size, cards }, Math.random);
      const calls = callerSheet ? wordCallOrder(words, Math.random) : undefined;
      downloadBytes(
        buildWordBingoPdf({ title: effectiveTitle(title), cards: batch, calls }),
        wordBingoFileName(title),
      );
    } catch {
      toast({ type: 'error', message: BingoMessages.pdfError });
    } finally {
      setGenerating(false);
    }
  };

  return (
    <PageContainer>
      <PageHeader
        title="Bingo"
        description="Make word bingo cards from your vocabulary list and print them as a PDF."
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <div className="space-y-6">
          <Card>
            <CardHeader title="Settings" />
            <CardBody className="space-y-4">
              <TextField
                label="Card Title"
                value={title}
                onChange={(e) => setTitle(e.target.value)}
                maxLength={80}
              />
              <SelectField
                label="Grid Size"
                value={size}
                onChange={(e) => {
                  const next = Number(e.target.value);
                  if (isWordBingoSize(next)) setSize(next);
                }}
              >
                {WORD_BINGO.sizes.map((s) => (
                  <option key={s} value={s}>
                    {s}x{s}
                    {s === 5 ? ' (with FREE centre)' : ''}
                  </option>
                ))}
              </SelectField>
              <div>
                <label htmlFor={wordsId} className="mb-1 block text-sm font-medium text-slate-700">
                  Words
                </label>
                <textarea
                  id={wordsId}
                  aria-describedby={wordsHintId}
                  rows={8}
                  value={wordText}
                  onChange={(e) => setWordText(e.target.value)}
                  placeholder={'gato, perro, casa\nor one word per line'}
                  className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 focus:outline-none"
                />
                <p
                  id={wordsHintId}
                  className={
                    words.length >= needed ? 'mt-1 text-xs text-emerald-700' : 'mt-1 text-xs text-slate-500'
                  }
                >
                  {words.length} word{words.length === 1 ? '' : 's'} — a {size}x{size} card needs at least{' '}
                  {needed}. Separate words with commas or new lines.
                </p>
              </div>
              <TextField
                label="Number of Cards"
                type="number"
                inputMode="numeric"
                min={MIN_CARDS}
                max={MAX_CARDS}
                value={cardCount}
                onChange={(e) => setCardCount(e.target.value)}
                onBlur={() => setCardCount(String(normalizeCardCount(cardCount)))}
                hint={`From ${MIN_CARDS} to ${MAX_CARDS}; each card is shuffled and printed on its own page.`}
              />
              <div className="flex items-start gap-2">
                <input
                  id={callerId}
                  type="checkbox"
                  className="mt-0.5 size-4 rounded border-slate-300 accent-brand-700"
                  checked={callerSheet}
                  onChange={(e) => setCallerSheet(e.target.checked)}
                />
                <label htmlFor={callerId} className="text-sm text-slate-800">
                  Add a caller sheet (every word in a shuffled call order) as the last page
                </label>
              </div>
              <div className="flex flex-col gap-2 sm:flex-row lg:flex-col">
                <Button variant="outline" className="flex-1" onClick={previewCard} disabled={noWords}>
                  {BingoMessages.previewSingleCard}
                </Button>
                <Button className="flex-1" onClick={() => void exportPdf()} disabled={noWords || generating}>
                  {generating ? BingoMessages.generatingPdf : 'Generate PDF'}
                </Button>
              </div>
            </CardBody>
          </Card>
        </div>

        <div className="space-y-6">
          <Card>
            <CardHeader title="Preview" />
            <CardBody aria-live="polite">
              {preview ? (
                <div className="mx-auto max-w-md">
                  <p className="mb-3 text-center text-xl font-bold text-slate-900">{preview.title}</p>
                  <BingoCardView
                    card={preview.card}
                    caption="Sample card"
                    headings={preview.card.size === 5}
                  />
                </div>
              ) : (
                <p className="py-10 text-center text-sm text-slate-500">
                  Press ‘{BingoMessages.previewSingleCard}’ to see a sample card.
                </p>
              )}
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="How to Use" />
            <CardBody>
              <ol className="list-decimal space-y-1.5 pl-5 text-sm text-slate-700">
                <li>Give the cards a title and choose the grid size.</li>
                <li>Type or paste your words, separated by commas or new lines.</li>
                <li>Press ‘{BingoMessages.previewSingleCard}’ to check how a card looks.</li>
                <li>Choose how many cards you need (1 to 50) and generate the PDF: one card per page.</li>
                <li>
                  Call words out (the optional caller sheet gives an order); students mark them off and call
                  “Bingo!”.
                </li>
              </ol>
            </CardBody>
          </Card>
        </div>
      </div>
    </PageContainer>
  );
}
