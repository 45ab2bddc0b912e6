import { Registry } from 'prom-client';
import { MessagingMetrics } from '../../health/messaging-metrics';
import {
  Controller,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { AuthGuard } from '../../auth/auth.guard';
import { SessionStateStore } from '../../auth/session-state';
import { TokenService } from '../../auth/token.service';
import { ErrorFilter } from '../../http/error.filter';
import { PLATFORM_LOGGER } from '../../http/tokens';
import { currentRequestId, runWithRequestId } from '../../logging/request-context';
import { MemoryEphemeralStore } from '../../pubsub';
import { testKeys } from '../../testing';
import type { BusHandler, EventBus } from '../bus.port';
import type { BusLogger } from '../bus-logger';
import { BusRequestError } from '../bus-request.error';
import { InProcessBus } from '../in-process.bus';
import { NatsJetStreamBus } from '../nats-jetstream.bus';
import { InboxService, createMessagingMigrations, messagingEntities } from '../outbox';
import {
  DATABASE_URL,
  NATS_URL,
  PINO_ERROR,
  capturingLogger,
  sleep,
  uniqueToken,
  waitFor,
  type LogRecord,
} from '../test-support';
import { BusContext } from './bus-context';
import { BusTransport, startBusHandlers } from './bus.transport';

// Subjects of this run only (the NATS stream below stores exactly these), with their schemas.
const run = uniqueToken();
const prefix = `transport${run}`;
const NOTE_ADDED = `${prefix}.note.added.v1`;
const SHOUT = `${prefix}.shout.v1`;
const noteSchema = z.object({ text: z.string().min(1), copies: z.number().int().default(1) });
const shoutSchema = z.object({ text: z.string(), times: z.number().int().default(2) });
const schemas = { [NOTE_ADDED]: noteSchema, [SHOUT]: shoutSchema };
const SETTLE_MS = 400;

/** What the handlers saw, and hooks a test sets to make them fail or wait. */
interface Probe {
  seen: Array<{
    via: string;
    note: z.output<typeof noteSchema>;
    id?: string;
    delivery?: number;
    requestId?: string;
  }>;
  order: string[];
  onNote?: (note: z.output<typeof noteSchema>, context: BusContext) => Promise<void>;
}
const PROBE = Symbol('PROBE');
let schema: string;

@Controller()
class NoteHandlers {
  constructor(@Inject(PROBE) private readonly probe: Probe) {}

  @EventPattern<string>(NOTE_ADDED, { durable: 'svc-note-added', retryDelayMs: 50 })
  async added(@Payload() note: z.output<typeof noteSchema>, @Ctx() context: BusContext): Promise<void> {
    const { manager, message } = context;
    await manager.query(`INSERT INTO "${schema}"."effects" (text, copies) VALUES ($1, $2)`, [
      note.text,
      note.copies,
    ]);
    await this.probe.onNote?.(note, context);
    this.probe.seen.push({
      via: 'inbox',
      note,
      id: message?.id,
      delivery: message?.deliveryCount,
      requestId: currentRequestId(),
    });
  }

  // The same subject again: another durable, so another consumer with its own retries and no inbox.
  @EventPattern<string>(NOTE_ADDED, { durable: 'svc-note-audit', inbox: false })
  async audited(note: z.output<typeof noteSchema>): Promise<void> {
    this.probe.seen.push({ via: 'audit', note });
  }

  @MessagePattern(SHOUT)
  async shout(
    @Payload() { text, times }: z.output<typeof shoutSchema>,
    @Ctx() { headers }: BusContext,
  ): Promise<unknown> {
    if (text === 'boom') throw new Error('cannot shout boom');
    return {
      shout: text.toUpperCase().repeat(times),
      requestId: currentRequestId(),
      header: headers['x-request-id'],
    };
  }
}

@Controller()
class MisnamedDurable {
  @EventPattern<string>(NOTE_ADDED, { durable: 'other-note-added' })
  async added(): Promise<void> {}
}

@Controller()
class UnknownSubject {
  @MessagePattern(`${prefix}.unknown.v1`)
  async unknown(): Promise<void> {}
}

@Injectable()
class ShutdownProbe implements OnApplicationShutdown {
  constructor(@Inject(PROBE) private readonly probe: Probe) {}
  onApplicationShutdown(): void {
    this.probe.order.push('shutdown hooks (the database closes here)');
  }
}

/** A bus whose acknowledgements get lost on request: the handler gets the same message again, as after a crash. */
class AckLosingBus implements EventBus {
  loseNextAck = false;
  constructor(private readonly inner: EventBus) {}
  publish: EventBus['publish'] = (...args) => this.inner.publish(...args);
  subscribe: EventBus['subscribe'] = (subject, handler, options) =>
    this.inner.subscribe(
      subject,
      async (message) => {
        await (handler as BusHandler)(message);
        if (this.loseNextAck && options.durable === 'svc-note-added') {
          this.loseNextAck = false;
          await (handler as BusHandler)({ ...message, deliveryCount: message.deliveryCount + 1 });
        }
      },
      options,
    );
  request: EventBus['request'] = (...args) => this.inner.request(...args);
  reply: EventBus['reply'] = (...args) => this.inner.reply(...args);
  isReady = () => this.inner.isReady();
  close = () => this.inner.close();
}

@Module({})
class TestModule {
  static with(
    controllers: DynamicModule['controllers'],
    transport: () => BusTransport,
    probe: Probe,
    logger: BusLogger,
  ): DynamicModule {
    return {
      module: TestModule,
      controllers,
      providers: [
        { provide: PROBE, useValue: probe },
        { provide: BusTransport, useFactory: transport },
        { provide: PLATFORM_LOGGER, useValue: logger },
        { provide: TokenService, useValue: new TokenService(testKeys()) },
        { provide: SessionStateStore, useValue: new SessionStateStore(new MemoryEphemeralStore()) },
        // The platform's global guard and filter, as every service has them.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
        ShutdownProbe,
      ],
    };
  }
}

const streamName = `TRANSPORT_${run.toUpperCase()}`;
const adapters: Array<[string, (logger: BusLogger) => Promise<EventBus>]> = [
  ['InProcessBus', async (logger) => new InProcessBus({ logger })],
  [
    'NatsJetStreamBus',
    (logger) => NatsJetStreamBus.connect({ url: NATS_URL, streamName, subjects: [`${prefix}.>`], logger }),
  ],
];

let dataSource: DataSource;

beforeAll(async () => {
  schema = `transport_${uniqueToken()}`;
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.end();
  dataSource = await new DataSource({
    type: 'postgres',
    url: DATABASE_URL,
    schema,
    entities: [...messagingEntities],
    migrations: createMessagingMigrations(schema),
    migrationsRun: true,
    logging: false,
    extra: { max: 5 },
  }).initialize();
  await dataSource.query(`CREATE TABLE "${schema}"."effects" (text text NOT NULL, copies int NOT NULL)`);
});

afterAll(async () => {
  await dataSource?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await dataSource?.destroy();
  const nc = await connect({ servers: NATS_URL });
  await (await jetstreamManager(nc)).streams.delete(streamName).catch(() => undefined);
  await nc.close();
});

describe.each(adapters)('BusTransport on %s', (_name, openBus) => {
  let bus: AckLosingBus;
  let app: NestFastifyApplication | undefined;
  let probe: Probe;
  let records: LogRecord[];
  let test: string;
  let registry: Registry;
  let metrics: MessagingMetrics;
  /** A counter's value for one durable (and outcome), from the registry as /metrics would show it. */
  const count = async (name: string, labels: Record<string, string>) => {
    const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
    const values = (metric?.values ?? []) as { value: number; labels: Record<string, string | number> }[];
    return values
      .filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
      .reduce((n, v) => n + v.value, 0);
  };

  const start = async (controllers: DynamicModule['controllers'] = [NoteHandlers]) => {
    const log = capturingLogger();
    records = log.records;
    bus = new AckLosingBus(await openBus(log.logger));
    registry = new Registry();
    metrics = new MessagingMetrics(registry, {});
    const transport = () =>
      new BusTransport({
        bus,
        inbox: new InboxService(dataSource),
        logger: log.logger,
        service: 'svc',
        schemas,
        metrics,
      });
    app = await NestFactory.create<NestFastifyApplication>(
      TestModule.with(controllers, transport, probe, log.logger),
      new FastifyAdapter(),
      { logger: false, abortOnError: false },
    );
    await startBusHandlers(app);
  };
  const stop = async () => {
    await app?.close();
    app = undefined;
    await bus?.close();
  };
  const effects = async (text: string) =>
    (await dataSource.query(`SELECT copies FROM "${schema}"."effects" WHERE text = $1`, [text])) as {
      copies: number;
    }[];
  /** Deliveries the inbox durable committed: counted after its transaction, unlike `seen`, pushed inside it. */
  const processed = () =>
    count('bus_events_handled_total', { durable: 'svc-note-added', outcome: 'processed' });
  const seen = (via: string) => probe.seen.filter((s) => s.via === via && s.note.text.startsWith(test));

  beforeEach(() => {
    test = `t${uniqueToken()}`;
    probe = { seen: [], order: [] };
  });
  afterEach(stop);

  it('runs each event handler with the parsed payload, once per durable, past the global auth guard', async () => {
    await start();
    await runWithRequestId(`rid-${test}`, () => bus.publish(NOTE_ADDED, { text: test }, { id: `${test}-1` }));

    await waitFor(() => seen('inbox').length === 1 && seen('audit').length === 1, 'both durables');
    // The handler runs inside the inbox's transaction: its effects are visible once that commits.
    await waitFor(async () => (await processed()) === 1, 'the inbox transaction to commit');
    // Parsed by the subject's schema: its default is filled in; the request id came along in the headers.
    expect(seen('inbox')[0]).toEqual({
      via: 'inbox',
      note: { text: test, copies: 1 },
      id: `${test}-1`,
      delivery: 1,
      requestId: `rid-${test}`,
    });
    expect(seen('audit')[0].note).toEqual({ text: test, copies: 1 });
    expect(await effects(test)).toEqual([{ copies: 1 }]);
    expect(records.some((r) => r.level >= PINO_ERROR)).toBe(false);
  });

  it('skips a redelivery of a handled event (the inbox entry committed with the writes)', async () => {
    await start();
    bus.loseNextAck = true;
    await bus.publish(NOTE_ADDED, { text: test, copies: 2 });

    await waitFor(() => !bus.loseNextAck, 'the redelivery');
    await sleep(SETTLE_MS);
    expect(seen('inbox')).toHaveLength(1);
    expect(await effects(test)).toEqual([{ copies: 2 }]);
    expect(records.some((r) => r.msg === 'bus event already handled; skipped')).toBe(true);
    // /metrics: one processed, one duplicate skipped by the inbox, one redelivery.
    expect(await count('bus_events_handled_total', { durable: 'svc-note-added', outcome: 'processed' })).toBe(
      1,
    );
    expect(await count('bus_events_handled_total', { durable: 'svc-note-added', outcome: 'duplicate' })).toBe(
      1,
    );
    expect(await count('bus_redeliveries_total', { durable: 'svc-note-added' })).toBeGreaterThanOrEqual(1);
  });

  it('rolls back a failing handler with its writes, and the retry commits them once', async () => {
    await start();
    probe.onNote = async (_note, { message }) => {
      if (message?.deliveryCount === 1) throw new Error('first try fails');
    };
    await bus.publish(NOTE_ADDED, { text: test });

    await waitFor(() => seen('inbox').length === 1, 'the retry');
    await waitFor(async () => (await processed()) === 1, 'the retry’s transaction to commit');
    expect(seen('inbox')[0].delivery).toBe(2);
    expect(await effects(test)).toEqual([{ copies: 1 }]);
    expect(await count('bus_events_handled_total', { durable: 'svc-note-added', outcome: 'failed' })).toBe(1);
    // The audit durable is independent: it handled the event once, without waiting for the retry.
    expect(seen('audit')).toHaveLength(1);
  });

  it('logs and drops an event that fails its schema, without calling or retrying the handler', async () => {
    await start();
    await bus.publish(NOTE_ADDED, { text: '', copies: 'many' }, { id: `${test}-bad` });
    await bus.publish(NOTE_ADDED, { text: test });

    await waitFor(() => seen('inbox').length === 1, 'the valid event behind it');
    await sleep(SETTLE_MS);
    expect(probe.seen.filter((s) => s.note.text === '')).toEqual([]);
    const dropped = records.filter((r) => r.messageId === `${test}-bad`);
    // Once per durable, each at its first delivery: dropped, not retried.
    expect(dropped.map((r) => [r.level, r.durable, r.deliveryCount]).sort()).toEqual([
      [PINO_ERROR, 'svc-note-added', 1],
      [PINO_ERROR, 'svc-note-audit', 1],
    ]);
    expect(dropped[0].msg).toMatch(/does not match its schema; message dropped/);
    expect(await count('bus_events_handled_total', { outcome: 'invalid' })).toBe(2);
    expect(dropped[0].problem).toMatch(/text: .*; copies: /);
  });

  it('answers a @MessagePattern request with the parsed request and the caller’s request id', async () => {
    await start();
    await expect(
      runWithRequestId(`rid-${test}`, () => bus.request(SHOUT, { text: 'hi' }, 2_000)),
    ).resolves.toEqual({ shout: 'HIHI', requestId: `rid-${test}`, header: `rid-${test}` });
    await expect(bus.request(SHOUT, { text: 'hi', times: 3 }, 2_000)).resolves.toMatchObject({
      shout: 'HIHIHI',
    });

    const invalid = bus.request(SHOUT, { text: 42 }, 2_000);
    await expect(invalid).rejects.toBeInstanceOf(BusRequestError);
    await expect(invalid).rejects.toMatchObject({
      code: 'REMOTE',
      message: expect.stringMatching(/^invalid request on .*text: /),
    });
    await expect(bus.request(SHOUT, { text: 'boom' }, 2_000)).rejects.toMatchObject({
      code: 'REMOTE',
      message: 'cannot shout boom',
    });
  });

  it('stops its handlers, waiting for a running one, before the app’s shutdown hooks close the database', async () => {
    await start();
    let started = false;
    probe.onNote = async () => {
      started = true;
      await sleep(300);
      probe.order.push('handler finished');
    };
    await bus.publish(NOTE_ADDED, { text: test });
    await waitFor(() => started, 'the handler to start');
    await app?.close();
    app = undefined;
    expect(probe.order).toEqual(['handler finished', 'shutdown hooks (the database closes here)']);
    expect(await effects(test)).toEqual([{ copies: 1 }]);
  });

  it('refuses at start a durable not named after the service, and a subject without a schema', async () => {
    await expect(start([MisnamedDurable])).rejects.toThrow(/needs \{ durable: 'svc-…' \}/);
    await stop();
    await expect(start([UnknownSubject])).rejects.toThrow(/no payload schema for .*unknown\.v1/);
  });
});
