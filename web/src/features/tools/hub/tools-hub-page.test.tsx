import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { personas } from '@/testing/fixtures';
import { renderTool } from '../shared/render-tool.testing';
import ToolsHubPage from './tools-hub-page';

const launchLinks = () => screen.getAllByRole('link', { name: /^Launch Tool/ });

describe('ToolsHubPage', () => {
  it('shows teachers all 12 tools, each with a Launch Tool link to its route', async () => {
    await renderTool(<ToolsHubPage />, { user: personas.teacher(), path: '/educational-tools' });
    expect(screen.getByRole('heading', { level: 1, name: 'Educational Tools' })).toBeInTheDocument();
    expect(launchLinks()).toHaveLength(12);
    expect(screen.getByRole('link', { name: 'Launch Tool: Crossword Generator' })).toHaveAttribute(
      'href',
      '/crossword-generator',
    );
    expect(launchLinks().every((l) => l.textContent === 'Launch Tool')).toBe(true);
    expect(screen.queryByText('Student View')).not.toBeInTheDocument();
  });

  it('shows admins all 12 tools', async () => {
    await renderTool(<ToolsHubPage />, { user: personas.admin(), path: '/educational-tools' });
    expect(launchLinks()).toHaveLength(12);
  });

  it('shows students their five tools and the Student View note', async () => {
    await renderTool(<ToolsHubPage />, { user: personas.student(), path: '/educational-tools' });
    const list = screen.getByRole('list', { name: 'Tools' });
    expect(
      within(list)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Audio Quizzes', 'Text Quizzes', 'Spanish Alphabet', 'Audio Lists', 'Google Slides']);
    expect(screen.getByText('Student View')).toBeInTheDocument();
    expect(screen.queryByText('Bingo Generator')).not.toBeInTheDocument();
  });

  it('asks visitors to log in', async () => {
    await renderTool(<ToolsHubPage />, { user: null, path: '/educational-tools' });
    expect(screen.getByText('Please log in to access all educational tools')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('navigates to the tool when Launch Tool is pressed', async () => {
    const { user, currentPath } = await renderTool(<ToolsHubPage />, {
      user: personas.teacher(),
      path: '/educational-tools',
    });
    await user.click(screen.getByRole('link', { name: 'Launch Tool: Word Sorter' }));
    expect(currentPath()).toBe('/word-sorter');
  });
});
