import {
  startService,
  type EphemeralStore,
  type PlatformRuntime,
  type RunningService,
} from '@district/nest-common';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  uniqueSchema,
} from '@district/nest-common/testing';
import { DataSource } from 'typeorm';
import { defineIdentityService } from '../../src';
import { HttpClient } from '@district/nest-common/testing';

export interface IdentityTestOptions {
  demo?: boolean;
  env?: NodeJS.ProcessEnv;
  publicUrl?: string;
  /** Reuse a schema (restart tests); by default each app gets a fresh one. */
  schema?: string;
  /** Leave the schema behind on close (a restart test drops it itself). */
  keepSchema?: boolean;
  /** Another shared store than the in-memory one (e.g. Redis); closed with the app. */
  store?: EphemeralStore;
}

export interface IdentityTestApp {
  url: string;
  schema: string;
  runtime: PlatformRuntime;
  service: RunningService;
  dataSource: DataSource;
  /** A client with its own cookie jar, like one browser; the public URL is routed to the service. */
  client(defaultHeaders?: Record<string, string>): HttpClient;
  close(): Promise<void>;
}

/** Boots the real identity module on the real database, in a throwaway schema, listening on a loopback port. */
export async function startIdentity(options: IdentityTestOptions = {}): Promise<IdentityTestApp> {
  const schema = options.schema ?? uniqueSchema('identity');
  const runtime = createTestRuntime({
    demo: options.demo ?? false,
    env: options.env ?? {},
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.store ? { store: options.store } : {}),
  });
  const service = await startService(defineIdentityService({ schema }), runtime, {
    port: 0,
    host: '127.0.0.1',
  });
  return {
    url: service.url,
    schema,
    runtime,
    service,
    dataSource: service.app.get(DataSource),
    // Requests go to the public address, as from a browser, and are routed to the service as by the gateway.
    client: (defaultHeaders) =>
      new HttpClient(runtime.publicUrl, defaultHeaders, { [new URL(runtime.publicUrl).origin]: service.url }),
    async close() {
      await service.close();
      await runtime.dispose();
      if (!options.keepSchema) await dropSchema(TEST_DATABASE_URL, schema);
    },
  };
}
