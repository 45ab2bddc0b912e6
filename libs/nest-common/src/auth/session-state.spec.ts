import { MemoryEphemeralStore } from '../pubsub/memory-ephemeral.store';
import { SessionStateStore } from './session-state';

const ANA = '3f1c2a9e-8b4d-4e6f-9a1b-2c3d4e5f6a7b';
const BETO = '7b6a5f4e-3d2c-4b1a-9f8e-7d6c5b4a3f2e';
const GONE = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

describe('SessionStateStore.checkMany', () => {
  it('gives each token the state check gives it, in order, from one read of the store', async () => {
    const store = new MemoryEphemeralStore();
    const state = new SessionStateStore(store);
    await state.warm({ [ANA]: 3, [BETO]: 1 });
    await state.markDeleted(GONE);
    await state.revokeSession('signed-out', Date.now() + 60_000);
    await state.markRestored();
    const tokens = [
      { userId: ANA, tokenVersion: 3, sid: 'a' },
      { userId: ANA, tokenVersion: 2, sid: 'a-old' },
      { userId: BETO.toUpperCase(), tokenVersion: 1, sid: 'signed-out' },
      { userId: GONE, tokenVersion: 1, sid: 'g' },
      { userId: 'f0f0f0f0-0000-4000-8000-000000000000', tokenVersion: 1, sid: 'n' },
      { userId: BETO, tokenVersion: 1, sid: 'b' },
    ];
    const read = jest.spyOn(store, 'mget');
    const states = await state.checkMany(tokens);
    expect(states).toEqual(['valid', 'stale', 'revoked', 'revoked', 'revoked', 'valid']);
    expect(read).toHaveBeenCalledTimes(1);
    for (const [i, t] of tokens.entries())
      expect(await state.check(t.userId, t.tokenVersion, t.sid)).toBe(states[i]);
    expect(await state.checkMany([])).toEqual([]);
  });

  it('decides nothing while the store has lost its state', async () => {
    const state = new SessionStateStore(new MemoryEphemeralStore());
    await state.warm({ [ANA]: 3 });
    expect(
      await state.checkMany([
        { userId: ANA, tokenVersion: 3, sid: 'a' },
        { userId: BETO, tokenVersion: 1, sid: 'b' },
      ]),
    ).toEqual(['unknown', 'unknown']);
  });
});
