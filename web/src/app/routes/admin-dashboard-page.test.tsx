import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

describe('admin dashboard (spec section 2)', () => {
  it('links every admin area, the sound demo and the tools, and counts pending accounts', async () => {
    const users = [
      personas.admin(),
      makeUser({ approved: false }),
      makeUser({ approved: false }),
      makeUser(),
    ];
    // The server counts (X-Total-Count of one-row pages, ADR 0042): a district's accounts are never all fetched.
    await renderApp('/admin', {
      user: users[0],
      setup: (f) =>
        f.on('GET', '/api/users', (req) => {
          const waiting = new URL(req.path, 'http://x').searchParams.get('approved') === 'false';
          const matching = waiting ? users.filter((u) => !u.approved) : users;
          return { json: matching.slice(0, 1), headers: { 'X-Total-Count': String(matching.length * 1000) } };
        }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
    const expected: Record<string, string> = {
      'Manage Posts': '/admin/posts',
      'New Post': '/admin/posts/new',
      Categories: '/admin/categories',
      Users: '/admin/users',
      Comments: '/admin/comments',
      SEO: '/admin/seo',
      Chatrooms: '/admin/chatrooms',
      'Quiz Grades': '/admin/quiz-grades-dashboard',
      'Text Quiz Grades': '/admin/text-quiz-grades-dashboard',
      'Sound Demo': '/sound-demo',
      'Educational Tools': '/educational-tools',
    };
    const list = screen.getAllByRole('list').find((l) => within(l).queryByText('Manage Posts'))!;
    for (const [title, href] of Object.entries(expected)) {
      expect(within(list).getByRole('link', { name: new RegExp(`^${title}`) })).toHaveAttribute('href', href);
    }
    expect(await screen.findByTestId('pending-count')).toHaveTextContent('2000');
    expect(screen.getByText(/2000 accounts are waiting for approval/)).toBeInTheDocument();
    expect(screen.getByText('4000')).toBeInTheDocument();
  });
});
