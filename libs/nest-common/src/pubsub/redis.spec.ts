import Redis from 'ioredis';
import { REDIS_URL, uniqueToken, waitFor } from '../bus/test-support';
import { RedisEphemeralStore } from './redis-ephemeral.store';
import { RedisPubSub } from './redis.pubsub';

describe('Redis adapters with a caller-owned client', () => {
  const prefix = `test:${uniqueToken()}:`;
  let client: Redis;

  beforeAll(() => {
    client = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  });

  it('uses the given client for commands and leaves it open on close', async () => {
    const store = new RedisEphemeralStore(client, { prefix });
    await store.set('k', 'v');
    expect(await client.get(`${prefix}k`)).toBe('v');
    await store.close();
    expect(store.isReady()).toBe(false);
    expect(await client.ping()).toBe('PONG');
  });

  it('subscribes on its own connection, so the shared client still runs commands', async () => {
    const pubsub = new RedisPubSub(client, { prefix });
    const got: string[] = [];
    await pubsub.subscribe('chan', (m) => got.push(m));
    // The caller's client is not in subscriber mode: ordinary commands still work on it.
    expect(await client.set(`${prefix}x`, '1')).toBe('OK');
    await client.publish(`${prefix}chan`, 'from outside');
    await waitFor(() => got.length === 1, 'message');
    expect(got).toEqual(['from outside']);
    await pubsub.close();
    expect(await client.ping()).toBe('PONG');
  });

  it('stores a liveness set as a sorted set scored by expiry time', async () => {
    const store = new RedisEphemeralStore(client, { prefix });
    const before = Date.now();
    await store.addMember('names', 'ada', 60_000);
    const [member, score] = await client.zrange(`${prefix}names`, 0, -1, 'WITHSCORES');
    expect(member).toBe('ada');
    // Scored by the Redis clock, which on this machine is the test's clock.
    expect(Number(score)).toBeGreaterThanOrEqual(before + 60_000 - 1_000);
    expect(Number(score)).toBeLessThanOrEqual(Date.now() + 60_000 + 1_000);
    await store.close();
  });
});
