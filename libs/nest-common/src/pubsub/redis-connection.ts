import Redis from 'ioredis';

/** A URL (we own and close the connection) or a client the caller owns. */
export type RedisConnection = string | Redis;

export function openRedis(connection: RedisConnection): { client: Redis; owned: boolean } {
  if (typeof connection !== 'string') return { client: connection, owned: false };
  return {
    client: new Redis(connection, {
      // Fail a command after a few reconnect attempts instead of queueing it for long: callers (rate limits,
      // presence) would rather get an error than hang while Redis is down.
      maxRetriesPerRequest: 3,
    }),
    owned: true,
  };
}

/** Closing an already broken connection must not fail shutdown. */
export async function quietly(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch {
    // The connection is gone either way.
  }
}
