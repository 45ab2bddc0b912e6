import { randomUUID } from 'node:crypto';
import { ChatCloseCodes, ChatLiveMessages } from '@district/contracts';
import { SessionStateStore } from '@district/nest-common';
import { LiveKeys } from '../../src/live-channels';
import type { LiveConnection } from '../../src/live/live-connection';
import type { LiveConfig } from '../../src/live/live.config';
import { Liveness } from '../../src/live/liveness';
import { RoomDelivery } from '../../src/live/room-delivery';
import { textFrame } from '../../src/live/live-connection';
import {
  capturedLogger,
  fakeClient,
  liveConfig,
  membershipOf,
  namesIn,
  personOf,
  redisParts,
  waitFor,
  type FakeClient,
} from './parts-bench';

const parts = redisParts();

function livenessOver(overrides: Partial<LiveConfig> = {}) {
  const processId = randomUUID();
  const { logger, lines } = capturedLogger();
  const connections = new Set<LiveConnection>();
  const rooms = new RoomDelivery(parts.pubsub, parts.store, logger);
  const config = liveConfig(overrides);
  const sessions = new SessionStateStore(parts.store);
  const liveness = new Liveness(processId, parts.store, sessions, config, logger, connections, rooms);
  /** A connection of this replica, in the sweeps at `slot`. */
  const connect = (slot: number, person = personOf()): FakeClient => {
    const client = fakeClient(person, (c) => liveness.cutOff(c));
    client.c.slot = slot;
    connections.add(client.c);
    return client;
  };
  return { processId, liveness, rooms, sessions, connect, lines };
}

const seatData = (name: string) => JSON.stringify({ name, role: 'student', userId: randomUUID() });

describe('Liveness', () => {
  it('pings live sockets and drops one that did not answer the last ping', () => {
    const { liveness, connect } = livenessOver({ CHAT_PING_MS: 1000 });
    const answers = connect(0);
    const silent = connect(1);
    liveness.ping();
    expect([answers.state.pings, silent.state.pings]).toEqual([1, 1]);
    expect(answers.c.alive).toBe(false);
    answers.c.alive = true; // its pong
    liveness.ping();
    expect(answers.state.pings).toBe(2);
    expect(answers.state.terminated).toBe(false);
    expect(silent.state.terminated).toBe(true);
    expect(silent.state.pings).toBe(1);
  });

  it('visits a slice of the sockets a turn, each once a period', () => {
    const { liveness, connect } = livenessOver({ CHAT_PING_MS: 4000 });
    const clients = [0, 1, 2, 3, 4, 5, 6, 7].map((slot) => connect(slot));
    const pinged = () => clients.map((c) => c.state.pings);
    liveness.ping();
    expect(pinged()).toEqual([1, 0, 0, 0, 1, 0, 0, 0]);
    liveness.ping();
    liveness.ping();
    expect(pinged()).toEqual([1, 1, 1, 0, 1, 1, 1, 0]);
    liveness.ping();
    expect(pinged()).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('closes the sockets whose session was signed out or changed, keeps the valid ones, and decides nothing while the state is lost', async () => {
    const { liveness, sessions, connect } = livenessOver({ CHAT_SESSION_CHECK_MS: 1000 });
    const valid = connect(0);
    const signedOut = connect(1);
    const changed = connect(2);
    for (const c of [valid, signedOut, changed]) await sessions.setVersion(c.person.id, 1);
    await sessions.setVersion(changed.person.id, 2);
    await sessions.revokeSession(signedOut.person.sessionId, Date.now() + 60_000);
    // The store lost identity's state (no marker): nobody is closed on a guess.
    await liveness.recheckSessions();
    expect([valid, signedOut, changed].map((c) => c.closes.length)).toEqual([0, 0, 0]);
    await sessions.markRestored();
    await liveness.recheckSessions();
    expect(valid.closes).toEqual([]);
    for (const c of [signedOut, changed]) {
      expect(c.closes).toEqual([{ code: ChatCloseCodes.sessionChanged, reason: 'session_changed' }]);
      expect(c.frames).toEqual([
        { type: 'notice', code: 'session_changed', text: ChatLiveMessages.sessionChanged },
      ]);
    }
  });

  it('keeps this replica’s seats held, frees a dead replica’s and tells their rooms, and reads a stale roster again', async () => {
    const { liveness, rooms, processId } = livenessOver({ CHAT_HEARTBEAT_MS: 200 });
    const roomId = randomUUID();
    const names = LiveKeys.names(roomId);
    // Both replicas' heartbeats run out together (this one's comes back with its beat); 2 s leaves room for a
    // loaded machine between the claims and the roster's first read.
    await parts.store.heartbeat(processId, 2000);
    const dead = randomUUID();
    await parts.store.heartbeat(dead, 2000);
    await parts.store.claimSeat(names, 'mine', { process: processId, token: 'a', data: seatData('Mine') });
    await parts.store.claimSeat(names, 'ghost', { process: dead, token: 'b', data: seatData('Ghost') });
    const member = fakeClient();
    member.c.membership = membershipOf(roomId, 'Mine');
    await rooms.enterRoom(roomId, member.c);
    const room = rooms.get(roomId);
    if (!room) throw new Error('entered above');
    // The seats come from a Redis hash, whose order is Redis's (a hashtable's, seeded per server start): compare sets.
    expect(
      namesIn(room.roster)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['Ghost', 'Mine']);

    await waitFor(async () => (await parts.store.seats(names)).length === 0, 'both heartbeats run out');
    await liveness.beat();
    expect((await parts.store.seats(names)).map((s) => s.seat)).toEqual(['mine']);
    const [left] = await member.wait('user_left');
    expect(left).toMatchObject({ name: 'Ghost', chatroom: roomId, text: ChatLiveMessages.userLeft('Ghost') });
    await waitFor(() => namesIn(room.roster).length === 1, 'the ghost off the roster');

    // A seat taken without its event being heard (pub/sub lost it) is mended by the next read, once it is due.
    await parts.store.claimSeat(names, 'quiet', { process: processId, token: 'c', data: seatData('Quiet') });
    room.rosterReadAt = Date.now();
    await liveness.beat();
    expect(namesIn(room.roster).map((p) => p.name)).toEqual(['Mine']);
    room.rosterReadAt = Date.now() - liveConfig().CHAT_ROSTER_REFRESH_MS;
    await liveness.beat();
    expect(
      namesIn(room.roster)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['Mine', 'Quiet']);
    rooms.exitRoom(roomId, member.c);
  });

  it('cuts off a client too slow to read: closed with 4408 and dropped a second later', () => {
    jest.useFakeTimers();
    try {
      const { connect, lines } = livenessOver();
      const slow = connect(0);
      slow.ws.bufferedAmount = liveConfig().CHAT_SEND_BUFFER_MAX_BYTES + 1;
      slow.c.sendFrame(textFrame('{"type":"x"}'));
      expect(slow.frames).toEqual([]);
      expect(slow.closes).toEqual([{ code: ChatCloseCodes.tooSlow, reason: 'too slow' }]);
      expect(slow.c.closing).toBe(true);
      expect(lines.some((l) => l.msg === 'chat client too slow, cut off')).toBe(true);
      jest.advanceTimersByTime(1000);
      expect(slow.state.terminated).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('runs the pings by itself once started, until its timers are cleared', async () => {
    const { liveness, connect } = livenessOver({ CHAT_PING_MS: 100, CHAT_SESSION_CHECK_MS: 60_000 });
    const silent = connect(0);
    const timers = liveness.start();
    try {
      expect(timers).toHaveLength(3);
      await waitFor(() => silent.state.terminated, 'the silent socket dropped');
    } finally {
      for (const t of timers) clearInterval(t);
    }
  });
});
