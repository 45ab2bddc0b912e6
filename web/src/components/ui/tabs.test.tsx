import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tabs } from './tabs';

function Harness() {
  const [value, setValue] = useState('audio');
  return (
    <Tabs
      label="My Quiz Results"
      value={value}
      onChange={setValue}
      tabs={[
        { id: 'audio', label: 'Audio Quizzes (2)', content: <p>audio panel</p> },
        { id: 'text', label: 'Text Quizzes (0)', content: <p>text panel</p> },
      ]}
    />
  );
}

describe('Tabs', () => {
  it('switches with click and arrow keys, keeping one tab stop', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const audio = screen.getByRole('tab', { name: 'Audio Quizzes (2)' });
    const text = screen.getByRole('tab', { name: 'Text Quizzes (0)' });
    expect(audio).toHaveAttribute('aria-selected', 'true');
    expect(text).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('audio panel');
    audio.focus();
    await user.keyboard('{ArrowRight}');
    expect(text).toHaveFocus();
    expect(text).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Text Quizzes (0)' })).toHaveTextContent('text panel');
    await user.keyboard('{ArrowRight}');
    expect(audio).toHaveFocus();
    await user.click(text);
    expect(screen.getByRole('tabpanel')).toHaveTextContent('text panel');
  });
});
