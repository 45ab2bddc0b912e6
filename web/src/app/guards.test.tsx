import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IdentityMessages } from '@district/contracts/identity';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('route guards (spec section 2)', () => {
  it.each([
    '/profile',
    '/admin',
    '/admin/users',
    '/educational-tools',
    '/blog/some-lesson',
    '/listen-to-type',
    '/google-slides',
    '/audio-quizzes',
    '/text-quizzes',
  ])(
    'a visitor on %s sees Authentication Required with a Login link to third-party sign-in',
    async (path) => {
      await renderApp(path, { user: null });
      expect(await heading(IdentityMessages.authenticationRequired)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/api/auth/google');
    },
  );

  it('without a third-party provider, Login opens the email sign-in and the page shows once signed in (issue #34)', async () => {
    const student = personas.student();
    const { user, router } = await renderApp('/educational-tools', {
      user: null,
      setup: (f) => {
        f.on('GET', '/api/auth/sign-in-methods', { json: { password: true, thirdParty: false } });
        f.on('POST', '/api/auth/login', { json: student });
      },
    });
    expect(await heading(IdentityMessages.authenticationRequired)).toBeInTheDocument();
    const login = await screen.findByRole('button', { name: 'Login' });
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    // Login is the email sign-in here, so there is no second button for it.
    expect(screen.queryByRole('button', { name: 'Sign in with email' })).not.toBeInTheDocument();
    await user.click(login);
    const dialog = within(await screen.findByRole('dialog', { name: 'Sign In' }));
    await user.type(dialog.getByLabelText('Email'), student.email);
    await user.type(dialog.getByLabelText('Password'), 'demo1234');
    await user.click(dialog.getByRole('button', { name: 'Sign In' }));
    await waitFor(() =>
      expect(
        screen.queryByRole('heading', { name: IdentityMessages.authenticationRequired }),
      ).not.toBeInTheDocument(),
    );
    expect(router.state.location.pathname).toBe('/educational-tools');
  });

  it('a pending user on /profile sees Account Pending Approval', async () => {
    await renderApp('/profile', { user: personas.pending() });
    expect(await heading(IdentityMessages.accountPendingApproval)).toBeInTheDocument();
    expect(screen.getByText(/waiting for approval by an administrator/i)).toBeInTheDocument();
  });

  it.each([
    ['/audio-quizzes', 'Audio Quizzes'],
    ['/text-quizzes', 'Text Quizzes'],
  ])('a pending user opens the quiz screen %s (login needed, approval not)', async (path, title) => {
    await renderApp(path, {
      user: personas.pending(),
      setup: (f) => f.on('GET', `/api${path}`, { json: [] }),
    });
    expect(await heading(title)).toBeInTheDocument();
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
  });

  it('a pending user may open login-only routes (approval not needed)', async () => {
    await renderApp('/educational-tools', { user: personas.pending() });
    expect(
      screen.queryByRole('heading', { name: IdentityMessages.accountPendingApproval }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole('heading', { name: IdentityMessages.authenticationRequired }),
    ).not.toBeInTheDocument();
  });

  it.each([
    ['student', personas.student],
    ['teacher', personas.teacher],
    ['pending', personas.pending],
  ])('a %s on admin pages sees Access Denied and the admin-required message', async (_label, make) => {
    for (const path of [
      '/admin',
      '/admin/users',
      '/admin/posts',
      '/admin/posts/new',
      '/admin/posts/edit/42',
      '/admin/seo',
    ]) {
      const view = await renderApp(path, { user: make() });
      expect(await heading(IdentityMessages.accessDenied)).toBeInTheDocument();
      expect(screen.getByText(IdentityMessages.adminRequired)).toBeInTheDocument();
      view.unmount();
    }
  });

  it('an approved student opens /profile', async () => {
    await renderApp('/profile', { user: personas.student() });
    expect(await heading('My Profile')).toBeInTheDocument();
  });

  it('an admin opens the admin dashboard', async () => {
    await renderApp('/admin', {
      user: personas.admin(),
      setup: (f) => f.on('GET', '/api/users', { json: [] }),
    });
    expect(await heading('Admin Dashboard')).toBeInTheDocument();
  });

  it.each([
    '/bingo-generator',
    '/word-bingo',
    '/spanish-alphabet',
    '/word-sorter',
    '/code-evolution',
    '/crossword-generator',
    '/blog',
    '/',
  ])('the public route %s needs no sign-in', async (path) => {
    await renderApp(path, { user: null });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(
      screen.queryByRole('heading', { name: IdentityMessages.authenticationRequired }),
    ).not.toBeInTheDocument();
  });

  it.each([
    '/bingo-generator',
    '/word-bingo',
    '/spanish-alphabet',
    '/word-sorter',
    '/code-evolution',
    '/crossword-generator',
  ])('the tool route %s renders the classroom tool itself', async (path) => {
    await renderApp(path, { user: null });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
  });

  it('the tools hub is routed for a signed-in user', async () => {
    await renderApp('/educational-tools', { user: personas.teacher() });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
  });

  it.each([
    ['/audio-lists', 'Audio Lists', personas.pending],
    ['/lesson-plans', 'Lesson Plans', personas.pending],
    ['/google-slides', 'Google Slides', personas.pending],
    ['/sound-demo', 'Sound Demo', () => null],
  ])(
    'the classroom screen %s is routed (login needed, approval not; the sound demo is public)',
    async (path, title, make) => {
      await renderApp(path, {
        user: make(),
        setup: (f) =>
          ['/api/audio-lists', '/api/lesson-plans', '/api/google-slides'].forEach((api) =>
            f.on('GET', api, { json: [] }),
          ),
      });
      expect(await heading(title)).toBeInTheDocument();
      expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
    },
  );
});
