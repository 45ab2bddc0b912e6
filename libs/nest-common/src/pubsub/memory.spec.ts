import { MemoryEphemeralStore } from './memory-ephemeral.store';
import { MemoryPubSub } from './memory.pubsub';

describe('MemoryPubSub', () => {
  it('never runs handlers inside publish (no re-entrancy), and reports handler errors', async () => {
    const errors: unknown[] = [];
    const pubsub = new MemoryPubSub({ onHandlerError: (err) => errors.push(err) });
    const got: string[] = [];
    await pubsub.subscribe('c', (m) => {
      got.push(m);
      throw new Error('boom');
    });
    await pubsub.publish('c', 'x');
    expect(got).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual(['x']);
    expect(errors).toHaveLength(1);
    await pubsub.close();
  });
});

describe('MemoryEphemeralStore with a fixed clock', () => {
  let now = 1_000_000;
  let store: MemoryEphemeralStore;
  beforeEach(() => {
    now = 1_000_000;
    store = new MemoryEphemeralStore({ now: () => now });
  });
  afterEach(() => store.close());

  it('expires exactly at the TTL', async () => {
    await store.set('k', 'v', 100);
    now += 99;
    expect(await store.get('k')).toBe('v');
    expect(await store.pttl('k')).toBe(1);
    now += 1;
    expect(await store.get('k')).toBeNull();
  });

  it('rounds a sub-millisecond or zero TTL up to 1 ms, as Redis needs a positive one', async () => {
    await store.set('k', 'v', 0);
    expect(await store.pttl('k')).toBe(1);
    await expect(store.set('k', 'v', Number.NaN)).rejects.toThrow(/TTL/);
  });

  it('gives a liveness set the lifetime of its longest-lived member', async () => {
    await store.addMember('s', 'a', 100);
    await store.addMember('s', 'b', 300);
    expect(await store.pttl('s')).toBe(300);
    now += 150;
    expect(await store.members('s')).toEqual(['b']);
    now += 150;
    expect(await store.pttl('s')).toBe(-2);
  });

  it('refuses use after close', async () => {
    await store.close();
    expect(store.isReady()).toBe(false);
    await expect(store.get('k')).rejects.toThrow(/closed/);
  });
});
