import type { Logger } from 'pino';
import {
  InProcessBus,
  MemoryEphemeralStore,
  MemoryPubSub,
  NatsJetStreamBus,
  RedisEphemeralStore,
  RedisPubSub,
  peopleDataParticipants,
  type PlatformRuntime,
} from '@district/nest-common';
import { startEmbeddedDatabase } from './embedded-database';
import { loadOrCreateKeys } from './keys';
import type { LauncherConfig } from './launcher.config';
import { SERVICES, streamSubjects } from './targets';

export interface BuiltRuntime {
  runtime: PlatformRuntime;
  /** Closes adapters and the embedded database, in reverse order of creation. */
  close(): Promise<void>;
}

/**
 * Chooses the adapters: NATS/Redis/external PostgreSQL when their URLs are given (the cluster),
 * in-process bus and pub/sub and the embedded database otherwise (standalone). Services never know which.
 */
export async function buildRuntime(
  config: LauncherConfig,
  logger: Logger,
  needsDatabase: boolean,
): Promise<BuiltRuntime> {
  const closers: Array<() => Promise<void>> = [];
  try {
    let databaseUrl = config.DATABASE_URL ?? '';
    if (!databaseUrl && needsDatabase) {
      const db = await startEmbeddedDatabase(config.DATA_DIR, logger);
      closers.push(db.stop);
      databaseUrl = db.url;
    }
    const bus = config.NATS_URL
      ? await NatsJetStreamBus.connect({ url: config.NATS_URL, subjects: streamSubjects(), logger })
      : new InProcessBus({ logger });
    closers.push(() => bus.close());
    const store = config.REDIS_URL ? new RedisEphemeralStore(config.REDIS_URL) : new MemoryEphemeralStore();
    closers.push(() => store.close());
    const pubsub = config.REDIS_URL ? new RedisPubSub(config.REDIS_URL) : new MemoryPubSub();
    closers.push(() => pubsub.close());
    const keys = await loadOrCreateKeys(process.env, config.DATA_DIR);
    const runtime: PlatformRuntime = {
      mode: config.NATS_URL ? 'cluster' : 'standalone',
      databaseUrl,
      bus,
      store,
      pubsub,
      keys,
      logger,
      demo: config.demo,
      publicUrl: config.publicUrl,
      env: { ...process.env, DEMO_PASSWORD: config.DEMO_PASSWORD },
      // From the registry, as the gateway's routes: whom identity asks for exports and records audit events of.
      peopleData: peopleDataParticipants(SERVICES),
    };
    return { runtime, close: () => closeAll(closers, logger) };
  } catch (error) {
    await closeAll(closers, logger);
    throw error;
  }
}

async function closeAll(closers: Array<() => Promise<void>>, logger: Logger): Promise<void> {
  for (const close of [...closers].reverse()) {
    try {
      await close();
    } catch (error) {
      logger.warn({ err: error }, 'error while closing');
    }
  }
}
