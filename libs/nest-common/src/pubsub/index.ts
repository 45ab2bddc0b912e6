export * from './pubsub.port';
export { MemoryEphemeralStore, type MemoryEphemeralStoreOptions } from './memory-ephemeral.store';
export { MemoryPubSub, type MemoryPubSubOptions } from './memory.pubsub';
export { coalesceWrites, type RedisConnection } from './redis-connection';
export { RedisEphemeralStore, type RedisEphemeralStoreOptions } from './redis-ephemeral.store';
export { RedisPubSub, type RedisPubSubOptions } from './redis.pubsub';
