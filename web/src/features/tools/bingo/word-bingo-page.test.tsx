import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { inspectPdf } from '@/testing/pdf-inspect';
import { blobBytes, captureDownloads, renderTool } from '../shared/render-tool.testing';
import WordBingoPage from './word-bingo-page';

// The PDF module (and jspdf) loads on demand; holding that load open makes the in-flight state observable.
const pdfModule = vi.hoisted(() => {
  let release!: () => void;
  const ready = new Promise<void>((resolve) => (release = resolve));
  return { ready, release };
});
vi.mock('./bingo-pdf', async (importOriginal) => {
  await pdfModule.ready;
  return importOriginal();
});

const words = (n: number) => Array.from({ length: n }, (_, i) => `palabra${i + 1}`);
const setup = () => renderTool(<WordBingoPage />, { path: '/word-bingo' });
const typeWords = (list: string[], sep = ', ') =>
  fireEvent.change(screen.getByLabelText('Words'), { target: { value: list.join(sep) } });

describe('WordBingoPage (/word-bingo)', () => {
  it('starts with the defaults, an empty preview, and preview/export disabled without words', async () => {
    await setup();
    expect(screen.getByLabelText('Card Title')).toHaveValue('Word Bingo');
    expect(screen.getByLabelText('Grid Size')).toHaveValue('5');
    expect(screen.getByLabelText('Number of Cards')).toHaveValue(1);
    expect(screen.getByRole('button', { name: 'Preview Single Card' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Generate PDF' })).toBeDisabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'How to Use' })).toBeInTheDocument();
  });

  it('says how many words are needed for the grid size', async () => {
    const { user } = await setup();
    typeWords(words(10));
    await user.click(screen.getByRole('button', { name: 'Preview Single Card' }));
    expect(await screen.findByText('You need at least 24 words for a 5x5 grid!')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Grid Size'), '3');
    typeWords(words(8), '\n');
    await user.click(screen.getByRole('button', { name: 'Preview Single Card' }));
    expect(await screen.findByText('You need at least 9 words for a 3x3 grid!')).toBeInTheDocument();
  });

  it('previews one 5x5 card with headings and FREE, only after Preview Single Card', async () => {
    const { user } = await setup();
    typeWords(words(24), '\n');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Preview Single Card' }));
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['B', 'I', 'N', 'G', 'O']);
    const cells = within(table)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells[12]).toBe('FREE');
    expect(new Set(cells.filter((c) => c !== 'FREE'))).toEqual(new Set(words(24)));
  });

  it('previews 3x3 without headings or FREE', async () => {
    const { user } = await setup();
    await user.selectOptions(screen.getByLabelText('Grid Size'), '3');
    typeWords(words(9));
    await user.click(screen.getByRole('button', { name: 'Preview Single Card' }));
    const table = screen.getByRole('table');
    expect(within(table).queryAllByRole('columnheader')).toHaveLength(0);
    expect(within(table).getAllByRole('cell')).toHaveLength(9);
  });

  it('exports the PDF named after the title, showing Generating PDF... meanwhile', async () => {
    const files = captureDownloads();
    const { user } = await setup();
    await user.clear(screen.getByLabelText('Card Title'));
    await user.type(screen.getByLabelText('Card Title'), 'Unidad 3: Animales');
    typeWords(words(30));
    const cards = screen.getByLabelText('Number of Cards');
    await user.clear(cards);
    await user.type(cards, '4');
    await user.click(screen.getByRole('button', { name: 'Generate PDF' }));
    expect(await screen.findByRole('button', { name: 'Generating PDF...' })).toBeDisabled();
    pdfModule.release();
    await waitFor(() => expect(files).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Generate PDF' })).toBeEnabled();
    expect(files[0].name).toBe('unidad_3__animales_bingo_cards.pdf');
    const pdf = inspectPdf(await blobBytes(files[0].blob));
    expect(pdf.pageCount).toBe(4);
    expect(pdf.pages[0][0]).toBe('Unidad 3: Animales');
  });

  it('tells the teacher when the PDF cannot be made', async () => {
    pdfModule.release();
    captureDownloads();
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      writable: true,
      value: () => {
        throw new Error('quota');
      },
    });
    const { user } = await setup();
    typeWords(words(24));
    await user.click(screen.getByRole('button', { name: 'Generate PDF' }));
    expect(await screen.findByText('Error generating PDF. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate PDF' })).toBeEnabled();
  });
});
