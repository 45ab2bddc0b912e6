import { configure, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { installFakeAudio } from '@/testing/fake-audio';

configure({ asyncUtilTimeout: 4000 });

describe('the tools hub reaches the classroom screens', () => {
  it.each([
    ['Audio Lists', 'Audio Lists'],
    ['Lesson Plans', 'Lesson Plans'],
    ['Google Slides', 'Google Slides'],
  ])("'Launch Tool: %s' opens the real screen", { timeout: 20_000 }, async (tool, heading) => {
    installFakeAudio();
    const { user, router } = await renderApp('/educational-tools', {
      user: personas.teacher(),
      setup: (f) =>
        ['/api/audio-lists', '/api/lesson-plans', '/api/google-slides'].forEach((api) =>
          f.on('GET', api, { json: [] }),
        ),
    });
    await user.click(await screen.findByRole('link', { name: `Launch Tool: ${tool}` }));
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/${tool.toLowerCase().replace(' ', '-')}`);
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
  });
});
