import {
  CHAT_PRESENCE_BURST,
  CHAT_PRESENCE_COALESCE_MS,
  CHAT_PRESENCE_INTERVAL_MS,
  CHAT_RATE_MESSAGES,
  CHAT_RATE_WINDOW_MS,
} from '@district/contracts';
import { MemoryEphemeralStore } from '@district/nest-common';
import { AccountLimits } from './account-limits';
import { AccountSockets } from './account-sockets';
import { LiveKeys } from '../live-channels';

function clocked() {
  const clock = { now: 1_000_000 };
  const store = new MemoryEphemeralStore({ now: () => clock.now });
  return { clock, store, limits: new AccountLimits(store) };
}

describe('AccountLimits', () => {
  it('allows an account a burst of 5 messages, then one a second, and says how long to wait', async () => {
    const { clock, limits } = clocked();
    for (let i = 0; i < CHAT_RATE_MESSAGES; i++) expect(await limits.message('ana')).toBe(0);
    const perMessage = CHAT_RATE_WINDOW_MS / CHAT_RATE_MESSAGES;
    expect(await limits.message('ana')).toBe(perMessage);
    // Another account has its own budget.
    expect(await limits.message('beto')).toBe(0);
    clock.now += perMessage - 1;
    expect(await limits.message('ana')).toBe(1);
    clock.now += 1;
    expect(await limits.message('ana')).toBe(0);
  });

  it('never refuses a steady sender at the allowed rate, whatever the jitter of its timer', async () => {
    const { clock, limits } = clocked();
    const perMessage = CHAT_RATE_WINDOW_MS / CHAT_RATE_MESSAGES;
    for (let i = 0; i < 100; i++) {
      clock.now += perMessage + (i % 2 ? 300 : -300);
      expect(await limits.message('ana')).toBe(0);
    }
  });

  it('counts joins and leaves apart from messages', async () => {
    const { clock, limits } = clocked();
    for (let i = 0; i < CHAT_PRESENCE_BURST; i++) expect(await limits.presence('ana')).toBe(0);
    expect(await limits.presence('ana')).toBe(CHAT_PRESENCE_INTERVAL_MS);
    expect(await limits.message('ana')).toBe(0);
    clock.now += CHAT_PRESENCE_INTERVAL_MS;
    expect(await limits.presence('ana')).toBe(0);
  });

  it('announces an account’s arrival in a room once a while, by kind, and again after the while', async () => {
    const { clock, limits } = clocked();
    expect(await limits.announces('room', 'ana', 'user_joined')).toBe(true);
    expect(await limits.announces('room', 'ana', 'user_joined')).toBe(false);
    expect(await limits.announces('room', 'ana', 'user_left')).toBe(true);
    expect(await limits.announces('other', 'ana', 'user_joined')).toBe(true);
    expect(await limits.announces('room', 'beto', 'user_joined')).toBe(true);
    clock.now += CHAT_PRESENCE_COALESCE_MS;
    expect(await limits.announces('room', 'ana', 'user_joined')).toBe(true);
  });
});

describe('AccountSockets', () => {
  it('admits an account’s sockets up to the cap, across replicas, and frees a place on release', async () => {
    const store = new MemoryEphemeralStore();
    await store.heartbeat('one', 60_000);
    await store.heartbeat('two', 60_000);
    const one = new AccountSockets(store, 'one', 3);
    const two = new AccountSockets(store, 'two', 3);
    const sockets = Array.from({ length: 10 }, (_, i) => ({ i }));
    const admitted = await Promise.all(sockets.map((s, i) => (i % 2 ? two : one).admit(s, 'ana')));
    expect(admitted.filter(Boolean)).toHaveLength(3);
    expect(await one.admit({}, 'beto')).toBe(true);
    expect(await one.admit({}, 'ana')).toBe(false);
    const first = sockets[admitted.indexOf(true)];
    await (sockets.indexOf(first) % 2 ? two : one).release(first);
    expect(await two.admit({}, 'ana')).toBe(true);
    expect(await two.admit({}, 'ana')).toBe(false);
  });

  it('never admits beyond the cap, however the arrivals of one account interleave (the same millisecond, clocks apart)', async () => {
    const store = new MemoryEphemeralStore();
    await store.heartbeat('one', 60_000);
    await store.heartbeat('two', 60_000);
    const replicas = [new AccountSockets(store, 'one', 2), new AccountSockets(store, 'two', 2)];
    for (let round = 0; round < 50; round++) {
      const group = `round-${round}`;
      const sockets = Array.from({ length: 6 }, () => ({}));
      const admitted = await Promise.all(sockets.map((s, i) => replicas[i % 2]!.admit(s, group)));
      expect(admitted.filter(Boolean)).toHaveLength(2);
      // One leaves; from then on only one more at a time may come in, whoever asks.
      const leaving = sockets[admitted.indexOf(true)]!;
      await Promise.all(replicas.map((r) => r.release(leaving)));
      const again = await Promise.all([
        replicas[1]!.admit({}, group),
        replicas[0]!.admit({}, group),
        replicas[1]!.admit({}, group),
      ]);
      expect(again.filter(Boolean)).toHaveLength(1);
      expect(await store.seats(LiveKeys.sockets(group)).then((s) => s.length)).toBeLessThanOrEqual(2);
    }
  });
});
