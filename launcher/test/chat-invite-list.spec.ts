import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pino from 'pino';
import { defineChatService } from '@district/chat';
import { DEMO_ACCOUNTS, invitableUsersResponseSchema } from '@district/contracts';
import { defineIdentityService } from '@district/identity';
import {
  InProcessBus,
  NatsJetStreamBus,
  startService,
  type BusHandler,
  type BusSubscription,
  type EventBus,
  type PublishOptions,
  type RunningService,
  type SubscribeOptions,
} from '@district/nest-common';
import {
  createTestRuntime,
  dropSchema,
  HttpClient,
  TEST_DATABASE_URL,
  TestSessions,
  uniqueSchema,
} from '@district/nest-common/testing';

/**
 * The chatroom screen's invite list end to end between two services over the real NATS: chat's
 * `GET /api/admin/chatrooms/invitable-users` asks `identity.users.list` (request/reply) and identity's
 * @MessagePattern answers from its database. It lives here because only the launcher may import two services.
 *
 * Each service has its own NATS connection, as two processes would. Requests travel on a prefix of this run's
 * own, so no other identity on this server (a running cluster) can answer them. Events stay in-process: their
 * subjects (`identity.>`, `chat.>`) belong to the one shared stream, and its durables would be shared with
 * whatever else runs against this server; chat's event handling is tested in services/chat.
 */
jest.setTimeout(60_000);

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const run = `chatinvite${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const streamName = run.toUpperCase();
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Requests and replies over NATS; events on an in-process bus of its own. */
class RequestsOverNats implements EventBus {
  private readonly events = new InProcessBus({ logger });

  constructor(private readonly nats: NatsJetStreamBus) {}

  publish(subject: string, data: unknown, options?: PublishOptions): Promise<void> {
    return this.events.publish(subject, data, options);
  }

  subscribe<T = unknown>(
    subject: string,
    handler: BusHandler<T>,
    options: SubscribeOptions,
  ): Promise<BusSubscription> {
    return this.events.subscribe(subject, handler, options);
  }

  request<TReq = unknown, TRes = unknown>(
    subject: string,
    data: TReq,
    timeoutMs?: number,
    headers?: Record<string, string>,
  ): Promise<TRes> {
    return this.nats.request<TReq, TRes>(subject, data, timeoutMs, headers);
  }

  reply<TReq = unknown, TRes = unknown>(
    subject: string,
    handler: (data: TReq, headers: Record<string, string>) => Promise<TRes>,
    queueGroup: string,
  ): Promise<BusSubscription> {
    return this.nats.reply(subject, handler, queueGroup);
  }

  isReady(): boolean {
    return this.nats.isReady() && this.events.isReady();
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.nats.close();
  }
}

const natsBus = async (name: string): Promise<EventBus> =>
  new RequestsOverNats(
    await NatsJetStreamBus.connect({
      url: NATS_URL,
      name,
      streamName,
      subjects: [`${run}.>`],
      requestPrefix: `_rpc${run}`,
      logger,
    }),
  );

/** A started service that closes once, however often it is asked to. */
interface Started {
  close(): Promise<void>;
}

function startedService(service: RunningService, dispose: () => Promise<void>, schema: string): Started {
  let closing: Promise<void> | undefined;
  return {
    close: () =>
      (closing ??= (async () => {
        await service.close();
        await dispose();
        await dropSchema(TEST_DATABASE_URL, schema);
      })()),
  };
}

let identity: Started;
let chat: Started;
/** The two NATS connections: a runtime closes only the adapters it made itself, so these are closed here. */
const buses: EventBus[] = [];
let chatClient: () => HttpClient;
let sessions: TestSessions;

beforeAll(async () => {
  const identitySchema = uniqueSchema('identity');
  const identityBus = await natsBus('identity');
  buses.push(identityBus);
  const identityRuntime = createTestRuntime({ demo: true, bus: identityBus });
  const identityService = await startService(
    defineIdentityService({ schema: identitySchema }),
    identityRuntime,
    {
      port: 0,
      host: '127.0.0.1',
    },
  );
  identity = startedService(identityService, () => identityRuntime.dispose(), identitySchema);

  const chatSchema = uniqueSchema('chat');
  const chatBus = await natsBus('chat');
  buses.push(chatBus);
  const chatRuntime = createTestRuntime({ bus: chatBus });
  const chatService = await startService(defineChatService({ schema: chatSchema }), chatRuntime, {
    port: 0,
    host: '127.0.0.1',
  });
  chat = startedService(chatService, () => chatRuntime.dispose(), chatSchema);
  sessions = await TestSessions.open(chatRuntime);
  chatClient = () =>
    new HttpClient(chatRuntime.publicUrl, {}, { [new URL(chatRuntime.publicUrl).origin]: chatService.url });
});

afterAll(async () => {
  await chat?.close();
  await identity?.close();
  // Left open, they keep jest's worker alive after the file ("failed to exit gracefully").
  for (const bus of buses) await bus.close();
  const nc = await connect({ servers: NATS_URL });
  await (await jetstreamManager(nc)).streams.delete(streamName).catch(() => undefined);
  await nc.close();
});

async function signedInAdmin(): Promise<HttpClient> {
  const admin = chatClient();
  await sessions.signIn(admin, 'admin');
  return admin;
}

it('lists every user identity holds but the administrators, asked over NATS', async () => {
  const res = await (await signedInAdmin()).get('/api/admin/chatrooms/invitable-users');
  expect(res.status).toBe(200);
  const users = invitableUsersResponseSchema.parse(res.body);
  // identity's demo district: the teacher, two students and the pending account, and the people its roster
  // brings (pupils, teachers, school administrators); not the administrator.
  const expected = DEMO_ACCOUNTS.filter((a) => !a.isAdmin);
  const ids = users.map((u) => u.id);
  expect(ids).toEqual(expect.arrayContaining(expected.map((a) => a.id)));
  expect(ids).not.toContain(DEMO_ACCOUNTS.find((a) => a.isAdmin)?.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const account of expected)
    expect(users).toContainEqual({
      id: account.id,
      name: account.name,
      username: account.username,
      role: account.role,
    });
});

it('answers 503 with Retry-After once identity is gone and nobody answers on NATS', async () => {
  await identity.close();
  const res = await (await signedInAdmin()).get('/api/admin/chatrooms/invitable-users');
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('2');
});
