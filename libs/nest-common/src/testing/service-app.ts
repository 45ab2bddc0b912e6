import { DataSource } from 'typeorm';
import { startService, type RunningService } from '../app/create-service-app';
import type { PlatformRuntime, ServiceDefinition } from '../runtime/runtime';
import { dropSchema } from '../database/database';
import { HttpClient } from './http-client';
import { TestSessions, type Persona, type TestPerson, type TokenOverrides } from './test-sessions';
import { createTestRuntime, TEST_DATABASE_URL, uniqueSchema } from './index';

export interface TokenServiceTestOptions {
  demo?: boolean;
  /** The service's environment (e.g. `CONTENT_COMMENT_RATE_PER_ADDRESS`). */
  env?: NodeJS.ProcessEnv;
  /**
   * Another replica's schema: this app shares its tables (and leaves dropping them to the replica that made
   * them). Pair with `runtime` adapters on one shared backend (Redis) for a second replica of a service.
   */
  schema?: string;
  /** Adapters replacing the in-memory ones (e.g. Redis pub/sub and store shared by two replicas). */
  runtime?: Partial<Omit<PlatformRuntime, 'env' | 'demo'>>;
  /** Rounds of the service's warm-up before it listens, as the launcher runs for a replica (default none). */
  warmUpRounds?: number;
}

/** A service that only verifies session tokens (every service but identity), running for a test. */
export interface TokenServiceTestApp {
  url: string;
  schema: string;
  runtime: PlatformRuntime & { dispose(): Promise<void> };
  service: RunningService;
  dataSource: DataSource;
  /** A client with its own cookie jar; the public URL is routed to the service, as by the gateway. */
  client(): HttpClient;
  /**
   * A client signed in as a new person of that kind, with a token signed by the runtime's keys exactly as
   * identity would sign it (the service never signs tokens itself).
   */
  signIn(
    persona: Persona,
    person?: Partial<TestPerson> & TokenOverrides,
  ): Promise<{ client: HttpClient; person: TestPerson }>;
  close(): Promise<void>;
}

/**
 * Boots a service's real module on the real database, in a throwaway schema named after `prefix`, on a loopback
 * port, with identity's part played by the runtime's keys and shared session state (`TestSessions`).
 */
export async function startTokenServiceForTest(
  prefix: string,
  define: (options: { schema: string }) => ServiceDefinition,
  options: TokenServiceTestOptions = {},
): Promise<TokenServiceTestApp> {
  const schema = options.schema ?? uniqueSchema(prefix);
  const runtime = createTestRuntime({
    ...options.runtime,
    demo: options.demo ?? false,
    env: options.env ?? {},
  });
  const service = await startService(define({ schema }), runtime, {
    port: 0,
    host: '127.0.0.1',
    warmUpRounds: options.warmUpRounds,
  });
  const sessions = await TestSessions.open(runtime);
  const client = () =>
    new HttpClient(runtime.publicUrl, {}, { [new URL(runtime.publicUrl).origin]: service.url });
  return {
    url: service.url,
    schema,
    runtime,
    service,
    dataSource: service.app.get(DataSource),
    client,
    async signIn(persona, overrides = {}) {
      const browser = client();
      return { client: browser, person: await sessions.signIn(browser, persona, overrides) };
    },
    async close() {
      await service.close();
      await runtime.dispose();
      if (options.schema === undefined) await dropSchema(TEST_DATABASE_URL, schema);
    },
  };
}
