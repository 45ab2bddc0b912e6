import { startService, type PlatformRuntime, type RunningService } from '@district/nest-common';
import {
  createTestRuntime,
  dropSchema,
  HttpClient,
  TEST_DATABASE_URL,
  TestSessions,
  uniqueSchema,
  type Persona,
  type TestPerson,
  type TokenOverrides,
} from '@district/nest-common/testing';
import { DataSource } from 'typeorm';
import { defineChatService } from '../../src';

export interface ChatTestOptions {
  demo?: boolean;
}

export interface ChatTestApp {
  url: string;
  schema: string;
  runtime: PlatformRuntime & { dispose(): Promise<void> };
  service: RunningService;
  dataSource: DataSource;
  /** A client with its own cookie jar; the public URL is routed to the service, as by the gateway. */
  client(): HttpClient;
  /**
   * A client signed in as a new person of that kind, with a token signed by the runtime's keys exactly as
   * identity would sign it (chat never signs tokens itself).
   */
  signIn(
    persona: Persona,
    person?: Partial<TestPerson> & TokenOverrides,
  ): Promise<{ client: HttpClient; person: TestPerson }>;
  close(): Promise<void>;
}

/** Boots the real chat module on the real database, in a throwaway schema, on a loopback port. */
export async function startChat(options: ChatTestOptions = {}): Promise<ChatTestApp> {
  const schema = uniqueSchema('chat');
  const runtime = createTestRuntime({ demo: options.demo ?? false });
  const service = await startService(defineChatService({ schema }), runtime, {
    port: 0,
    host: '127.0.0.1',
  });
  // Identity's part: tokens signed with the runtime's keys, and the shared session state they are checked against.
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
      await dropSchema(TEST_DATABASE_URL, schema);
    },
  };
}
