import Redis from 'ioredis';
import { REDIS_URL, uniqueToken } from '../bus/test-support';
import { MemoryEphemeralStore } from './memory-ephemeral.store';
import { MemoryPubSub } from './memory.pubsub';
import { describeEphemeralStoreContract, describePubSubContract } from './pubsub.contract';
import { RedisEphemeralStore } from './redis-ephemeral.store';
import { RedisPubSub } from './redis.pubsub';

// In one process every "replica" shares one instance per namespace, which is what standalone mode does.
const memoryPubSubs = new Map<string, MemoryPubSub>();
describePubSubContract('MemoryPubSub', async (namespace) => {
  let hub = memoryPubSubs.get(namespace);
  if (!hub) {
    hub = new MemoryPubSub();
    memoryPubSubs.set(namespace, hub);
  }
  return hub;
});

const memoryStores = new Map<string, MemoryEphemeralStore>();
describeEphemeralStoreContract('MemoryEphemeralStore', async (namespace) => {
  let store = memoryStores.get(namespace);
  if (!store) {
    store = new MemoryEphemeralStore();
    memoryStores.set(namespace, store);
  }
  return store;
});

// Every key and channel of this run starts with `run`, and is deleted afterwards.
const run = `test:${uniqueToken()}:`;
describePubSubContract(
  'RedisPubSub',
  async (namespace) => new RedisPubSub(REDIS_URL, { prefix: run + namespace }),
);
describeEphemeralStoreContract(
  'RedisEphemeralStore',
  async (namespace) => new RedisEphemeralStore(REDIS_URL, { prefix: run + namespace }),
);

afterAll(async () => {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${run}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
});
