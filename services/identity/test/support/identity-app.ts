import {
  startService,
  type EphemeralStore,
  type PeopleDataParticipant,
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
  /** The registry's people's-data participants identity is told of; the district's (below) by default. */
  peopleData?: readonly PeopleDataParticipant[];
}

/**
 * The district's participants, as the launcher's registry declares them (launcher/src/targets.spec.ts checks
 * `peopleDataParticipants(SERVICES)` against the same list): identity's tests run with the real set of services
 * to ask and to record, their parts played by stand-ins on the bus.
 */
export const DISTRICT_PEOPLE_DATA: readonly PeopleDataParticipant[] = [
  { service: 'content', audit: true, export: true },
  { service: 'chat', audit: true, export: true },
  { service: 'assessment', audit: true, export: true },
  { service: 'classroom', audit: false, export: true },
];
/** The services asked for a part of every export. */
export const EXPORTING_SERVICES = DISTRICT_PEOPLE_DATA.filter((p) => p.export).map((p) => p.service);

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
    peopleData: options.peopleData ?? DISTRICT_PEOPLE_DATA,
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
