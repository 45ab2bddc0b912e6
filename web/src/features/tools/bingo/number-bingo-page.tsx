import { useId, useState, type ChangeEvent } from 'react';
import { Button, Card, CardBody, CardHeader, TextField, useToast } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { downloadBytes } from '@/lib/download-file';
import { BingoCardView } from './bingo-card-view';
import type { BingoCard } from './bingo-card';
import { BingoMessages, MAX_CARDS, MIN_CARDS, NUMBER_BINGO } from './bingo.constants';
import {
  defaultNumberBingoForm,
  generateNumberBingoCards,
  normalizeNumberBingoForm,
  numberCallOrder,
  validateNumberBingo,
  type NumberBingoForm,
  type NumberBingoSettings,
} from './number-bingo';

const sameCards = (a: NumberBingoSettings, b: NumberBingoSettings) =>
  a.min === b.min && a.max === b.max && a.cards === b.cards && a.includeFree === b.includeFree;

/** The number variant, mounted at /bingo-generator (docs/adr/0005-bingo-routes.md). */
export default function NumberBingoPage() {
  const { toast } = useToast();
  const [form, setForm] = useState<NumberBingoForm>(defaultNumberBingoForm);
  const [cards, setCards] = useState<{ settings: NumberBingoSettings; cards: BingoCard[] } | null>(null);
  const [generating, setGenerating] = useState(false);
  const freeId = useId();
  const callerId = useId();

  const text = (key: 'min' | 'max' | 'cards') => (e: ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  // Show the effective value (fallbacks and minimums applied) as soon as the field is left.
  const settle = () => {
    const s = normalizeNumberBingoForm(form);
    setForm((f) => ({ ...f, min: String(s.min), max: String(s.max), cards: String(s.cards) }));
  };

  const validSettings = (): NumberBingoSettings | null => {
    const settings = normalizeNumberBingoForm(form);
    const problem = validateNumberBingo(settings);
    if (problem) {
      toast({ type: 'error', title: BingoMessages.validationTitle, message: problem });
      return null;
    }
    return settings;
  };

  const newBatch = (settings: NumberBingoSettings) => {
    const batch = generateNumberBingoCards(settings, Math.random);
    setCards({ settings, cards: batch });
    return batch;
  };

  const generate = () => {
    settle();
    const settings = validSettings();
    if (settings) newBatch(settings);
  };

  const exportPdf = async () => {
    settle();
    const settings = validSettings();
    if (!settings) return;
    // The PDF holds the cards on screen when they match the settings; otherwise a fresh batch (also shown).
    const batch = cards && sameCards(cards.settings, settings) ? cards.cards : newBatch(settings);
    setGenerating(true);
    try {
      const { buildNumberBingoPdf } = await import('./bingo-pdf');
      const calls = settings.callerSheet ? numberCallOrder(settings, Math.random) : undefined;
      downloadBytes(buildNumberBingoPdf({ cards: batch, calls }), NUMBER_BINGO.fileName);
    } catch {
      toast({ type: 'error', message: BingoMessages.pdfError });
    } finally {
      setGenerating(false);
    }
  };

  return (
    <PageContainer>
      <PageHeader
        title="Bingo Generator"
        description="Make number bingo cards: choose the range, how many cards, and whether the centre is FREE."
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <Card className="self-start">
          <CardHeader title="Configuration" />
          <CardBody>
            <form
              className="space-y-4"
              onSubmit={(e) => {
                e.preventDefault();
                generate();
              }}
            >
              <div className="grid grid-cols-2 gap-3">
                <TextField
                  label="Min Number"
                  type="number"
                  inputMode="numeric"
                  min={NUMBER_BINGO.minFloor}
                  max={NUMBER_BINGO.ceiling}
                  value={form.min}
                  onChange={text('min')}
                  onBlur={settle}
                />
                <TextField
                  label="Max Number"
                  type="number"
                  inputMode="numeric"
                  min={NUMBER_BINGO.maxFloor}
                  max={NUMBER_BINGO.ceiling}
                  value={form.max}
                  onChange={text('max')}
                  onBlur={settle}
                />
              </div>
              <TextField
                label="Number of Cards"
                type="number"
                inputMode="numeric"
                min={MIN_CARDS}
                max={MAX_CARDS}
                value={form.cards}
                onChange={text('cards')}
                onBlur={settle}
                hint={`From ${MIN_CARDS} to ${MAX_CARDS}. Every card in a batch is different.`}
              />
              <div className="flex items-start gap-2">
                <input
                  id={freeId}
                  type="checkbox"
                  className="mt-0.5 size-4 rounded border-slate-300 accent-brand-700"
                  checked={form.includeFree}
                  onChange={(e) => setForm((f) => ({ ...f, includeFree: e.target.checked }))}
                />
                <label htmlFor={freeId} className="text-sm text-slate-800">
                  Include FREE space
                </label>
              </div>
              <div className="flex items-start gap-2">
                <input
                  id={callerId}
                  type="checkbox"
                  className="mt-0.5 size-4 rounded border-slate-300 accent-brand-700"
                  checked={form.callerSheet}
                  onChange={(e) => setForm((f) => ({ ...f, callerSheet: e.target.checked }))}
                />
                <label htmlFor={callerId} className="text-sm text-slate-800">
                  Add a caller sheet (every number in a shuffled call order) as the last page
                </label>
              </div>
              <div className="flex flex-col gap-2 sm:flex-row lg:flex-col">
                <Button type="submit" className="flex-1">
                  Generate Cards
                </Button>
                <Button
                  variant="success"
                  className="flex-1"
                  onClick={() => void exportPdf()}
                  disabled={generating}
                >
                  {generating ? BingoMessages.generatingPdf : 'Generate PDF'}
                </Button>
              </div>
            </form>
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Preview"
            description={
              cards
                ? `${cards.cards.length} card${cards.cards.length === 1 ? '' : 's'}, numbers ${cards.settings.min} to ${cards.settings.max}`
                : undefined
            }
          />
          <CardBody aria-live="polite">
            {cards ? (
              <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2">
                {cards.cards.map((card, i) => (
                  <li key={i}>
                    <BingoCardView card={card} caption={`Card ${i + 1}`} headings />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="py-10 text-center text-sm text-slate-500">
                Press ‘Generate Cards’ to see your bingo cards here.
              </p>
            )}
          </CardBody>
        </Card>
      </div>
    </PageContainer>
  );
}
