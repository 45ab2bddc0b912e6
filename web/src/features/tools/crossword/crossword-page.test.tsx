import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { inspectPdf } from '@/testing/pdf-inspect';
import { blobBytes, captureDownloads, renderTool } from '../shared/render-tool.testing';
import CrosswordPage from './crossword-page';

// Typing key by key re-renders the 15×15 preview each time; setting whole values keeps the tests quick.
const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const setup = () => renderTool(<CrosswordPage />, { path: '/crossword-generator' });

describe('CrosswordPage (/crossword-generator)', () => {
  it('starts with the default title and one empty entry per list that cannot be removed', async () => {
    await setup();
    expect(screen.getByLabelText('Title')).toHaveValue('My Crossword Puzzle');
    expect(screen.getByLabelText('Across 1 answer')).toHaveValue('');
    expect(screen.getByLabelText('Down 1 answer')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Remove across entry 1' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove down entry 1' })).toBeDisabled();
  });

  it('refuses to generate without any answer', async () => {
    const { user } = await setup();
    fill('Across 1 clue', 'A clue without an answer');
    await user.click(screen.getByRole('button', { name: 'Generate PDF' }));
    expect(
      await screen.findByText('Please add at least one word with an answer to generate a crossword puzzle.'),
    ).toBeInTheDocument();
  });

  it('adds and removes entries, keeping at least one', async () => {
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Add Across Word' }));
    fill('Across 2 answer', 'perro');
    expect(screen.getByRole('button', { name: 'Remove across entry 1' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Remove across entry 1' }));
    expect(screen.getByLabelText('Across 1 answer')).toHaveValue('perro');
    expect(screen.queryByLabelText('Across 2 answer')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove across entry 1' })).toBeDisabled();
  });

  it('lays out the puzzle as the teacher types and names answers that cannot be placed', async () => {
    const { user } = await setup();
    fill('Across 1 clue', 'Animal que maúlla');
    fill('Across 1 answer', 'gato');
    fill('Down 1 clue', 'Animal que ladra');
    fill('Down 1 answer', 'perro');
    await user.click(screen.getByRole('button', { name: 'Add Down Word' }));
    fill('Down 2 answer', 'esternocleidomastoideo');
    await waitFor(() => expect(screen.getByRole('img', { name: /2 words placed/ })).toBeInTheDocument());
    const across = screen.getByRole('region', { name: 'Across clues' });
    expect(within(across).getByText('Animal que maúlla')).toBeInTheDocument();
    const warning = screen.getByText('Some answers could not be placed').parentElement!;
    expect(within(warning).getByText('esternocleidomastoideo')).toBeInTheDocument();
    expect(warning).toHaveTextContent('(Down 2): longer than 15 letters');
  });

  it('downloads the two-page PDF and warns about what was left out', async () => {
    const files = captureDownloads();
    const { user } = await setup();
    fill('Title', 'Animales');
    fill('Across 1 clue', 'Animal que maúlla');
    fill('Across 1 answer', 'gato');
    fill('Down 1 clue', 'Una palabra demasiado larga para la cuadrícula');
    fill('Down 1 answer', 'electroencefalografista');
    await user.click(screen.getByRole('button', { name: 'Generate PDF' }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0].name).toBe('animales_crossword.pdf');
    const pdf = inspectPdf(await blobBytes(files[0].blob));
    expect(pdf.pageCount).toBe(2);
    expect(pdf.pages[0].slice(0, 2)).toEqual(['Animales', 'Answer Key']);
    expect(pdf.pages[1].slice(0, 2)).toEqual(['Animales', 'Student Worksheet']);
    expect(await screen.findByText('Left out of the PDF: electroencefalografista')).toBeInTheDocument();
  });
});
