import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { inspectPdf } from '@/testing/pdf-inspect';
import { blobBytes, captureDownloads, renderTool } from '../shared/render-tool.testing';
import NumberBingoPage from './number-bingo-page';

const setup = () => renderTool(<NumberBingoPage />, { path: '/bingo-generator' });

describe('NumberBingoPage (/bingo-generator)', () => {
  it('starts with the spec defaults and an empty preview', async () => {
    await setup();
    expect(screen.getByLabelText('Min Number')).toHaveValue(1);
    expect(screen.getByLabelText('Max Number')).toHaveValue(75);
    expect(screen.getByLabelText('Number of Cards')).toHaveValue(1);
    expect(screen.getByLabelText('Include FREE space')).toBeChecked();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('generates the chosen number of cards with B-I-N-G-O headings and FREE centres', async () => {
    const { user } = await setup();
    const cards = screen.getByLabelText('Number of Cards');
    await user.clear(cards);
    await user.type(cards, '3');
    await user.click(screen.getByRole('button', { name: 'Generate Cards' }));
    const tables = screen.getAllByRole('table');
    expect(tables).toHaveLength(3);
    for (const table of tables) {
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['B', 'I', 'N', 'G', 'O']);
      const cells = within(table)
        .getAllByRole('cell')
        .map((c) => c.textContent);
      expect(cells[12]).toBe('FREE');
      const numbers = cells.filter((c) => c !== 'FREE').map(Number);
      expect(new Set(numbers).size).toBe(24);
      expect(numbers.every((n) => n >= 1 && n <= 75)).toBe(true);
    }
  });

  it('fills the centre with a number when FREE is unchecked', async () => {
    const { user } = await setup();
    await user.click(screen.getByLabelText('Include FREE space'));
    await user.click(screen.getByRole('button', { name: 'Generate Cards' }));
    expect(within(screen.getByRole('table')).queryByText('FREE')).not.toBeInTheDocument();
  });

  it('shows the validation toast for a range under 24 numbers', async () => {
    const { user } = await setup();
    const min = screen.getByLabelText('Min Number');
    await user.clear(min);
    await user.type(min, '60');
    await user.click(screen.getByRole('button', { name: 'Generate Cards' }));
    expect(
      await screen.findByText('Number range must be at least 24 numbers for a valid bingo card'),
    ).toBeInTheDocument();
    expect(screen.getByText('Validation Error')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('writes the fallback back when a field is left blank, and clamps cards to 50', async () => {
    const { user } = await setup();
    const max = screen.getByLabelText('Max Number');
    await user.clear(max);
    await user.tab();
    expect(max).toHaveValue(75);
    const cards = screen.getByLabelText('Number of Cards');
    await user.clear(cards);
    await user.type(cards, '80');
    await user.tab();
    expect(cards).toHaveValue(50);
  });

  it('downloads a PDF of the cards on screen, one per page, with the caller sheet last', async () => {
    const files = captureDownloads();
    const { user } = await setup();
    const cards = screen.getByLabelText('Number of Cards');
    await user.clear(cards);
    await user.type(cards, '2');
    await user.click(screen.getByLabelText(/caller sheet/));
    await user.click(screen.getByRole('button', { name: 'Generate Cards' }));
    const onScreen = screen.getAllByRole('table').map((t) =>
      within(t)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
    await user.click(screen.getByRole('button', { name: 'Generate PDF' }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0].name).toBe('number_bingo_cards.pdf');
    const pdf = inspectPdf(await blobBytes(files[0].blob));
    expect(pdf.pageCount).toBe(3);
    onScreen.forEach((cells, i) => cells.forEach((c) => expect(pdf.pages[i]).toContain(c)));
    expect(pdf.pages[2][0]).toBe('Caller Sheet');
    expect(screen.getByRole('button', { name: 'Generate PDF' })).toBeEnabled();
  });
});
