import Redis from 'ioredis';
import { REDIS_URL, uniqueToken, waitFor } from '../bus/test-support';
import { openRedis } from './redis-connection';
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

describe('connections the adapters open themselves', () => {
  const prefix = `test:${uniqueToken()}:`;

  /** Counts the writes a connection's socket hands the kernel while `run` is in progress. */
  async function socketWritesDuring(client: Redis, run: () => Promise<unknown>): Promise<number> {
    await client.ping();
    type Writes = { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
    const socket = (client as unknown as { stream: Writes }).stream;
    const { _write, _writev } = socket;
    let writes = 0;
    socket._write = (...args: unknown[]) => {
      writes += 1;
      _write.apply(socket, args);
    };
    socket._writev = (...args: unknown[]) => {
      writes += 1;
      _writev.apply(socket, args);
    };
    try {
      await run();
    } finally {
      Object.assign(socket, { _write, _writev });
    }
    return writes;
  }

  it('send one event-loop turn’s commands in one write, answered in order', async () => {
    const { client, owned } = openRedis(REDIS_URL);
    expect(owned).toBe(true);
    try {
      const keys = Array.from({ length: 50 }, (_, i) => `${prefix}k${i}`);
      let answers: unknown[] = [];
      const writes = await socketWritesDuring(client, async () => {
        answers = await Promise.all(keys.map((k, i) => client.set(k, String(i)).then(() => client.get(k))));
      });
      expect(answers).toEqual(keys.map((_, i) => String(i)));
      // 50 SETs in one turn, then the 50 GETs their answers started (a write per command would be 100).
      expect(writes).toBeLessThanOrEqual(4);
      // A lone command still goes out, in its own turn.
      expect(await client.get(keys[7])).toBe('7');
      await client.del(...keys);
    } finally {
      await client.quit();
    }
  });

  it('coalesce again on the socket of a reconnection', async () => {
    const { client } = openRedis(REDIS_URL);
    try {
      await client.ping();
      client.disconnect(true);
      await new Promise<void>((resolve) => client.once('ready', () => resolve()));
      const writes = await socketWritesDuring(client, () =>
        Promise.all(Array.from({ length: 20 }, () => client.ping())),
      );
      expect(writes).toBeLessThanOrEqual(2);
    } finally {
      await client.quit();
    }
  });
});
