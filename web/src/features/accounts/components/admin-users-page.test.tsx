import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IdentityMessages, type User } from '@district/contracts/identity';
import { deferred, type FetchStub, type Reply } from '@/testing/fetch-stub';
import { makeUser, personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

function setupUsers(me: User, others: User[]) {
  const users = [me, ...others];
  return renderApp('/admin/users', {
    user: me,
    setup: (f) => {
      f.on('GET', '/api/users', () => ({ json: users }));
    },
  });
}

const row = (name: string) => screen.getByText(name, { selector: 'td > div' }).closest('tr') as HTMLElement;
const alerts = () => screen.getAllByRole('alert');

describe('admin users (spec sections 2, 5, 6 and 8)', () => {
  it('lists users with status, role and admin flag', async () => {
    const me = personas.admin();
    const pending = makeUser({ name: 'Penny Pending', approved: false });
    await setupUsers(me, [pending]);
    expect(await screen.findByRole('heading', { level: 1, name: 'User Management' })).toBeInTheDocument();
    await screen.findByText('Penny Pending');
    expect(within(row('Penny Pending')).getByText('Pending')).toBeInTheDocument();
    expect(
      within(row('Penny Pending')).getByRole('button', { name: 'Approve Penny Pending' }),
    ).toBeInTheDocument();
    expect(within(row(me.name)).getByRole('switch', { name: `Administrator: ${me.name}` })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Pending (1)' })).toBeInTheDocument();
  });

  it('approves and suspends, updating the row from the answer', async () => {
    const me = personas.admin();
    const penny = makeUser({ name: 'Penny Pending', approved: false });
    const { fetch, user } = await setupUsers(me, [penny]);
    fetch.on('PATCH', `/api/users/${penny.id}/approval`, (req) => ({
      json: { ...penny, approved: (req.body as { approved: boolean }).approved },
    }));
    await user.click(await screen.findByRole('button', { name: 'Approve Penny Pending' }));
    expect(await screen.findByRole('button', { name: 'Suspend Penny Pending' })).toBeInTheDocument();
    expect(fetch.calls('PATCH', `/api/users/${penny.id}/approval`)[0]?.body).toEqual({ approved: true });
    await user.click(screen.getByRole('button', { name: 'Suspend Penny Pending' }));
    expect(await screen.findByRole('button', { name: 'Approve Penny Pending' })).toBeInTheDocument();
    expect(fetch.calls('PATCH', `/api/users/${penny.id}/approval`)[1]?.body).toEqual({ approved: false });
  });

  it('changes role and admin flag of another user', async () => {
    const me = personas.admin();
    const sam = makeUser({ name: 'Sam Student' });
    const { fetch, user } = await setupUsers(me, [sam]);
    fetch.on('PATCH', `/api/users/${sam.id}/role`, { json: { ...sam, role: 'teacher' } });
    fetch.on('PATCH', `/api/users/${sam.id}/admin`, { json: { ...sam, role: 'teacher', isAdmin: true } });
    await user.selectOptions(await screen.findByLabelText('Role for Sam Student'), 'teacher');
    await waitFor(() => expect(screen.getByLabelText('Role for Sam Student')).toHaveValue('teacher'));
    expect(fetch.calls('PATCH', `/api/users/${sam.id}/role`)[0]?.body).toEqual({ role: 'teacher' });
    await user.click(screen.getByRole('switch', { name: 'Administrator: Sam Student' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Administrator: Sam Student' })).toHaveAttribute(
        'aria-checked',
        'true',
      ),
    );
    expect(fetch.calls('PATCH', `/api/users/${sam.id}/admin`)[0]?.body).toEqual({ isAdmin: true });
  });

  it('shows the self-protection messages without calling the server', async () => {
    const me = personas.admin();
    const { fetch, user } = await setupUsers(me, []);
    await user.click(await screen.findByRole('switch', { name: `Administrator: ${me.name}` }));
    expect(await screen.findByText(IdentityMessages.cannotChangeOwnAdmin)).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(`Role for ${me.name}`), 'student');
    expect(await screen.findByText(IdentityMessages.cannotChangeOwnRole)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Suspend ${me.name}` }));
    expect(await screen.findByText(IdentityMessages.cannotSuspendOwnAccount)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Delete ${me.name}` }));
    expect(await screen.findByText(IdentityMessages.cannotDeleteOwnAccount)).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(fetch.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('shows the server message when a change is refused', async () => {
    const me = personas.admin();
    const sam = makeUser({ name: 'Sam Student' });
    const { fetch, user } = await setupUsers(me, [sam]);
    fetch.on('PATCH', `/api/users/${sam.id}/admin`, {
      status: 403,
      json: { statusCode: 403, message: IdentityMessages.adminRequired },
    });
    await user.click(await screen.findByRole('switch', { name: 'Administrator: Sam Student' }));
    expect(await screen.findByText(IdentityMessages.adminRequired)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Administrator: Sam Student' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
  });

  it('deletes after confirmation, with the success toast', async () => {
    const me = personas.admin();
    const sam = makeUser({ name: 'Sam Student' });
    const { fetch, user } = await setupUsers(me, [sam]);
    fetch.on('DELETE', `/api/users/${sam.id}`, { status: 204 });
    await user.click(await screen.findByRole('button', { name: 'Delete Sam Student' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete user' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Sam Student')).not.toBeInTheDocument());
    expect(fetch.calls('DELETE', `/api/users/${sam.id}`)).toHaveLength(1);
  });

  it('cancelling the confirmation deletes nothing', async () => {
    const me = personas.admin();
    const sam = makeUser({ name: 'Sam Student' });
    const { fetch, user } = await setupUsers(me, [sam]);
    await user.click(await screen.findByRole('button', { name: 'Delete Sam Student' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Sam Student')).toBeInTheDocument();
    expect(fetch.calls('DELETE', `/api/users/${sam.id}`)).toHaveLength(0);
  });

  it("toasts 'Failed to delete user' when the delete fails without a message", async () => {
    const me = personas.admin();
    const sam = makeUser({ name: 'Sam Student' });
    const { fetch, user } = await setupUsers(me, [sam]);
    fetch.on('DELETE', `/api/users/${sam.id}`, { status: 500, text: 'boom' });
    await user.click(await screen.findByRole('button', { name: 'Delete Sam Student' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('Failed to delete user')).toBeInTheDocument();
    expect(screen.getByText('Sam Student')).toBeInTheDocument();
  });

  describe('reset password', () => {
    async function openReset() {
      const me = personas.admin();
      const sam = makeUser({ name: 'Sam Student' });
      const app = await setupUsers(me, [sam]);
      await app.user.click(await screen.findByRole('button', { name: 'Reset password for Sam Student' }));
      const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
      return { ...app, dialog, sam };
    }

    it("requires the two entries to match ('Passwords do not match')", async () => {
      const { dialog, user, fetch } = await openReset();
      expect(within(dialog).getByLabelText('New Password')).toHaveFocus();
      await user.type(within(dialog).getByLabelText('New Password'), 'abcdef');
      await user.type(within(dialog).getByLabelText('Confirm Password'), 'abcdeg');
      await user.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
      expect(within(dialog).getByText(IdentityMessages.passwordsDoNotMatch)).toBeInTheDocument();
      expect(fetch.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    });

    it('requires at least 6 characters', async () => {
      const { dialog, user, fetch } = await openReset();
      await user.type(within(dialog).getByLabelText('New Password'), 'abc');
      await user.type(within(dialog).getByLabelText('Confirm Password'), 'abc');
      await user.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
      expect(within(dialog).getByText(IdentityMessages.passwordTooShort)).toBeInTheDocument();
      expect(fetch.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    });

    it('sends newPassword and closes on success', async () => {
      const { dialog, user, fetch, sam } = await openReset();
      fetch.on('PUT', `/api/admin/users/${sam.id}/password`, { json: sam });
      await user.type(within(dialog).getByLabelText('New Password'), 'new-secret');
      await user.type(within(dialog).getByLabelText('Confirm Password'), 'new-secret');
      await user.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
      expect(await screen.findByText('Password reset successfully')).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(fetch.calls('PUT', `/api/admin/users/${sam.id}/password`)[0]?.body).toEqual({
        newPassword: 'new-secret',
      });
    });

    it("shows the server message, else 'Failed to reset password'", async () => {
      const { dialog, user, fetch, sam } = await openReset();
      fetch.on('PUT', `/api/admin/users/${sam.id}/password`, {
        status: 400,
        json: { statusCode: 400, message: IdentityMessages.passwordTooShort },
      });
      await user.type(within(dialog).getByLabelText('New Password'), 'new-secret');
      await user.type(within(dialog).getByLabelText('Confirm Password'), 'new-secret');
      await user.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
      expect(await within(dialog).findByText(IdentityMessages.passwordTooShort)).toBeInTheDocument();
      fetch.on('PUT', `/api/admin/users/${sam.id}/password`, { status: 502, text: 'bad gateway' });
      await user.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
      expect(await within(dialog).findByText('Failed to reset password')).toBeInTheDocument();
      expect(alerts().length).toBeGreaterThan(0);
    });
  });
});

describe('admin users: server search and paging (issue #36, ADR 0042)', () => {
  const queryOf = (path: string) => new URLSearchParams(path.split('?')[1] ?? '');
  // The list's pages; the status counts ask for one-row pages (limit=1) besides.
  const listCalls = (fetch: FetchStub) =>
    fetch.calls('GET', '/api/users').filter((r) => queryOf(r.path).get('limit') === null);

  it('sends the search to the server once typing pauses, not on every key', async () => {
    const me = personas.admin();
    const ana = makeUser({ name: 'Ana Alumna' });
    const { fetch, user } = await renderApp('/admin/users', {
      user: me,
      setup: (f) =>
        f.on('GET', '/api/users', (req) => ({
          json: queryOf(req.path).get('q') === 'ana' ? [ana] : [me, ana, makeUser({ name: 'Bo Other' })],
        })),
    });
    await screen.findByText('Bo Other');
    await user.type(screen.getByLabelText('Search users'), 'ana');
    await waitFor(() => expect(screen.queryByText('Bo Other')).not.toBeInTheDocument());
    expect(screen.getByText('Ana Alumna')).toBeInTheDocument();
    const searched = listCalls(fetch).map((r) => queryOf(r.path).get('q'));
    expect(searched).toEqual([null, 'ana']);
  });

  it('shows how many of the whole list are loaded and loads the next page with the cursor', async () => {
    const me = personas.admin();
    const second = makeUser({ name: 'Zed Second-Page' });
    const { fetch, user } = await renderApp('/admin/users', {
      user: me,
      setup: (f) =>
        f.on('GET', '/api/users', (req): Reply =>
          queryOf(req.path).get('cursor') === 'next-1'
            ? { json: [second], headers: { 'X-Total-Count': '42000' } }
            : {
                json: [me, makeUser({ name: 'Bo Other' })],
                headers: { 'X-Total-Count': '42000', 'X-Next-Cursor': 'next-1' },
              },
        ),
    });
    expect(await screen.findByText('Showing 2 of 42,000')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more users' }));
    expect(await screen.findByText('Zed Second-Page')).toBeInTheDocument();
    expect(screen.getByText('Showing 3 of 42,000')).toBeInTheDocument();
    expect(screen.getByText('Bo Other')).toBeInTheDocument();
    expect(listCalls(fetch).at(-1)?.path).toBe('/api/users?cursor=next-1');
  });

  it('filters by school and roster role on the server where the district has schools', async () => {
    const me = personas.admin();
    const school = {
      id: '00000000-0000-4000-8000-5c0000000001',
      name: 'Lincoln Elementary',
      identifier: 'LIN',
      active: true,
      classCount: 3,
      canManage: true,
    };
    const { fetch, user } = await renderApp('/admin/users', {
      user: me,
      setup: (f) => {
        f.on('GET', '/api/users', { json: [me] });
        f.on('GET', '/api/schools', { json: [school] });
      },
    });
    await user.selectOptions(await screen.findByLabelText('School'), 'Lincoln Elementary');
    await user.selectOptions(screen.getByLabelText('Roster role'), 'Teachers');
    await waitFor(() =>
      expect(listCalls(fetch).at(-1)?.path).toBe(`/api/users?schoolId=${school.id}&role=teacher`),
    );
  });

  it('a site without schools shows no school or role filter', async () => {
    const me = personas.admin();
    await renderApp('/admin/users', {
      user: me,
      setup: (f) => {
        f.on('GET', '/api/users', { json: [me] });
        f.on('GET', '/api/schools', { json: [] });
      },
    });
    await screen.findByText('Showing 1 of 1');
    expect(screen.queryByLabelText('School')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Roster role')).not.toBeInTheDocument();
  });
});

describe('admin users: the Pending / Approved filter on the server (issue #36, ADR 0042)', () => {
  const queryOf = (path: string) => new URLSearchParams(path.split('?')[1] ?? '');
  const listCalls = (fetch: FetchStub) =>
    fetch.calls('GET', '/api/users').filter((r) => queryOf(r.path).get('limit') === null);
  const usersTable = () => screen.getByRole('table', { name: 'Users' });

  /**
   * A district's accounts as the server pages them: 4,000 approved and 120 waiting, of which the client holds only
   * the pages it asked for. One-row pages (limit=1) are the counts' requests.
   */
  function district(me: User, list: (approved: string | null, cursor: string | null) => Reply) {
    return renderApp('/admin/users', {
      user: me,
      setup: (f) =>
        f.on('GET', '/api/users', (req): Reply => {
          const query = queryOf(req.path);
          const approved = query.get('approved');
          if (query.get('limit') === '1')
            return {
              json: [me],
              headers: {
                'X-Total-Count': approved === 'false' ? '120' : approved === 'true' ? '4000' : '4120',
              },
            };
          return list(approved, query.get('cursor'));
        }),
    });
  }

  it('counts each status with the server and lists every pending account, page after page', async () => {
    const me = personas.admin();
    const approvedOne = makeUser({ name: 'Alma Approved' });
    const [p1, p2, p3] = ['Penny One', 'Penny Two', 'Penny Three'].map((name) =>
      makeUser({ name, approved: false }),
    ) as [User, User, User];
    const { fetch, user } = await district(me, (approved, cursor): Reply => {
      if (approved === 'false')
        return cursor === 'pending-2'
          ? { json: [p3], headers: { 'X-Total-Count': '120' } }
          : { json: [p1, p2], headers: { 'X-Total-Count': '120', 'X-Next-Cursor': 'pending-2' } };
      return { json: [me, approvedOne], headers: { 'X-Total-Count': '4120', 'X-Next-Cursor': 'all-2' } };
    });
    // The counts are the server's totals, not the two rows loaded (neither of them pending).
    expect(await screen.findByRole('button', { name: 'All (4120)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pending (120)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approved (4000)' })).toBeInTheDocument();
    await screen.findByText('Alma Approved');

    // Pending asks the server for the accounts waiting: rows none of the loaded pages held.
    await user.click(screen.getByRole('button', { name: 'Pending (120)' }));
    expect(await screen.findByText('Penny One')).toBeInTheDocument();
    expect(screen.getByText('Penny Two')).toBeInTheDocument();
    expect(screen.queryByText('Alma Approved')).not.toBeInTheDocument();
    expect(await screen.findByText('Showing 2 of 120')).toBeInTheDocument();
    expect(listCalls(fetch).at(-1)?.path).toBe('/api/users?approved=false');

    // Load more continues the pending list.
    await user.click(screen.getByRole('button', { name: 'Load more users' }));
    expect(await screen.findByText('Penny Three')).toBeInTheDocument();
    expect(screen.getByText('Showing 3 of 120')).toBeInTheDocument();
    expect(listCalls(fetch).at(-1)?.path).toBe('/api/users?approved=false&cursor=pending-2');
    expect(within(usersTable()).getAllByRole('row')).toHaveLength(4);
  });

  it('an account approved under Pending leaves that list at once, and its total', async () => {
    const me = personas.admin();
    const penny = makeUser({ name: 'Penny Pending', approved: false });
    const pat = makeUser({ name: 'Pat Pending', approved: false });
    const { fetch, user } = await district(me, (approved): Reply =>
      approved === 'false'
        ? { json: [penny, pat], headers: { 'X-Total-Count': '120' } }
        : { json: [me, penny, pat], headers: { 'X-Total-Count': '4120' } },
    );
    fetch.on('PATCH', `/api/users/${penny.id}/approval`, { json: { ...penny, approved: true } });
    await user.click(await screen.findByRole('button', { name: 'Pending (120)' }));
    expect(await screen.findByText('Showing 2 of 120')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve Penny Pending' }));
    await waitFor(() => expect(screen.queryByText('Penny Pending')).not.toBeInTheDocument());
    expect(screen.getByText('Pat Pending')).toBeInTheDocument();
    expect(screen.getByText('Showing 1 of 119')).toBeInTheDocument();
  });

  it('while the new filter’s first page loads, the previous rows are marked busy, not counted as its results', async () => {
    const me = personas.admin();
    const alma = makeUser({ name: 'Alma Approved' });
    const penny = makeUser({ name: 'Penny Pending', approved: false });
    const pending = deferred<Awaited<Reply>>();
    const { user } = await district(me, (approved): Reply =>
      approved === 'false'
        ? pending.promise
        : { json: [me, alma], headers: { 'X-Total-Count': '4120', 'X-Next-Cursor': 'all-2' } },
    );
    expect(await screen.findByText('Showing 2 of 4,120')).toBeInTheDocument();
    expect(usersTable()).not.toHaveAttribute('aria-busy');

    await user.click(screen.getByRole('button', { name: 'Pending (120)' }));
    // The approved rows stay in place, dimmed and busy; neither the count nor Load more speaks for them.
    await waitFor(() => expect(usersTable()).toHaveAttribute('aria-busy', 'true'));
    expect(within(usersTable()).getByText('Alma Approved')).toBeInTheDocument();
    expect(usersTable().parentElement).toHaveClass('opacity-50');
    expect(screen.getByText('Loading users…')).toBeInTheDocument();
    expect(screen.queryByText(/^Showing /)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more users' })).not.toBeInTheDocument();

    pending.resolve({ json: [penny], headers: { 'X-Total-Count': '120' } });
    expect(await screen.findByText('Showing 1 of 120')).toBeInTheDocument();
    expect(usersTable()).not.toHaveAttribute('aria-busy');
    expect(usersTable().parentElement).not.toHaveClass('opacity-50');
    expect(screen.getByText('Penny Pending')).toBeInTheDocument();
    expect(screen.queryByText('Alma Approved')).not.toBeInTheDocument();
  });

  it('an empty previous list says it is loading, not that nothing matches the new filter', async () => {
    const me = personas.admin();
    const alma = makeUser({ name: 'Alma Approved' });
    const approved = deferred<Awaited<Reply>>();
    const { user } = await district(me, (filter): Reply => {
      if (filter === 'false') return { json: [], headers: { 'X-Total-Count': '0' } };
      if (filter === 'true') return approved.promise;
      return { json: [me, alma], headers: { 'X-Total-Count': '2' } };
    });
    await user.click(await screen.findByRole('button', { name: 'Pending (120)' }));
    expect(await screen.findByText('No users match your filters.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approved (4000)' }));
    await waitFor(() => expect(usersTable()).toHaveAttribute('aria-busy', 'true'));
    expect(within(usersTable()).getByText('Loading users…')).toBeInTheDocument();
    expect(screen.queryByText('No users match your filters.')).not.toBeInTheDocument();
    approved.resolve({ json: [me, alma], headers: { 'X-Total-Count': '4000' } });
    expect(await screen.findByText('Alma Approved')).toBeInTheDocument();
    expect(usersTable()).not.toHaveAttribute('aria-busy');
  });
});
