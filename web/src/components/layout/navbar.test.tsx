import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '@district/contracts/identity';
import { makeUser, personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const ALL = ['Lessons', 'Tools', 'My Profile', 'Chatroom', 'Admin Dashboard'];

const cases: Array<[string, User | null, string[]]> = [
  ['visitor', null, ['Lessons', 'Tools']],
  ['pending user', personas.pending(), ['Lessons', 'Tools']],
  ['student', personas.student(), ['Lessons', 'Tools', 'My Profile', 'Chatroom']],
  ['teacher', personas.teacher(), ['Lessons', 'Tools', 'My Profile', 'Chatroom']],
  ['admin', personas.admin(), ['Lessons', 'Tools', 'My Profile', 'Chatroom', 'Admin Dashboard']],
];

const hrefs: Record<string, string> = {
  Lessons: '/blog',
  Tools: '/educational-tools',
  'My Profile': '/profile',
  Chatroom: '/listen-to-type',
  'Admin Dashboard': '/admin',
};

describe('navbar visibility per role (spec section 2)', () => {
  it.each(cases)('%s sees exactly the right links and buttons', async (_label, user, visible) => {
    await renderApp('/', { user });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const name of ALL) {
      const link = within(nav).queryByRole('link', { name });
      if (visible.includes(name)) expect(link).toHaveAttribute('href', hrefs[name]);
      else expect(link).not.toBeInTheDocument();
    }
    if (user) {
      expect(within(nav).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
      expect(within(nav).queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
      expect(within(nav).queryByRole('button', { name: 'Sign Up' })).not.toBeInTheDocument();
    } else {
      expect(within(nav).getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
      expect(within(nav).getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
      expect(within(nav).queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    }
  });

  it('the phone menu offers the same items and closes after a choice', async () => {
    const { user: ui } = await renderApp('/', {
      user: personas.admin(),
      setup: (f) => f.on('GET', '/api/users', { json: [] }),
    });
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await ui.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    const menu = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(menu).not.toBeNull();
    for (const name of ALL) expect(within(menu!).getByRole('link', { name })).toBeInTheDocument();
    await ui.click(within(menu!).getByRole('link', { name: 'Admin Dashboard' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('the footer links Home, Blog and Tools and shows the tagline', async () => {
    await renderApp('/', { user: null });
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(footer).getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/blog');
    expect(within(footer).getByRole('link', { name: 'Tools' })).toHaveAttribute('href', '/educational-tools');
    expect(screen.getByText('Educational tools and interactive learning experiences.')).toBeInTheDocument();
  });

  it('keeps keyboard focus on the account button when signing in through the modal and signing out', async () => {
    const { user: ui } = await renderApp('/', {
      user: null,
      setup: (f) => {
        f.on('POST', '/api/auth/login', { json: makeUser({ name: 'Olive Login' }) });
        f.on('POST', '/api/auth/logout', { status: 204 });
      },
    });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await ui.click(within(nav).getByRole('button', { name: 'Sign In' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
    await ui.type(within(dialog).getByLabelText('Email'), 'olive@district.test');
    await ui.type(within(dialog).getByLabelText('Password'), 'pass-word{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(within(nav).getByRole('button', { name: 'Logout' })).toHaveFocus());
    await ui.keyboard('{Enter}');
    await waitFor(() => expect(within(nav).getByRole('button', { name: 'Sign In' })).toHaveFocus());
  });
});
