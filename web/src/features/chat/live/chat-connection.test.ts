import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatLiveMessages } from '@district/contracts/chat';
import { backoffDelay, ChatConnection, chatSocketUrl, type ConnectionStatus } from './chat-connection';
import { joined, message, ROOM_ID } from './chat-events.testing';
import { FakeWebSocket } from './fake-websocket.testing';

/** `random` draws the reconnect jitter: 1 (the default here) waits the whole back-off, 0 half of it. */
function connect(refreshSession: () => Promise<boolean> = async () => true, random: () => number = () => 1) {
  const statuses: ConnectionStatus[] = [];
  const events: unknown[] = [];
  const unsent: string[] = [];
  const conn = new ChatConnection({
    onUnsent: (ref) => unsent.push(ref),
    url: 'ws://school.test/ws',
    target: { chatroom: ROOM_ID, name: 'Sam Student', role: 'student' },
    onEvent: (e) => events.push(e),
    onStatus: (s) => statuses.push(s),
    refreshSession,
    random,
  });
  conn.start();
  return { conn, statuses, events, unsent, last: () => statuses.at(-1) };
}

/** Opens the newest socket, lets the 100 ms join delay pass and answers with `joined`. */
function joinNewest(overrides: Parameters<typeof joined>[0] = {}) {
  const ws = FakeWebSocket.last;
  ws.open();
  vi.advanceTimersByTime(100);
  ws.receive(joined(overrides));
  return ws;
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => vi.useRealTimers());

describe('chatSocketUrl', () => {
  it('uses wss on https pages and ws on http, on the page host', () => {
    expect(chatSocketUrl({ protocol: 'https:', host: 'school.example:8443' })).toBe(
      'wss://school.example:8443/ws',
    );
    expect(chatSocketUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173/ws');
  });
});

describe('ChatConnection', () => {
  it('sends the join 100 ms after the socket opens, with the spec fields only', () => {
    connect();
    const ws = FakeWebSocket.last;
    expect(ws.url).toBe('ws://school.test/ws');
    ws.open();
    vi.advanceTimersByTime(99);
    expect(ws.sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ws.sent).toEqual([{ type: 'join', name: 'Sam Student', role: 'student', chatroom: ROOM_ID }]);
  });

  it('is joined on `joined` and sends frames only then', () => {
    const { conn, last } = connect();
    expect(last()).toEqual({ kind: 'connecting' });
    expect(conn.send({ type: 'message', text: 'hola', chatroom: ROOM_ID })).toBe(false);
    const ws = joinNewest();
    expect(last()).toEqual({ kind: 'joined' });
    expect(conn.send({ type: 'message', text: 'hola', chatroom: ROOM_ID })).toBe(true);
    expect(ws.sentOfType('message')).toEqual([{ type: 'message', text: 'hola', chatroom: ROOM_ID }]);
  });

  it('a first connection that fails stops as failed (Connection failed)', () => {
    const { last } = connect();
    FakeWebSocket.last.drop(1006);
    expect(last()).toEqual({ kind: 'stopped', reason: 'failed' });
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('after a drop rejoins with since = newest seq and resume = the last joined token', () => {
    const { conn, last } = connect();
    const first = joinNewest({ seq: 4, resume: 'tok-A' });
    first.receive(message(5, 'uno'));
    first.receive(message(6, 'dos'));
    expect(conn.lastSeq).toBe(6);
    first.drop(1006);
    expect(last()).toEqual({ kind: 'reconnecting', reason: 'lost', attempt: 1 });
    vi.advanceTimersByTime(499);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = FakeWebSocket.last;
    expect(second).not.toBe(first);
    second.open();
    vi.advanceTimersByTime(100);
    expect(second.sentOfType('join')).toEqual([
      { type: 'join', name: 'Sam Student', role: 'student', chatroom: ROOM_ID, since: 6, resume: 'tok-A' },
    ]);
    second.receive(joined({ seq: 8, resume: 'tok-B' }));
    expect(last()).toEqual({ kind: 'joined' });
    second.receive(message(7, 'tres'));
    second.receive(message(8, 'cuatro'));
    second.drop(1006);
    vi.advanceTimersByTime(500);
    FakeWebSocket.last.open();
    vi.advanceTimersByTime(100);
    expect(FakeWebSocket.last.sentOfType('join')[0]).toMatchObject({ since: 8, resume: 'tok-B' });
  });

  it('rejoins with the roster digest the screen gives, and sends none on the first join', () => {
    const digests = ['d1.a', 'd2.b'];
    const conn = new ChatConnection({
      url: 'ws://school.test/ws',
      target: { chatroom: ROOM_ID, name: 'Sam Student', role: 'student' },
      onEvent: () => undefined,
      onStatus: () => undefined,
      refreshSession: async () => true,
      rosterDigest: () => digests.shift(),
      random: () => 1,
    });
    conn.start();
    const first = joinNewest({ seq: 2, resume: 'tok-A' });
    expect(first.sentOfType('join')[0]).not.toHaveProperty('roster');
    first.drop(1006);
    vi.advanceTimersByTime(500);
    const second = joinNewest({ seq: 2, resume: 'tok-B' });
    expect(second.sentOfType('join')[0]).toMatchObject({ since: 2, resume: 'tok-A', roster: 'd1.a' });
  });

  it('follows the room number down when the server lost its numbering (a rejoin answered with a lower seq)', () => {
    const { conn } = connect();
    const first = joinNewest({ seq: 40 });
    first.receive(message(41, 'antes'));
    first.drop(1012);
    vi.advanceTimersByTime(500);
    FakeWebSocket.last.open();
    vi.advanceTimersByTime(100);
    FakeWebSocket.last.receive(joined({ seq: 0, truncated: true }));
    expect(conn.lastSeq).toBe(0);
    FakeWebSocket.last.receive(message(1, 'después'));
    expect(conn.lastSeq).toBe(1);
  });

  it('starts since at the room number of the first join (no older history is asked for)', () => {
    connect();
    joinNewest({ seq: 40 }).drop(1006);
    vi.advanceTimersByTime(500);
    FakeWebSocket.last.open();
    vi.advanceTimersByTime(100);
    expect(FakeWebSocket.last.sentOfType('join')[0]).toMatchObject({ since: 40 });
  });

  it('backs off up to 0.5 s, 1 s, 2 s … 10 s, each wait drawn from the upper half of that', () => {
    const attempts = [0, 1, 2, 3, 4, 5, 6];
    expect(attempts.map((n) => backoffDelay(n, () => 0))).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    expect(attempts.map((n) => backoffDelay(n, () => 0.5))).toEqual([375, 750, 1500, 3000, 6000, 7500, 7500]);
    expect(attempts.map((n) => backoffDelay(n, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('two clients dropped together come back at different moments', () => {
    connect(undefined, () => 0);
    connect(undefined, () => 0.9);
    const [first, second] = FakeWebSocket.instances;
    for (const ws of [first, second]) {
      ws.open();
      vi.advanceTimersByTime(100);
      ws.receive(joined());
      ws.drop(1006);
    }
    vi.advanceTimersByTime(250);
    expect(FakeWebSocket.instances).toHaveLength(3);
    vi.advanceTimersByTime(224);
    expect(FakeWebSocket.instances).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(4);
  });

  it('backs off through every attempt and gives up with lost', () => {
    const { last } = connect();
    joinNewest().drop(1006);
    let sockets = 1;
    for (let attempt = 0; attempt < 12; attempt++) {
      vi.advanceTimersByTime(backoffDelay(attempt, () => 1) - 1);
      expect(FakeWebSocket.instances).toHaveLength(sockets);
      vi.advanceTimersByTime(1);
      sockets += 1;
      expect(FakeWebSocket.instances).toHaveLength(sockets);
      FakeWebSocket.last.drop(1006);
    }
    expect(last()).toEqual({ kind: 'stopped', reason: 'lost' });
  });

  it('a successful rejoin resets the back-off', () => {
    connect();
    joinNewest().drop(1006);
    vi.advanceTimersByTime(500);
    FakeWebSocket.last.drop(1006);
    vi.advanceTimersByTime(1000);
    joinNewest().drop(1006);
    vi.advanceTimersByTime(499);
    const before = FakeWebSocket.instances.length;
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances.length).toBe(before + 1);
  });

  it('1012 (service restart) reconnects within 0.5 s, at a moment of its own; 4408 (too slow) at once', () => {
    const { last } = connect(undefined, () => 0.5);
    joinNewest().drop(1012);
    expect(last()).toEqual({ kind: 'reconnecting', reason: 'restart', attempt: 1 });
    vi.advanceTimersByTime(249);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    joinNewest().drop(4408);
    expect(last()).toMatchObject({ kind: 'reconnecting', reason: 'slow' });
    vi.advanceTimersByTime(0);
    expect(FakeWebSocket.instances).toHaveLength(3);
  });

  it('4404 stops with room_closed and does not reconnect', () => {
    const { last } = connect();
    joinNewest().drop(4404);
    expect(last()).toEqual({ kind: 'stopped', reason: 'room_closed' });
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('4429 (too many tabs) stops, before or after a join, and does not reconnect', () => {
    const { last } = connect();
    FakeWebSocket.last.drop(4429);
    expect(last()).toEqual({ kind: 'stopped', reason: 'too_many_tabs' });
    const joinedFirst = connect();
    joinNewest().drop(4429);
    expect(joinedFirst.last()).toEqual({ kind: 'stopped', reason: 'too_many_tabs' });
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('4401 asks for the session once: reconnects when it holds', async () => {
    const refresh = vi.fn(async () => true);
    const { last } = connect(refresh);
    joinNewest().drop(4401);
    expect(last()).toMatchObject({ kind: 'reconnecting', reason: 'session' });
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('4401 stops with session when the session is gone, or when it happens again before a join', async () => {
    const gone = connect(async () => false);
    joinNewest().drop(4401);
    await vi.advanceTimersByTimeAsync(0);
    expect(gone.last()).toEqual({ kind: 'stopped', reason: 'session' });
    expect(ChatLiveMessages.sessionChanged).toMatch(/sign in again/);

    FakeWebSocket.reset();
    const refresh = vi.fn(async () => true);
    const again = connect(refresh);
    joinNewest().drop(4401);
    await vi.advanceTimersByTimeAsync(0);
    FakeWebSocket.last.drop(4401);
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(again.last()).toEqual({ kind: 'stopped', reason: 'session' });
  });

  it('join_rejected stops the connection', () => {
    const { last, events } = connect();
    const ws = FakeWebSocket.last;
    ws.open();
    vi.advanceTimersByTime(100);
    ws.receive({
      type: 'join_rejected',
      reason: 'name_taken',
      id: 'x',
      name: 'Sam Student',
      role: 'student',
      text: '',
      timestamp: '',
      chatroom: ROOM_ID,
    });
    expect(events).toHaveLength(1);
    expect(last()).toEqual({ kind: 'stopped', reason: 'rejected' });
    expect(ws.closedByClient).toBe(1000);
  });

  it('leave sends leave, closes the socket and cancels a pending reconnect', () => {
    const { conn, last } = connect();
    const ws = joinNewest();
    conn.leave();
    expect(ws.sentOfType('leave')).toEqual([{ type: 'leave', chatroom: ROOM_ID }]);
    expect(ws.closedByClient).toBe(1000);
    expect(last()).toEqual({ kind: 'stopped', reason: 'left' });

    FakeWebSocket.reset();
    const other = connect();
    joinNewest().drop(1006);
    other.conn.leave();
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('ignores frames that are not JSON objects with a type', () => {
    const { events } = connect();
    const ws = joinNewest();
    ws.dispatchEvent(Object.assign(new Event('message'), { data: 'not json' }));
    ws.dispatchEvent(Object.assign(new Event('message'), { data: '[1,2]' }));
    expect(events).toHaveLength(1);
  });

  describe('messages sent with a ref', () => {
    it('are held until the broadcast brings their ref back', () => {
      const { conn, unsent } = connect();
      const ws = joinNewest();
      const ref = conn.sendMessage('hola');
      expect(ref).toMatch(/^[0-9a-f]{32}$/);
      expect(ws.sentOfType('message')).toEqual([{ type: 'message', text: 'hola', chatroom: ROOM_ID, ref }]);
      expect(conn.unconfirmed).toEqual([ref]);
      ws.receive({ ...message(1, 'hola', 'Sam Student', 'student'), ref });
      expect(conn.unconfirmed).toEqual([]);
      vi.advanceTimersByTime(60_000);
      expect(unsent).toEqual([]);
      expect(conn.sendMessage('again')).not.toBe(ref);
    });

    it('go again after a drop, with the same ref, and are done when the server answers sent', () => {
      const { conn, events, unsent } = connect();
      const ws = joinNewest({ seq: 3 });
      conn.sendMessage('uno', 'ref-uno-0001');
      conn.sendMessage('dos', 'ref-dos-0001');
      ws.drop(1006);
      // Waiting for the rejoin does not count against the message.
      vi.advanceTimersByTime(20_000);
      expect(unsent).toEqual([]);
      const back = joinNewest({ seq: 4 });
      expect(back.sentOfType('message')).toEqual([
        { type: 'message', text: 'uno', chatroom: ROOM_ID, ref: 'ref-uno-0001' },
        { type: 'message', text: 'dos', chatroom: ROOM_ID, ref: 'ref-dos-0001' },
      ]);
      // The first had been appended before the drop: the server says so; the second comes back as a message.
      back.receive({ type: 'sent', chatroom: ROOM_ID, ref: 'ref-uno-0001', seq: 4 });
      back.receive({ ...message(5, 'dos', 'Sam Student', 'student'), ref: 'ref-dos-0001' });
      expect(conn.unconfirmed).toEqual([]);
      expect(events.at(-2)).toMatchObject({ type: 'sent', ref: 'ref-uno-0001' });
      vi.advanceTimersByTime(60_000);
      expect(unsent).toEqual([]);
    });

    it('stay held when the server had the socket out of the room (a replica stopping), and go with the rejoin', () => {
      const { conn, unsent } = connect();
      const ws = joinNewest();
      conn.sendMessage('justo ahora', 'ref-stop-001');
      ws.receive({
        type: 'notice',
        code: 'not_joined',
        text: ChatLiveMessages.notJoined,
        ref: 'ref-stop-001',
      });
      ws.drop(1012);
      expect(unsent).toEqual([]);
      vi.advanceTimersByTime(500);
      const back = joinNewest();
      expect(back.sentOfType('message')).toEqual([
        { type: 'message', text: 'justo ahora', chatroom: ROOM_ID, ref: 'ref-stop-001' },
      ]);
      expect(conn.unconfirmed).toEqual(['ref-stop-001']);
    });

    it('are reported unsent when refused, when not heard back in 10 s, or when the connection ends', () => {
      const { conn, unsent } = connect();
      const ws = joinNewest();
      conn.sendMessage('too fast', 'ref-fast-001');
      ws.receive({
        type: 'notice',
        code: 'rate_limited',
        text: ChatLiveMessages.rateLimited,
        ref: 'ref-fast-001',
      });
      expect(unsent).toEqual(['ref-fast-001']);
      conn.sendMessage('lost', 'ref-lost-001');
      vi.advanceTimersByTime(9_999);
      expect(unsent).toEqual(['ref-fast-001']);
      vi.advanceTimersByTime(1);
      expect(unsent).toEqual(['ref-fast-001', 'ref-lost-001']);
      // Sending it again (the screen's "Send again") holds it anew under the same ref.
      expect(conn.sendMessage('lost', 'ref-lost-001')).toBe('ref-lost-001');
      expect(conn.unconfirmed).toEqual(['ref-lost-001']);
      conn.leave();
      expect(unsent).toEqual(['ref-fast-001', 'ref-lost-001', 'ref-lost-001']);
      expect(conn.sendMessage('after')).toBeNull();
    });
  });
});
