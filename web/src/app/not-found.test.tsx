import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render-app';

describe('404 (spec section 2)', () => {
  it.each(['/nope', '/admin/unknown-area', '/blog/a/b', '/profile/extra'])(
    '%s shows Page Not Found with Go Home and Browse Posts',
    async (path) => {
      const { user, router } = await renderApp(path, { user: null });
      expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
      expect(screen.getByText(/does not exist or has been moved/)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Browse Posts' })).toHaveAttribute('href', '/blog');
      await user.click(screen.getByRole('link', { name: 'Go Home' }));
      expect(router.state.location.pathname).toBe('/');
    },
  );
});

describe('document title', () => {
  it('names the page in the browser tab', async () => {
    await renderApp('/does-not-exist', { user: null });
    await screen.findByRole('heading', { level: 1, name: 'Page Not Found' });
    expect(document.title).toBe('Page Not Found · District Learning');
  });
});
