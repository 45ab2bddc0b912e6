import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

// Through the real route table: each tool route mounts its page (docs/adr/0005-bingo-routes.md for the bingo pair).
describe('tool routes', () => {
  it.each([
    ['/bingo-generator', 'Bingo Generator', 'Min Number'],
    ['/word-bingo', 'Bingo', 'Card Title'],
    ['/crossword-generator', 'Crossword Generator', 'Title'],
    ['/word-sorter', 'Word Sorter', 'Student Name'],
  ])('%s shows %s without signing in', async (path, heading, field) => {
    await renderApp(path, { user: null });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.getByLabelText(field)).toBeInTheDocument();
  });

  it.each([
    ['/spanish-alphabet', 'Spanish Alphabet'],
    ['/code-evolution', 'Code Evolution'],
  ])('%s shows %s without signing in', async (path, heading) => {
    await renderApp(path, { user: null });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('/educational-tools lists all 12 tools for a teacher', async () => {
    await renderApp('/educational-tools', { user: personas.teacher() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Educational Tools' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Launch Tool/ })).toHaveLength(12);
  });
});
