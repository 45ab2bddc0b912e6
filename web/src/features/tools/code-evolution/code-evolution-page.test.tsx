import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderTool } from '../shared/render-tool.testing';
import CodeEvolutionPage from './code-evolution-page';
import { EvolutionMessages } from './evolution-samples';

const stepHeading = () => screen.getByRole('heading', { level: 2, name: /^Step \d+ of \d+/ }).textContent;

describe('CodeEvolutionPage (/code-evolution)', () => {
  afterEach(() => vi.useRealTimers());

  it('shows a timeline of 5 sample states, starting at the first', async () => {
    await renderTool(<CodeEvolutionPage />, { path: '/code-evolution' });
    expect(
      screen.getByRole('list', { name: EvolutionMessages.timeline }).querySelectorAll('li'),
    ).toHaveLength(5);
    expect(stepHeading()).toBe('Step 1 of 5: Print a greeting');
  });

  it('plays one step every 2 s, pauses, stops at the last, and resets to the first', async () => {
    await renderTool(<CodeEvolutionPage />, { path: '/code-evolution' });
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(stepHeading()).toMatch(/^Step 1 of 5/);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(stepHeading()).toMatch(/^Step 2 of 5/);
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(stepHeading()).toMatch(/^Step 2 of 5/);
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    // React schedules each next step after rendering the last one, so time is advanced one step per act().
    for (const expected of [3, 4, 5, 5, 5]) {
      await act(() => vi.advanceTimersByTimeAsync(2000));
      expect(stepHeading()).toMatch(new RegExp(`^Step ${expected} of 5`));
    }
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(stepHeading()).toMatch(/^Step 1 of 5/);
  });

  it('adds non-empty custom code as a new step', async () => {
    const { user } = await renderTool(<CodeEvolutionPage />, { path: '/code-evolution' });
    const add = screen.getByRole('button', { name: 'Add to Timeline' });
    expect(add).toBeDisabled();
    await user.type(screen.getByLabelText('Your code'), '   ');
    expect(add).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Your code'), { target: { value: 'const x = 42;' } });
    await user.click(add);
    expect(stepHeading()).toBe('Step 6 of 6: Custom step 1');
    expect(screen.getByLabelText('Code')).toHaveTextContent('const x = 42;');
  });
});
