import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatLiveMessages, chatRosterDigestOf, type ChatJoinedEvent } from '@district/contracts/chat';
import type { User } from '@district/contracts/identity';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { joined, message, presence, rejected, ROOM_ID } from '../live/chat-events.testing';
import { FakeWebSocket, server } from '../live/fake-websocket.testing';

const exportChatPdf = vi.fn<(input: { roomName: string; messages: unknown[] }) => Promise<void>>();
vi.mock('../pdf/export-chat', () => ({
  exportChatPdf: (input: { roomName: string; messages: unknown[] }) => exportChatPdf(input),
}));

configure({ asyncUtilTimeout: 4000 });

const rooms = [
  { id: ROOM_ID, name: 'Spanish 1', description: 'Period 1 practice' },
  { id: '22222222-2222-4222-8222-222222222222', name: 'Spanish 2', description: '' },
];

async function openChat(user: User = personas.student()) {
  const app = await renderApp('/listen-to-type', {
    user,
    setup: (f) => f.on('GET', '/api/chatrooms', { json: rooms }),
  });
  await screen.findByRole('heading', { level: 1, name: 'Chatroom' });
  await screen.findByRole('option', { name: 'Spanish 1' });
  return app;
}

type App = Awaited<ReturnType<typeof openChat>>;

/** Picks Spanish 1, presses Join and plays the server up to `joined` (real timers: the join goes after 100 ms). */
async function joinRoom(app: App, joinedEvent: Partial<ChatJoinedEvent> = {}) {
  await app.user.selectOptions(screen.getByLabelText('Chatroom'), 'Spanish 1');
  await app.user.click(screen.getByRole('button', { name: 'Join' }));
  const ws = FakeWebSocket.last;
  server.open(ws);
  await waitFor(() => expect(ws.sentOfType('join')).toHaveLength(1));
  server.receive(ws, joined(joinedEvent));
  await screen.findByRole('log', { name: 'Messages' });
  return ws;
}

const log = () => screen.getByRole('log', { name: 'Messages' });
const messageTexts = () => Array.from(log().querySelectorAll('li[data-seq] p')).map((p) => p.textContent);

beforeEach(() => {
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
  exportChatPdf.mockReset();
});

describe('live chat room (/listen-to-type; tools spec §2, §4, §5, §7, §8)', { timeout: 20_000 }, () => {
  it('lists the rooms, defaults the name to the account name and links the quick logins', async () => {
    await openChat();
    expect(screen.getByLabelText('Your name')).toHaveValue('Sam Student');
    expect(screen.getByRole('link', { name: 'Teacher login' })).toHaveAttribute(
      'href',
      '/api/auth/quick-login',
    );
    expect(screen.getByRole('link', { name: 'Student login' })).toHaveAttribute(
      'href',
      '/api/auth/quick-login?type=student',
    );
    expect(screen.queryByRole('link', { name: 'Create a chatroom' })).not.toBeInTheDocument();
  });

  it('shows admins the link to create a chatroom', async () => {
    await openChat(personas.admin());
    expect(screen.getByRole('link', { name: 'Create a chatroom' })).toHaveAttribute('href', '/admin');
  });

  it('needs a room before joining', async () => {
    const app = await openChat();
    await app.user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByText(ChatLiveMessages.chooseRoom)).toBeInTheDocument();
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('opens ws://<page host>/ws and sends the join 100 ms after the socket opens', async () => {
    const app = await openChat(personas.teacher());
    await app.user.selectOptions(screen.getByLabelText('Chatroom'), 'Spanish 1');
    expect(screen.getByText('Period 1 practice')).toBeInTheDocument();
    await app.user.clear(screen.getByLabelText('Your name'));
    await app.user.type(screen.getByLabelText('Your name'), '  Profe Tía ');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(screen.getByRole('button', { name: 'Join' }));
    const ws = FakeWebSocket.last;
    expect(ws.url).toBe(`ws://${window.location.host}/ws`);
    expect(screen.getByRole('button', { name: 'Joining…' })).toBeDisabled();
    server.open(ws);
    act(() => vi.advanceTimersByTime(99));
    expect(ws.sent).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(ws.sent).toEqual([{ type: 'join', name: 'Profe Tía', role: 'teacher', chatroom: ROOM_ID }]);
    server.receive(
      ws,
      joined({ name: 'Profe Tía', role: 'teacher' }),
      presence('user_joined', 'Profe Tía', 'teacher'),
    );
    expect(screen.getByRole('heading', { name: 'Spanish 1' })).toBeInTheDocument();
    expect(screen.getByText(ChatLiveMessages.userJoined('Profe Tía'))).toBeInTheDocument();
  });

  it('uses the account name when the name field is left empty', async () => {
    const app = await openChat();
    await app.user.clear(screen.getByLabelText('Your name'));
    const ws = await joinRoom(app);
    expect(ws.sentOfType('join')[0]).toMatchObject({ name: 'Sam Student', role: 'student' });
  });

  it('shows messages as plain text with name, role badge and time, in an aria-live log 300 px high', async () => {
    const app = await openChat();
    const ws = await joinRoom(app);
    server.receive(ws, message(1, '<img src=x onerror="alert(1)"> ¡Hola, clase!', 'Tia Teacher', 'teacher'));
    const window_ = log();
    expect(window_).toHaveAttribute('aria-live', 'polite');
    expect(window_).toHaveStyle({ height: '300px' });
    const item = within(window_)
      .getByText(/¡Hola, clase!/)
      .closest('li') as HTMLElement;
    expect(item).toHaveTextContent('<img src=x onerror="alert(1)"> ¡Hola, clase!');
    expect(item.querySelector('img')).toBeNull();
    expect(within(item).getByText('Tia Teacher')).toBeInTheDocument();
    expect(within(item).getByText('Teacher')).toBeInTheDocument();
    expect(item.querySelector('time')).toHaveAttribute('datetime', message(1, '').timestamp);
  });

  it('sends on Enter, not on Shift+Enter, and trims the text', async () => {
    const app = await openChat();
    const ws = await joinRoom(app);
    const box = screen.getByLabelText('Message');
    await app.user.type(box, '  hola{Shift>}{Enter}{/Shift}mundo');
    expect(ws.sentOfType('message')).toEqual([]);
    expect(box).toHaveValue('  hola\nmundo');
    await app.user.type(box, '{Enter}');
    expect(ws.sentOfType('message')).toEqual([
      {
        type: 'message',
        text: 'hola\nmundo',
        chatroom: ROOM_ID,
        ref: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    expect(box).toHaveValue('');
    await app.user.type(box, '   {Enter}');
    expect(ws.sentOfType('message')).toHaveLength(1);
  });

  it('shows a sent message as sending until it comes back, and offers to send again one that never does', async () => {
    const app = await openChat();
    const ws = await joinRoom(app);
    const box = screen.getByLabelText('Message');
    await app.user.type(box, 'uno{Enter}');
    const first = ws.sentOfType('message')[0];
    const pending = within(log()).getByText('uno').closest('li') as HTMLElement;
    expect(pending).toHaveAttribute('data-outgoing', 'sending');
    expect(within(pending).getByText('Sending…')).toBeInTheDocument();
    server.receive(ws, { ...message(1, 'uno', 'Sam Student', 'student'), ref: first.ref });
    expect(messageTexts()).toEqual(['uno']);
    expect(log().querySelector('[data-outgoing]')).toBeNull();
    // The next is refused: the toast says why and the message stays, with a way to send it again.
    await app.user.type(box, 'dos{Enter}');
    const second = ws.sentOfType('message')[1];
    server.receive(ws, {
      type: 'notice',
      code: 'rate_limited',
      text: ChatLiveMessages.rateLimited,
      chatroom: ROOM_ID,
      retryAfterMs: 500,
      ref: second.ref,
    });
    expect(await screen.findByText(ChatLiveMessages.rateLimited)).toBeInTheDocument();
    const failed = within(log()).getByText('dos').closest('li') as HTMLElement;
    expect(failed).toHaveAttribute('data-outgoing', 'failed');
    expect(within(failed).getByText('Not sent')).toBeInTheDocument();
    await app.user.click(within(failed).getByRole('button', { name: 'Send again' }));
    expect(ws.sentOfType('message')[2]).toEqual({
      type: 'message',
      text: 'dos',
      chatroom: ROOM_ID,
      ref: second.ref,
    });
    expect(within(log()).getByText('dos').closest('li')).toHaveAttribute('data-outgoing', 'sending');
    server.receive(ws, { ...message(2, 'dos', 'Sam Student', 'student'), ref: second.ref });
    expect(messageTexts()).toEqual(['uno', 'dos']);
    expect(log().querySelector('[data-outgoing]')).toBeNull();
  });

  it('keeps the participants list from joined, user_joined and user_left', async () => {
    const app = await openChat();
    const ws = await joinRoom(app, {
      participants: [
        { name: 'Sam Student', role: 'student' },
        { name: 'Tia Teacher', role: 'teacher' },
      ],
    });
    const list = () => within(screen.getByRole('list', { name: 'Participants' }));
    expect(list().getByText('Tia Teacher')).toBeInTheDocument();
    server.receive(ws, presence('user_joined', 'Luis'));
    expect(list().getByText('Luis')).toBeInTheDocument();
    expect(within(log()).getByText(ChatLiveMessages.userJoined('Luis'))).toBeInTheDocument();
    server.receive(ws, presence('user_left', 'Tia Teacher', 'teacher'));
    expect(list().queryByText('Tia Teacher')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Participants (2)' })).toBeInTheDocument();
  });

  it('Leave closes the connection and clears messages, names and room', async () => {
    const app = await openChat();
    const ws = await joinRoom(app);
    server.receive(ws, message(1, 'hola'));
    await app.user.click(screen.getByRole('button', { name: 'Leave' }));
    expect(ws.sentOfType('leave')).toEqual([{ type: 'leave', chatroom: ROOM_ID }]);
    expect(ws.closedByClient).toBe(1000);
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
    expect(screen.queryByText('hola')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Chatroom')).toHaveValue('');
    expect(screen.getByLabelText('Your name')).toHaveValue('');
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('moves focus to the composer on joining and back to the room picker on leaving (keyboard users)', async () => {
    const app = await openChat();
    await joinRoom(app);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus());
    await app.user.keyboard('{Shift>}{Tab}{/Shift}');
    await app.user.keyboard('{Enter}');
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Chatroom')).toHaveFocus());
  });

  it('a name clash shows the spec toast for 10 s and returns to not joined', async () => {
    const app = await openChat();
    await app.user.selectOptions(screen.getByLabelText('Chatroom'), 'Spanish 1');
    await app.user.click(screen.getByRole('button', { name: 'Join' }));
    const ws = FakeWebSocket.last;
    server.open(ws);
    await waitFor(() => expect(ws.sentOfType('join')).toHaveLength(1));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.receive(ws, rejected('name_taken'));
    const text = ChatLiveMessages.nameTaken('Sam Student');
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join' })).toBeEnabled();
    act(() => vi.advanceTimersByTime(9_999));
    expect(screen.getByText(text)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText(text)).not.toBeInTheDocument();
  });

  it('says Connection failed when the first connection cannot be made', async () => {
    const app = await openChat();
    await app.user.selectOptions(screen.getByLabelText('Chatroom'), 'Spanish 1');
    await app.user.click(screen.getByRole('button', { name: 'Join' }));
    server.drop(FakeWebSocket.last, 1006);
    expect((await screen.findAllByText(ChatLiveMessages.connectionFailed)).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Join' })).toBeEnabled();
  });

  it('reconnects after a drop with since and resume, shows Reconnecting…, and merges the replay without duplicates', async () => {
    const app = await openChat();
    const shown = [
      { name: 'Sam Student', role: 'student' as const },
      { name: 'Tia Teacher', role: 'teacher' as const },
    ];
    const first = await joinRoom(app, { seq: 0, resume: 'tok-1', participants: shown });
    server.receive(first, message(1, 'uno'), message(2, 'dos'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.drop(first, 1006);
    expect(screen.getAllByText('Reconnecting…').length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Message')).toBeDisabled();
    expect(messageTexts()).toEqual(['uno', 'dos']);
    act(() => vi.advanceTimersByTime(500));
    const second = FakeWebSocket.last;
    expect(second).not.toBe(first);
    server.open(second);
    act(() => vi.advanceTimersByTime(100));
    expect(second.sentOfType('join')).toEqual([
      {
        type: 'join',
        name: 'Sam Student',
        role: 'student',
        chatroom: ROOM_ID,
        since: 2,
        resume: 'tok-1',
        roster: chatRosterDigestOf(shown),
      },
    ]);
    // The digest matched: joined comes without the list, and the one shown stays.
    const { participants: _same, ...withoutList } = joined({ seq: 3, resume: 'tok-2' });
    server.receive(
      second,
      withoutList,
      message(2, 'dos'),
      message(3, 'tres'),
      presence('user_joined', 'Sam Student'),
    );
    expect(
      within(screen.getByRole('list', { name: 'Participants' })).getByText('Tia Teacher'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Reconnecting…')).not.toBeInTheDocument();
    expect(screen.getByText('Connected')).toBeInTheDocument();
    expect(messageTexts()).toEqual(['uno', 'dos', 'tres']);
    expect(screen.getByLabelText('Message')).toBeEnabled();
  });

  it('1012 reconnects within 0.5 s; 4404 ends with the room closed message', async () => {
    const app = await openChat();
    const first = await joinRoom(app);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.drop(first, 1012);
    expect(screen.getByText(ChatLiveMessages.reconnecting)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(500));
    const second = FakeWebSocket.last;
    expect(second).not.toBe(first);
    server.open(second);
    act(() => vi.advanceTimersByTime(100));
    server.receive(second, joined());
    server.drop(second, 4404);
    expect(screen.getAllByText(ChatLiveMessages.roomClosed).length).toBeGreaterThan(0);
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(60_000));
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('warns that the connection is lost when reconnecting gives up', async () => {
    const app = await openChat();
    const first = await joinRoom(app);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.drop(first, 1006);
    for (let i = 0; i < 12; i++) {
      act(() => vi.advanceTimersByTime(10_000));
      server.drop(FakeWebSocket.last, 1006);
    }
    expect(screen.getAllByText(ChatLiveMessages.connectionLost).length).toBeGreaterThan(0);
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
  });

  it('says why when the account has the chat open in too many tabs (4429), and does not retry', async () => {
    const app = await openChat();
    await app.user.selectOptions(screen.getByLabelText('Chatroom'), 'Spanish 1');
    await app.user.click(screen.getByRole('button', { name: 'Join' }));
    const ws = FakeWebSocket.last;
    server.open(ws);
    const text = ChatLiveMessages.tooManyConnections(3);
    server.receive(ws, { type: 'notice', code: 'too_many_connections', text });
    server.drop(ws, 4429);
    // Said once (the notice is not a toast of its own), by the server's words, not as a failed connection.
    expect((await screen.findAllByText(text)).length).toBeGreaterThan(0);
    expect(screen.queryByText(ChatLiveMessages.connectionFailed)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join' })).toBeEnabled();
    await new Promise((r) => setTimeout(r, 700));
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('says why a join was refused for joining too often or while muted', async () => {
    for (const [reason, text] of [
      ['rate_limited', ChatLiveMessages.joinRateLimited],
      ['muted', ChatLiveMessages.mutedJoin('2026-12-07T14:00:00.000Z')],
    ] as const) {
      const app = await openChat();
      await app.user.selectOptions(screen.getByLabelText('Chatroom'), 'Spanish 1');
      await app.user.click(screen.getByRole('button', { name: 'Join' }));
      const ws = FakeWebSocket.last;
      server.open(ws);
      await waitFor(() => expect(ws.sentOfType('join')).toHaveLength(1));
      server.receive(ws, { ...rejected(reason), text });
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Join' })).toBeEnabled();
      app.unmount();
    }
  });

  it('shows server notices as toasts', async () => {
    const app = await openChat();
    const ws = await joinRoom(app);
    server.receive(ws, {
      type: 'notice',
      code: 'rate_limited',
      text: ChatLiveMessages.rateLimited,
      retryAfterMs: 1000,
    });
    expect(await screen.findByText(ChatLiveMessages.rateLimited)).toBeInTheDocument();
  });

  it('offers no moderation to people who cannot moderate', async () => {
    const app = await openChat();
    const ws = await joinRoom(app, {
      canModerate: false,
      participants: [
        { name: 'Sam Student', role: 'student' },
        { name: 'Luis', role: 'student' },
      ],
    });
    server.receive(ws, message(1, 'hola', 'Luis', 'student'));
    expect(screen.queryByRole('button', { name: /Remove message/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Slow mode')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Mute Luis')).not.toBeInTheDocument();
  });

  it('lets moderators remove messages, mute participants and set slow mode', async () => {
    const app = await openChat(personas.teacher());
    const ws = await joinRoom(app, {
      name: 'Tia Teacher',
      role: 'teacher',
      canModerate: true,
      participants: [
        { name: 'Tia Teacher', role: 'teacher' },
        { name: 'Luis', role: 'student' },
      ],
    });
    server.receive(ws, message(7, 'spam', 'Luis', 'student'), message(8, 'bien', 'Luis', 'student'));
    await app.user.click(screen.getAllByRole('button', { name: 'Remove message from Luis' })[0]);
    expect(ws.sentOfType('remove')).toEqual([{ type: 'remove', seq: 7, chatroom: ROOM_ID }]);
    server.receive(ws, { type: 'message_removed', chatroom: ROOM_ID, seq: 7, id: 'msg-7' });
    expect(messageTexts()).toEqual(['bien']);

    expect(screen.queryByLabelText('Mute Tia Teacher')).not.toBeInTheDocument();
    await app.user.selectOptions(screen.getByLabelText('Mute Luis'), '5 minutes');
    expect(ws.sentOfType('mute')).toEqual([{ type: 'mute', name: 'Luis', minutes: 5, chatroom: ROOM_ID }]);
    expect(
      within(screen.getByLabelText('Mute Luis'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Mute…', '1 minute', '5 minutes', '10 minutes', '30 minutes', 'Unmute']);

    const slow = screen.getByLabelText('Slow mode');
    expect(
      within(slow)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Off', '5 seconds', '10 seconds', '30 seconds', '60 seconds']);
    await app.user.selectOptions(slow, '30 seconds');
    expect(ws.sentOfType('slow_mode')).toEqual([{ type: 'slow_mode', seconds: 30, chatroom: ROOM_ID }]);
    server.receive(ws, { type: 'slow_mode', chatroom: ROOM_ID, seconds: 30, name: 'Tia Teacher' });
    expect(slow).toHaveValue('30');
    expect(within(log()).getByText(ChatLiveMessages.slowMode(30))).toBeInTheDocument();
  });

  it('students see that only teachers can export, and no Export PDF button', async () => {
    const app = await openChat();
    await joinRoom(app);
    expect(screen.queryByRole('button', { name: 'Export PDF' })).not.toBeInTheDocument();
    expect(screen.getByText(ChatLiveMessages.onlyTeachersExport)).toBeInTheDocument();
  });

  it('teachers export the conversation, or hear why not', async () => {
    const app = await openChat(personas.teacher());
    const ws = await joinRoom(app, { name: 'Tia Teacher', role: 'teacher', canModerate: true });
    await app.user.click(screen.getByRole('button', { name: 'Export PDF' }));
    expect(await screen.findByText(ChatLiveMessages.noMessagesToExport)).toBeInTheDocument();
    expect(exportChatPdf).not.toHaveBeenCalled();

    server.receive(ws, message(1, '¿Qué tal?', 'Íñigo', 'student'));
    exportChatPdf.mockResolvedValueOnce(undefined);
    await app.user.click(screen.getByRole('button', { name: 'Export PDF' }));
    expect(await screen.findByText(ChatLiveMessages.exportSucceeded)).toBeInTheDocument();
    expect(exportChatPdf).toHaveBeenCalledWith(
      expect.objectContaining({
        roomName: 'Spanish 1',
        messages: [expect.objectContaining({ name: 'Íñigo', role: 'student', text: '¿Qué tal?' })],
      }),
    );

    exportChatPdf.mockRejectedValueOnce(new Error('font failed'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await app.user.click(screen.getByRole('button', { name: 'Export PDF' }));
    expect(await screen.findByText(ChatLiveMessages.exportFailed)).toBeInTheDocument();
  });

  it('says so when no room is available', async () => {
    await renderApp('/listen-to-type', {
      user: personas.student(),
      setup: (f) => f.on('GET', '/api/chatrooms', { json: [] }),
    });
    expect(await screen.findByText('No chatrooms are available to you yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join' })).toBeDisabled();
  });
});
