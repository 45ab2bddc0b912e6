import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IdentityMessages } from '@district/contracts/identity';
import { makeUser } from '@/testing/fixtures';
import { renderApp, type RenderAppOptions } from '@/testing/render-app';

async function openModal(mode: 'Sign In' | 'Sign Up', setup?: RenderAppOptions['setup']) {
  const app = await renderApp('/', { user: null, setup });
  const nav = screen.getByRole('navigation', { name: 'Main' });
  await app.user.click(within(nav).getByRole('button', { name: mode }));
  const dialog = await screen.findByRole('dialog', {
    name: mode === 'Sign In' ? 'Sign In' : 'Create Account',
  });
  return { ...app, dialog, nav };
}

describe('sign-in modal (spec sections 2, 5 and 8)', () => {
  it('Sign In opens the sign-in form with a toggle and the third-party link', async () => {
    const { dialog, user } = await openModal('Sign In');
    // The dialog moves focus in an effect after it renders (it is loaded lazily): wait for it, as for any effect.
    await waitFor(() => expect(within(dialog).getByLabelText('Email')).toHaveFocus());
    expect(within(dialog).getByRole('link', { name: 'Continue with Google' })).toHaveAttribute(
      'href',
      '/api/auth/google',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create one' }));
    const signUp = screen.getByRole('dialog', { name: 'Create Account' });
    expect(within(signUp).getByLabelText('Full Name')).toBeInTheDocument();
    await user.click(within(signUp).getByRole('button', { name: 'Sign in instead' }));
    expect(screen.getByRole('dialog', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('sign-in validates before calling the server', async () => {
    const { dialog, user, fetch } = await openModal('Sign In');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(within(dialog).getByText('Email is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Password is required')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    await user.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(within(dialog).getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/auth/login')).toHaveLength(0);
  });

  it('sign-up requires full name, username, email and password', async () => {
    const { dialog, user, fetch } = await openModal('Sign Up');
    await user.click(within(dialog).getByRole('button', { name: 'Create Account' }));
    for (const msg of [
      'Full name is required',
      'Username is required',
      'Email is required',
      IdentityMessages.passwordTooShort,
    ]) {
      expect(within(dialog).getByText(msg)).toBeInTheDocument();
    }
    expect(within(dialog).getByLabelText('Role')).toHaveValue('student');
    expect(fetch.calls('POST', '/api/auth/register')).toHaveLength(0);
  });

  it('shows the server message when sign-in fails', async () => {
    const { dialog, user } = await openModal('Sign In', (f) =>
      f.on('POST', '/api/auth/login', {
        status: 401,
        json: { statusCode: 401, message: IdentityMessages.invalidCredentials },
      }),
    );
    await user.type(within(dialog).getByLabelText('Email'), 'a@b.test');
    await user.type(within(dialog).getByLabelText('Password'), 'wrong-pass');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(await within(dialog).findByText(IdentityMessages.invalidCredentials)).toBeInTheDocument();
  });

  it("falls back to 'Authentication failed' when the server gives no message", async () => {
    const { dialog, user } = await openModal('Sign In', (f) =>
      f.on('POST', '/api/auth/login', { status: 500, text: 'upstream down' }),
    );
    await user.type(within(dialog).getByLabelText('Email'), 'a@b.test');
    await user.type(within(dialog).getByLabelText('Password'), 'whatever');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(await within(dialog).findByText(IdentityMessages.authenticationFailed)).toBeInTheDocument();
  });

  it('a successful sign-in closes the modal and toasts', async () => {
    const account = makeUser({ name: 'Olive Login' });
    const { dialog, user, fetch } = await openModal('Sign In', (f) =>
      f.on('POST', '/api/auth/login', { json: account }),
    );
    await user.type(within(dialog).getByLabelText('Email'), '  Olive@District.TEST ');
    await user.type(within(dialog).getByLabelText('Password'), 'pass-word');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Successfully logged in!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch.calls('POST', '/api/auth/login')[0]?.body).toEqual({
      email: 'olive@district.test',
      password: 'pass-word',
    });
  });

  it('a successful sign-up sends the register payload, closes the modal and toasts', async () => {
    const account = makeUser({ name: 'Nina New', username: 'nina', role: 'teacher', approved: false });
    const { dialog, user, fetch, nav } = await openModal('Sign Up', (f) =>
      f.on('POST', '/api/auth/register', { status: 201, json: account }),
    );
    await user.type(within(dialog).getByLabelText('Full Name'), 'Nina New');
    await user.type(within(dialog).getByLabelText('Username'), 'nina');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'teacher');
    await user.type(within(dialog).getByLabelText('Email'), 'nina@district.test');
    await user.type(within(dialog).getByLabelText('Password'), 'long-enough');
    await user.click(within(dialog).getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Account created successfully!')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/auth/register')[0]?.body).toEqual({
      name: 'Nina New',
      username: 'nina',
      role: 'teacher',
      email: 'nina@district.test',
      password: 'long-enough',
    });
    await waitFor(() => expect(within(nav).getByText('Nina New')).toBeInTheDocument());
    expect(within(nav).queryByRole('link', { name: 'My Profile' })).not.toBeInTheDocument();
  });

  it('shows a server conflict message on sign-up', async () => {
    const { dialog, user } = await openModal('Sign Up', (f) =>
      f.on('POST', '/api/auth/register', {
        status: 409,
        json: { statusCode: 409, message: IdentityMessages.emailTaken },
      }),
    );
    await user.type(within(dialog).getByLabelText('Full Name'), 'Dup');
    await user.type(within(dialog).getByLabelText('Username'), 'dup');
    await user.type(within(dialog).getByLabelText('Email'), 'dup@district.test');
    await user.type(within(dialog).getByLabelText('Password'), 'long-enough');
    await user.click(within(dialog).getByRole('button', { name: 'Create Account' }));
    expect(await within(dialog).findByText(IdentityMessages.emailTaken)).toBeInTheDocument();
  });

  it('is keyboard operable: Tab stays inside, Escape closes and focus returns', async () => {
    const { dialog, user, nav } = await openModal('Sign In');
    const opener = within(nav).getByRole('button', { name: 'Sign In' });
    const close = within(dialog).getByRole('button', { name: 'Close dialog' });
    close.focus();
    await user.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);
    for (let i = 0; i < 12; i += 1) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });
});
