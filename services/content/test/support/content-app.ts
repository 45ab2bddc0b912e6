import { randomUUID } from 'node:crypto';
import {
  SESSION_COOKIE,
  SessionStateStore,
  startService,
  TokenService,
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
import { defineContentService } from '../../src';
import { HttpClient } from '@district/nest-common/testing';

export const PERSONAS = ['anonymous', 'pending', 'student', 'teacher', 'admin'] as const;
export type Persona = (typeof PERSONAS)[number];

export interface TestPerson {
  id: string;
  name: string;
  persona: Persona;
}

export interface ContentTestOptions {
  demo?: boolean;
  /** The service's environment (e.g. `CONTENT_COMMENT_RATE_PER_ADDRESS`). */
  env?: NodeJS.ProcessEnv;
}

/** Token claims that differ from the persona's, e.g. a self-registered teacher not yet approved. */
export interface TokenOverrides {
  role?: 'student' | 'teacher';
  approved?: boolean;
  isAdmin?: boolean;
}

export interface ContentTestApp {
  url: string;
  schema: string;
  runtime: PlatformRuntime & { dispose(): Promise<void> };
  service: RunningService;
  dataSource: DataSource;
  /** A client with its own cookie jar; the public URL is routed to the service, as by the gateway. */
  client(): HttpClient;
  /**
   * A client signed in as a new person of that kind, with a token signed by the runtime's keys exactly as
   * identity would sign it (content never signs tokens itself).
   */
  signIn(
    persona: Persona,
    person?: Partial<TestPerson> & TokenOverrides,
  ): Promise<{ client: HttpClient; person: TestPerson }>;
  close(): Promise<void>;
}

let counter = 0;

/** Boots the real content module on the real database, in a throwaway schema, on a loopback port. */
export async function startContent(options: ContentTestOptions = {}): Promise<ContentTestApp> {
  const schema = uniqueSchema('content');
  const runtime = createTestRuntime({ demo: options.demo ?? false, env: options.env ?? {} });
  const service = await startService(defineContentService({ schema }), runtime, {
    port: 0,
    host: '127.0.0.1',
  });
  const tokens = new TokenService(runtime.keys);
  // Identity's part in the shared session state: the store is restored, and each signed-in person has a version.
  const sessions = new SessionStateStore(runtime.store);
  await sessions.markRestored();
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
      counter++;
      const person: TestPerson = {
        id: overrides.id ?? randomUUID(),
        name: overrides.name ?? `${persona} ${counter}`,
        persona,
      };
      const browser = client();
      if (persona === 'anonymous') return { client: browser, person };
      const { token } = await tokens.sign({
        sub: person.id,
        tv: 1,
        role: overrides.role ?? (persona === 'teacher' || persona === 'admin' ? 'teacher' : 'student'),
        approved: overrides.approved ?? persona !== 'pending',
        isAdmin: overrides.isAdmin ?? persona === 'admin',
        name: person.name,
        username: `user${counter}`,
        email: `user${counter}@school.test`,
      });
      await sessions.setVersion(person.id, 1);
      browser.jar.set(browser.baseUrl, SESSION_COOKIE, token);
      return { client: browser, person };
    },
    async close() {
      await service.close();
      await runtime.dispose();
      await dropSchema(TEST_DATABASE_URL, schema);
    },
  };
}
