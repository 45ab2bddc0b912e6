import { generateKeyPairSync, randomBytes } from 'node:crypto';
import pino from 'pino';
import { InProcessBus } from '../bus';
import { MemoryEphemeralStore, MemoryPubSub } from '../pubsub';
import { dropSchema } from '../database/database';
import type { PlatformRuntime } from '../runtime/runtime';

export const TEST_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A throwaway schema name, unique per test file run, so suites can run side by side. */
export function uniqueSchema(prefix: string): string {
  return `${prefix}_t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`.toLowerCase();
}

let cachedKeys: { publicKeyPem: string; privateKeyPem: string } | undefined;
export function testKeys(): { publicKeyPem: string; privateKeyPem: string } {
  if (!cachedKeys) {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    cachedKeys = {
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
  }
  return cachedKeys;
}

/** A standalone-style runtime (in-process bus and store) on the real test database. */
export function createTestRuntime(
  overrides: Partial<PlatformRuntime> = {},
): PlatformRuntime & { dispose(): Promise<void> } {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const runtime: PlatformRuntime = {
    mode: 'standalone',
    databaseUrl: TEST_DATABASE_URL,
    bus: new InProcessBus({ logger }),
    pubsub: new MemoryPubSub(),
    store: new MemoryEphemeralStore(),
    keys: testKeys(),
    logger,
    demo: false,
    publicUrl: 'http://localhost:3000',
    env: {},
    // No other service holds people's data unless the test says so (identity asks nobody for an export).
    peopleData: [],
    ...overrides,
  };
  return {
    ...runtime,
    // Adapters passed in belong to the caller (e.g. shared by two replicas); only those made here are closed.
    async dispose() {
      if (!overrides.bus) await runtime.bus.close();
      if (!overrides.pubsub) await runtime.pubsub.close();
      if (!overrides.store) await runtime.store.close();
    },
  };
}

export { dropSchema };
export * from './http-client';
export * from './raw-http';
export { sleep, waitFor, REDIS_URL, uniqueToken } from '../bus/test-support';
export * from './openapi-check';
export * from './test-sessions';
export * from './authz-matrix';
export * from './service-app';
export * from './captured-logger';
export * from './roster';
export * from './roster-snapshots';
