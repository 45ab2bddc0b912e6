import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChatMessages, type Chatroom, type InvitableUser } from '@district/contracts/chat';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

let n = 0;
const uuid = (i: number, block: string) => `00000000-${block}-4000-8000-${String(i).padStart(12, '0')}`;
function makeRoom(overrides: Partial<Chatroom> = {}): Chatroom {
  n += 1;
  return {
    id: uuid(n, 'c4a7'),
    name: `Room ${n}`,
    description: '',
    invitedUserIds: [],
    isActive: true,
    createdAt: '2025-03-05T10:00:00.000Z',
    ...overrides,
  };
}
const invitable: InvitableUser[] = [
  { id: uuid(1, 'aaaa'), name: 'Ana Alumna', username: 'ana', role: 'student' },
  { id: uuid(2, 'aaaa'), name: 'Beto Bravo', username: 'beto', role: 'student' },
  { id: uuid(3, 'aaaa'), name: 'Tia Teacher', username: 'tia', role: 'teacher' },
];

function setup(rooms: Chatroom[], users: InvitableUser[] | 'unavailable' = invitable) {
  return (f: FetchStub) => {
    f.on('GET', '/api/admin/chatrooms', () => ({ json: rooms }));
    f.on('GET', '/api/admin/chatrooms/invitable-users', () =>
      users === 'unavailable'
        ? {
            status: 503,
            headers: { 'Retry-After': '2' },
            json: { statusCode: 503, message: ChatMessages.usersUnavailable },
          }
        : { json: users },
    );
  };
}

const row = (name: string) => screen.getByRole('cell', { name }).closest('tr') as HTMLElement;
const open = (rooms: Chatroom[], users?: InvitableUser[] | 'unavailable') =>
  renderApp('/admin/chatrooms', { user: personas.admin(), setup: setup(rooms, users) });

describe('chatroom management (/admin/chatrooms; accounts spec §2, §5–§9)', { timeout: 20_000 }, () => {
  it('lists rooms with description, invited count, active badge and created date', async () => {
    await open([
      makeRoom({
        name: 'Spanish 1',
        description: 'Period 1',
        invitedUserIds: [invitable[0].id, invitable[1].id],
      }),
      makeRoom({ name: 'Spanish 2', isActive: false }),
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Chatroom Management' })).toBeInTheDocument();
    await screen.findByRole('cell', { name: 'Spanish 1' });
    const first = within(row('Spanish 1'));
    expect(first.getByText('Period 1')).toBeInTheDocument();
    expect(first.getByLabelText('2 invited')).toHaveTextContent('2');
    expect(first.getByText('Active')).toBeInTheDocument();
    expect(first.getByText('March 5, 2025')).toBeInTheDocument();
    expect(first.getByRole('switch', { name: 'Active: Spanish 1' })).toHaveAttribute('aria-checked', 'true');
    expect(within(row('Spanish 2')).getByText('Inactive')).toBeInTheDocument();
  });

  it('creates a room with a required name, description and invited people from the 200 px list', async () => {
    const rooms: Chatroom[] = [];
    const { user, fetch } = await open(rooms);
    fetch.on('POST', '/api/admin/chatrooms', (req) => {
      const body = req.body as { name: string; description: string; invitedUserIds: string[] };
      const room = makeRoom({ ...body });
      rooms.unshift(room);
      return { status: 201, json: room };
    });
    await screen.findByText(/No chatrooms yet/);
    await user.click(screen.getByRole('button', { name: 'Create Chatroom' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create Chatroom' }));
    const list = await screen.findByTestId('invite-list');
    expect(list).toHaveStyle({ height: '200px' });
    expect(list.className).toContain('overflow-y-auto');
    await dialog.findByRole('checkbox', { name: /Ana Alumna/ });

    await user.click(dialog.getByRole('button', { name: 'Create Chatroom' }));
    expect(dialog.getByText(ChatMessages.enterChatroomName)).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/admin/chatrooms')).toHaveLength(0);

    await user.type(dialog.getByLabelText('Name'), '  Español 3  ');
    await user.type(dialog.getByLabelText('Description'), 'Period 3');
    await user.click(dialog.getByRole('checkbox', { name: /Beto Bravo/ }));
    await user.click(dialog.getByRole('checkbox', { name: /Tia Teacher/ }));
    await user.click(dialog.getByRole('checkbox', { name: /Tia Teacher/ }));
    await user.click(dialog.getByRole('button', { name: 'Create Chatroom' }));

    expect(await screen.findByText('Chatroom created successfully')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/admin/chatrooms')[0]?.body).toEqual({
      name: 'Español 3',
      description: 'Period 3',
      invitedUserIds: [invitable[1].id],
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Español 3' })).toBeInTheDocument();
  });

  it('shows the server message as "Error: {message}", else "Failed to create chatroom"', async () => {
    const { user, fetch } = await open([]);
    fetch.on('POST', '/api/admin/chatrooms', {
      status: 400,
      json: { statusCode: 400, message: 'Chatroom name must be at most 100 characters' },
    });
    await screen.findByText(/No chatrooms yet/);
    await user.click(screen.getByRole('button', { name: 'Create Chatroom' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.type(dialog.getByLabelText('Name'), 'Room');
    await user.click(dialog.getByRole('button', { name: 'Create Chatroom' }));
    expect(
      await screen.findByText('Error: Chatroom name must be at most 100 characters'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    fetch.on('POST', '/api/admin/chatrooms', { status: 502, text: '<html>Bad gateway</html>' });
    await user.click(dialog.getByRole('button', { name: 'Create Chatroom' }));
    expect(await screen.findByText(ChatMessages.createChatroomFailed)).toBeInTheDocument();
  });

  it('offers a retry when the invite list is unavailable', async () => {
    const { user, fetch } = await open([], 'unavailable');
    await screen.findByText(/No chatrooms yet/);
    await user.click(screen.getByRole('button', { name: 'Create Chatroom' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(await dialog.findByText(ChatMessages.usersUnavailable)).toBeInTheDocument();
    fetch.on('GET', '/api/admin/chatrooms/invitable-users', { json: invitable });
    await user.click(dialog.getByRole('button', { name: 'Retry' }));
    expect(await dialog.findByRole('checkbox', { name: /Ana Alumna/ })).toBeInTheDocument();
  });

  it('switches a room off and on with PUT isActive, and reports a failure', async () => {
    const room = makeRoom({ name: 'Spanish 1' });
    const { user, fetch } = await open([room]);
    fetch.on('PUT', `/api/admin/chatrooms/${room.id}`, (req) => ({
      json: { ...room, ...(req.body as object) },
    }));
    const toggle = await screen.findByRole('switch', { name: 'Active: Spanish 1' });
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
    expect(within(row('Spanish 1')).getByText('Inactive')).toBeInTheDocument();
    expect(fetch.calls('PUT', `/api/admin/chatrooms/${room.id}`)[0]?.body).toEqual({ isActive: false });

    fetch.on('PUT', `/api/admin/chatrooms/${room.id}`, { status: 500, text: 'oops' });
    await user.click(toggle);
    expect(await screen.findByText(ChatMessages.updateChatroomStatusFailed)).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'false');

    fetch.on('PUT', `/api/admin/chatrooms/${room.id}`, {
      status: 404,
      json: { statusCode: 404, message: ChatMessages.chatroomNotFound },
    });
    await user.click(toggle);
    expect(await screen.findByText(`Error: ${ChatMessages.chatroomNotFound}`)).toBeInTheDocument();
  });

  it('deletes after confirmation, or reports the failure', async () => {
    const keep = makeRoom({ name: 'Keep me' });
    const doomed = makeRoom({ name: 'Spanish 9' });
    const { user, fetch } = await open([keep, doomed]);
    fetch.on('DELETE', `/api/admin/chatrooms/${keep.id}`, { status: 500, text: 'oops' });
    fetch.on('DELETE', `/api/admin/chatrooms/${doomed.id}`, { status: 204 });

    await user.click(await screen.findByRole('button', { name: 'Delete Spanish 9' }));
    const dialog = within(screen.getByRole('alertdialog'));
    expect(dialog.getByText(/Are you sure you want to delete/)).toHaveTextContent('Spanish 9');
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(fetch.calls('DELETE', `/api/admin/chatrooms/${doomed.id}`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Spanish 9' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Chatroom' }),
    );
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Spanish 9' })).not.toBeInTheDocument());
    expect(screen.getByText('Chatroom deleted successfully')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Keep me' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Chatroom' }),
    );
    expect(await screen.findByText(ChatMessages.deleteChatroomFailed)).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Keep me' })).toBeInTheDocument();
  });

  it('is for administrators only', async () => {
    await renderApp('/admin/chatrooms', { user: personas.teacher() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeInTheDocument();
  });
});
