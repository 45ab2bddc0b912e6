import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { personas } from '@/testing/fixtures';
import { renderTool } from '../shared/render-tool.testing';
import WordSorterPage from './word-sorter-page';

const setup = (user = personas.student()) => renderTool(<WordSorterPage />, { user, path: '/word-sorter' });
const list = (name: string) => screen.getByRole('list', { name });
const wordsIn = (name: string) =>
  within(list(name))
    .queryAllByRole('listitem')
    .map((li) => li.querySelector('span.flex-1')?.textContent)
    .filter(Boolean);

async function addWords(user: Awaited<ReturnType<typeof setup>>['user'], ...words: string[]) {
  for (const word of words) {
    await user.type(screen.getByLabelText('New word'), `${word}{Enter}`);
  }
}

describe('WordSorterPage (/word-sorter)', () => {
  it('prefills the student name from the signed-in user and links back to the tools', async () => {
    await setup(personas.student());
    expect(screen.getByLabelText('Student Name')).toHaveValue('Sam Student');
    expect(screen.getByRole('link', { name: 'Back to Tools' })).toHaveAttribute('href', '/educational-tools');
  });

  it('leaves the name empty for a visitor', async () => {
    await renderTool(<WordSorterPage />, { user: null, path: '/word-sorter' });
    expect(screen.getByLabelText('Student Name')).toHaveValue('');
  });

  it('adds words to list 1 with the button or Enter; Add Word is disabled while blank', async () => {
    const { user } = await setup();
    const add = screen.getByRole('button', { name: 'Add Word' });
    expect(add).toBeDisabled();
    await user.type(screen.getByLabelText('New word'), '   ');
    expect(add).toBeDisabled();
    await user.clear(screen.getByLabelText('New word'));
    await user.type(screen.getByLabelText('New word'), 'gato');
    await user.click(add);
    await addWords(user, 'correr');
    expect(wordsIn('List 1')).toEqual(['gato', 'correr']);
    expect(wordsIn('List 2')).toEqual([]);
    expect(screen.getByLabelText('New word')).toHaveValue('');
  });

  it('moves a word with the keyboard-reachable arrow button, and removes one with X', async () => {
    const { user } = await setup();
    await addWords(user, 'gato', 'correr');
    await user.click(screen.getByRole('button', { name: 'Move "correr" to List 2' }));
    expect(wordsIn('List 1')).toEqual(['gato']);
    expect(wordsIn('List 2')).toEqual(['correr']);
    await user.click(screen.getByRole('button', { name: 'Move "correr" to List 1' }));
    expect(wordsIn('List 1')).toEqual(['gato', 'correr']);
    await user.click(screen.getByRole('button', { name: 'Remove "gato"' }));
    expect(wordsIn('List 1')).toEqual(['correr']);
  });

  it('sorts without dragging: focus follows a moved word, Alt+Arrow reorders, removal and renaming keep focus', async () => {
    const { user } = await setup();
    await addWords(user, 'gato', 'perro', 'rojo');
    screen.getByRole('button', { name: 'Move "perro" to List 2' }).focus();
    await user.keyboard('{Enter}');
    expect(wordsIn('List 2')).toEqual(['perro']);
    expect(screen.getByRole('button', { name: 'Move "perro" to List 1' })).toHaveFocus();

    screen.getByRole('button', { name: 'Move "rojo" to List 2' }).focus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(wordsIn('List 1')).toEqual(['rojo', 'gato']);
    expect(screen.getByRole('button', { name: 'Move "rojo" to List 2' })).toHaveFocus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(wordsIn('List 1')).toEqual(['rojo', 'gato']);
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(wordsIn('List 1')).toEqual(['gato', 'rojo']);

    await user.click(screen.getByRole('button', { name: 'Remove "gato"' }));
    expect(screen.getByRole('button', { name: 'Remove "rojo"' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Remove "rojo"' }));
    expect(screen.getByLabelText('New word')).toHaveFocus();

    await user.click(screen.getByRole('button', { name: /^List 2/ }));
    await user.keyboard('{Control>}a{/Control}Animales{Enter}');
    expect(screen.getByRole('button', { name: /^Animales/ })).toHaveFocus();
  });

  it('moves a word by dragging it onto the other list', async () => {
    const { user } = await setup();
    await addWords(user, 'gato');
    const item = within(list('List 1')).getAllByRole('listitem')[0];
    const store = new Map<string, string>();
    const dataTransfer = {
      setData: (t: string, v: string) => store.set(t, v),
      getData: (t: string) => store.get(t) ?? '',
      get types() {
        return [...store.keys()];
      },
      effectAllowed: 'all',
      dropEffect: 'none',
    };
    fireEvent.dragStart(item, { dataTransfer });
    const target = list('List 2').closest('div.flex.min-h-64') as HTMLElement;
    fireEvent.dragOver(target, { dataTransfer });
    fireEvent.drop(target, { dataTransfer });
    expect(wordsIn('List 1')).toEqual([]);
    expect(wordsIn('List 2')).toEqual(['gato']);
  });

  it('renames a list title on click; Enter or blur saves', async () => {
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: /List 1/ }));
    const input = screen.getByRole('textbox', { name: 'Rename List 1' });
    await user.clear(input);
    await user.type(input, 'Sustantivos{Enter}');
    expect(screen.getByRole('button', { name: /Sustantivos/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /List 2/ }));
    await user.clear(screen.getByRole('textbox', { name: 'Rename List 2' }));
    await user.type(screen.getByRole('textbox', { name: 'Rename List 2' }), 'Verbos');
    await user.click(screen.getByLabelText('Student Name'));
    expect(screen.getByRole('button', { name: /Verbos/ })).toBeInTheDocument();
    expect(list('Verbos')).toBeInTheDocument();
  });

  describe('with timers', () => {
    afterEach(() => vi.useRealTimers());

    it('Clear All Lists warns, clears after 2 s and confirms; disabled when both lists are empty', async () => {
      const { user } = await setup();
      const clear = screen.getByRole('button', { name: 'Clear All Lists' });
      expect(clear).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Export to PDF' })).toBeDisabled();
      await addWords(user, 'gato', 'perro');
      // Testing Library's async helpers wait on real timers, so from here on only synchronous events.
      vi.useFakeTimers();
      clear.focus();
      fireEvent.click(clear);
      expect(
        screen.getByText('This will remove all words from both lists. This action cannot be undone.'),
      ).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1900));
      expect(wordsIn('List 1')).toEqual(['gato', 'perro']);
      await act(() => vi.advanceTimersByTimeAsync(100));
      expect(wordsIn('List 1')).toEqual([]);
      expect(screen.getByText('All lists have been cleared.')).toBeInTheDocument();
      // Keyboard users are not left on the now disabled button: the word field has focus.
      expect(screen.getByLabelText('New word')).toHaveFocus();
    });

    it('Export to PDF opens the printable page and calls print after 500 ms', async () => {
      const { user } = await setup();
      await addWords(user, '<b>gato</b>');
      const printed = document.implementation.createHTMLDocument('print');
      const fakeWindow = { document: printed, focus: vi.fn(), print: vi.fn() };
      const open = vi.spyOn(window, 'open').mockReturnValue(fakeWindow as unknown as Window);
      vi.useFakeTimers();
      fireEvent.click(screen.getByRole('button', { name: 'Export to PDF' }));
      expect(open).toHaveBeenCalledWith('', '_blank');
      expect(printed.querySelector('li')?.textContent).toBe('<b>gato</b>');
      expect(printed.body.textContent).toContain('Student: Sam Student');
      expect(screen.getByText('Print Dialog Opened')).toBeInTheDocument();
      expect(
        screen.getByText("Use your browser's print dialog to save as PDF or print the document."),
      ).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(499));
      expect(fakeWindow.print).not.toHaveBeenCalled();
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(fakeWindow.print).toHaveBeenCalledTimes(1);
    });
  });

  it('shows the spec error when the print window cannot open', async () => {
    const { user } = await setup();
    await addWords(user, 'gato');
    vi.spyOn(window, 'open').mockReturnValue(null);
    await user.click(screen.getByRole('button', { name: 'Export to PDF' }));
    expect(
      await screen.findByText(
        'Error opening print dialog: The print window was blocked. Allow pop-ups for this site and try again.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });
});
