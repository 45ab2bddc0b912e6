import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { USER_STORAGE_KEY, USER_UPDATED_EVENT } from '@/config/constants';
import { getCurrentUser } from '@/lib/auth';
import { deferred } from '@/testing/fetch-stub';
import { makeUser, personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const nav = () => screen.getByRole('navigation', { name: 'Main' });
const stored = () => window.localStorage.getItem(USER_STORAGE_KEY);

describe('session bootstrap (spec section 4)', () => {
  it('shows a full-page spinner while GET /api/auth/me runs, then the page', async () => {
    const me = deferred<{ json: unknown }>();
    const user = personas.student();
    const pending = renderApp('/', { setup: (f) => f.on('GET', '/api/auth/me', () => me.promise) });
    expect(await screen.findByTestId('full-page-spinner')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    me.resolve({ json: user });
    const { fetch } = await pending;
    expect(within(nav()).getByText(user.name)).toBeInTheDocument();
    const [call] = fetch.calls('GET', '/api/auth/me');
    expect(call?.credentials).toBe('include');
  });

  it('on success keeps the user in memory and in local storage under `user`', async () => {
    const user = personas.teacher();
    await renderApp('/', { user });
    expect(within(nav()).getByText(user.name)).toBeInTheDocument();
    expect(JSON.parse(stored() ?? 'null')).toEqual(user);
    expect(getCurrentUser()).toEqual(user);
  });

  it('on failure falls back to a valid stored copy', async () => {
    const user = personas.student();
    window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
    await renderApp('/', { user: null });
    expect(within(nav()).getByText(user.name)).toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'My Profile' })).toBeInTheDocument();
  });

  it.each([
    ['not JSON', '{oops'],
    ['not a user', JSON.stringify({ id: 1, name: 'x' })],
  ])('on failure removes an invalid stored copy (%s) and stays signed out', async (_label, raw) => {
    window.localStorage.setItem(USER_STORAGE_KEY, raw);
    await renderApp('/', { user: null });
    expect(stored()).toBeNull();
    expect(within(nav()).getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('counts an invalid JSON answer as signed out, even with a stored copy', async () => {
    window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(personas.student()));
    await renderApp('/', {
      setup: (f) => f.on('GET', '/api/auth/me', { status: 200, text: '<html>not json' }),
    });
    expect(within(nav()).getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(stored()).toBeNull();
  });

  it('replaces the current user when a userUpdated event arrives', async () => {
    const before = personas.student();
    await renderApp('/', { user: before });
    const after = { ...before, name: 'Renamed Student', isAdmin: true };
    act(() => {
      window.dispatchEvent(new CustomEvent(USER_UPDATED_EVENT, { detail: after }));
    });
    expect(within(nav()).getByText('Renamed Student')).toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(JSON.parse(stored() ?? 'null')).toEqual(after);
  });

  it('ignores a userUpdated event whose detail is not a user', async () => {
    const user = personas.student();
    await renderApp('/', { user });
    act(() => {
      window.dispatchEvent(new CustomEvent(USER_UPDATED_EVENT, { detail: { hello: 'world' } }));
    });
    expect(within(nav()).getByText(user.name)).toBeInTheDocument();
  });

  it('logout clears memory, storage and the global current user, and calls the server', async () => {
    const user = personas.admin();
    const {
      fetch,
      user: ui,
      router,
    } = await renderApp('/admin/posts', {
      user,
      setup: (f) => f.on('POST', '/api/auth/logout', { status: 204 }),
    });
    await ui.click(within(nav()).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(within(nav()).getByRole('button', { name: 'Sign In' })).toBeInTheDocument());
    expect(stored()).toBeNull();
    expect(getCurrentUser()).toBeNull();
    expect(fetch.calls('POST', '/api/auth/logout')).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/');
  });

  it('announces a successful login with the userUpdated event and stores the user', async () => {
    const user = makeUser({ name: 'Lia Login' });
    const announced: unknown[] = [];
    const listener = (e: Event) => announced.push((e as CustomEvent).detail);
    window.addEventListener(USER_UPDATED_EVENT, listener);
    const { user: ui } = await renderApp('/', {
      user: null,
      setup: (f) => f.on('POST', '/api/auth/login', { json: user }),
    });
    await ui.click(within(nav()).getByRole('button', { name: 'Sign In' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
    await ui.type(within(dialog).getByLabelText('Email'), user.email);
    await ui.type(within(dialog).getByLabelText('Password'), 'secret-pass');
    await ui.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(within(nav()).getByText('Lia Login')).toBeInTheDocument());
    expect(announced).toContainEqual(user);
    expect(JSON.parse(stored() ?? 'null')).toEqual(user);
    window.removeEventListener(USER_UPDATED_EVENT, listener);
  });
});
