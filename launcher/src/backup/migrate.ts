import { generateKeyPairSync } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import {
  InProcessBus,
  MemoryEphemeralStore,
  MemoryPubSub,
  createLogger,
  peopleDataParticipants,
  type PlatformRuntime,
  type ServiceDefinition,
} from '@district/nest-common';

/**
 * Creates every service's schema the way the service does at start: its own module is built (which opens its
 * database and runs its migrations under their advisory lock), then closed before it is initialised, so no
 * start-up work runs (demo seeding, the admin account, relays): the restore brings the rows.
 */
export async function runServiceMigrations(
  databaseUrl: string,
  services: readonly ServiceDefinition[],
): Promise<void> {
  const logger = createLogger('restore', 'warn');
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const bus = new InProcessBus({ logger });
  const store = new MemoryEphemeralStore();
  const pubsub = new MemoryPubSub();
  const runtime: PlatformRuntime = {
    mode: 'standalone',
    databaseUrl,
    bus,
    store,
    pubsub,
    // Throwaway keys: nothing is signed here.
    keys: {
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
    logger,
    demo: false,
    publicUrl: 'http://localhost',
    env: {},
    peopleData: peopleDataParticipants(services),
  };
  try {
    for (const service of services) {
      const app = await NestFactory.create(
        service.rootModule(runtime),
        new FastifyAdapter({ logger: false }),
        {
          logger: false,
          abortOnError: false,
        },
      );
      await app.close();
    }
  } finally {
    await bus.close();
    await store.close();
    await pubsub.close();
  }
}
