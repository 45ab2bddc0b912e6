import { Registry } from 'prom-client';
import { MessagingMetrics } from '../../health/messaging-metrics';
import { Client } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { BusMessage, EventBus, PublishOptions } from '../bus.port';
import { InProcessBus } from '../in-process.bus';
import { DATABASE_URL, capturingLogger, sleep, uniqueToken, waitFor } from '../test-support';
import { runWithRequestId } from '../../logging/request-context';
import { outboxIdleLock } from './messaging-tables';
import {
  InboxService,
  OutboxMessageEntity,
  OutboxRelay,
  outboxBacklog,
  OutboxService,
  createMessagingMigrations,
  messagingEntities,
  outboxChannel,
} from '.';

/** A real bus with a switch that makes publish fail, as a broker outage would, and a count of publish calls. */
class SwitchableBus implements EventBus {
  down = false;
  calls: string[] = [];
  constructor(private readonly inner: EventBus) {}
  async publish(subject: string, data: unknown, options?: PublishOptions): Promise<void> {
    if (this.down) throw new Error('broker unavailable');
    this.calls.push(options?.id ?? '');
    await this.inner.publish(subject, data, options);
  }
  subscribe: EventBus['subscribe'] = (...args) => this.inner.subscribe(...args);
  request: EventBus['request'] = (...args) => this.inner.request(...args);
  reply: EventBus['reply'] = (...args) => this.inner.reply(...args);
  isReady = () => this.inner.isReady();
  close = () => this.inner.close();
}

describe('transactional outbox and idempotent inbox (PostgreSQL)', () => {
  const schema = `msg_${uniqueToken()}`;
  const { logger } = capturingLogger();
  let dataSource: DataSource;
  let otherReplica: DataSource;
  let bus: InProcessBus;
  let relays: OutboxRelay[] = [];
  const outbox = new OutboxService();

  const openDataSource = async () => {
    const ds = new DataSource({
      type: 'postgres',
      url: DATABASE_URL,
      schema,
      entities: [...messagingEntities],
      migrations: createMessagingMigrations(schema),
      migrationsRun: true,
      logging: false,
      extra: { max: 5 },
    });
    return ds.initialize();
  };

  const relayFor = (
    ds: DataSource,
    eventBus: EventBus,
    extra: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {},
  ) => {
    const relay = new OutboxRelay({
      dataSource: ds,
      bus: eventBus,
      logger,
      schema,
      pollIntervalMs: 50,
      ...extra,
    });
    relays.push(relay);
    return relay;
  };

  const received = async (subject: string) => {
    const messages: BusMessage[] = [];
    await bus.subscribe(subject, async (m) => void messages.push(m), { durable: `d-${uniqueToken()}` });
    return messages;
  };

  /** Enqueues as a service's SQL function does: `outbox_enqueue` in the caller's statement. */
  const sqlEnqueue = async (
    manager: EntityManager,
    subject: string,
    payload: unknown,
    headers: Record<string, string> = {},
  ): Promise<string> =>
    (
      await manager.query(`SELECT "${schema}".outbox_enqueue($1, $2::jsonb, $3::jsonb) AS id`, [
        subject,
        JSON.stringify(payload),
        JSON.stringify(headers),
      ])
    )[0].id;

  /** The backends LISTENing on this schema's channel (the relays' own connections). */
  // The relay's listening connection: the one whose last statement was this schema's LISTEN or which holds this
  // schema's idle lock. The relay runs its idle-lock statements on that same connection as soon as it listens, so
  // the LISTEN text alone can be gone from pg_stat_activity by the time this looks (a loaded machine's timing).
  const listenerPids = async (): Promise<number[]> =>
    (
      await dataSource.query(
        `SELECT DISTINCT a.pid FROM pg_stat_activity a
          WHERE a.datname = current_database()
            AND (a.query = $1 OR a.pid IN (
              SELECT l.pid FROM pg_locks l
               WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                 AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($2, 0)))`,
        [`LISTEN "${outboxChannel(schema)}"`, outboxIdleLock(schema)],
      )
    ).map((r: { pid: number }) => r.pid);

  const listeningRelay = async (
    ds: DataSource,
    eventBus: EventBus,
    extra: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {},
  ) => {
    const relay = relayFor(ds, eventBus, extra);
    relay.start();
    await waitFor(() => relay.listening, 'the relay listening', 10_000);
    return relay;
  };

  const pendingCount = async () =>
    Number(
      (await dataSource.query(`SELECT count(*) AS n FROM "${schema}"."outbox" WHERE published_at IS NULL`))[0]
        .n,
    );

  beforeAll(async () => {
    const client = new Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA "${schema}"`);
    await client.end();
    dataSource = await openDataSource();
    otherReplica = await openDataSource();
    await dataSource.query(`CREATE TABLE "${schema}"."effects" (message_id text NOT NULL)`);
  });

  beforeEach(() => {
    bus = new InProcessBus({ logger, retryDelayMs: 20 });
  });

  afterEach(async () => {
    await Promise.all(relays.map((r) => r.stop()));
    relays = [];
    await bus.close();
    await dataSource.query(`DELETE FROM "${schema}"."outbox"`);
  });

  afterAll(async () => {
    await otherReplica?.destroy();
    await dataSource?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await dataSource?.destroy();
  });

  it('creates both tables and the enqueue function in the service schema through the migrations', async () => {
    const tables: { table_name: string }[] = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual(['effects', 'inbox', 'migrations', 'outbox']);
    expect(dataSource.getMetadata(OutboxMessageEntity).tablePath).toBe(`${schema}.outbox`);
    const functions: { proname: string }[] = await dataSource.query(
      `SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1`,
      [schema],
    );
    expect(functions.map((f) => f.proname)).toEqual(['outbox_enqueue']);
  });

  it('publishes nothing from a rolled-back transaction', async () => {
    const messages = await received('rollback.>');
    await expect(
      dataSource.transaction(async (manager) => {
        await outbox.enqueue(manager, 'rollback.happened', { n: 1 });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');

    const relay = relayFor(dataSource, bus);
    relay.start();
    await sleep(300);
    expect(messages).toEqual([]);
    expect(await pendingCount()).toBe(0);
  });

  it('relays an event enqueued in TypeScript at its commit, with its id and headers, and marks it published', async () => {
    const messages = await received('user.>');
    // Polls only every minute, and nobody nudges it: the prompt delivery below is the commit's notification.
    await listeningRelay(dataSource, bus, { pollIntervalMs: 60_000 });
    await sleep(100);
    const id = await dataSource.transaction((manager) =>
      outbox.enqueue(manager, 'user.deleted.v1', { userId: 'u1' }, { 'x-request-id': 'req-1' }),
    );
    await waitFor(() => messages.length === 1, 'relayed event', 2_000);
    expect(messages[0]).toMatchObject({
      id,
      subject: 'user.deleted.v1',
      data: { userId: 'u1' },
      headers: { 'x-request-id': 'req-1' },
    });
    await waitFor(async () => (await pendingCount()) === 0, 'published_at set');
    const row = await dataSource.getRepository(OutboxMessageEntity).findOneByOrFail({ id });
    expect(row.publishedAt).toBeInstanceOf(Date);
    expect(row.attempts).toBe(1);
  });

  it('sends the events of commits that come close together in one round (one claim for all of them)', async () => {
    const messages = await received('burst.>');
    const published: number[] = [];
    await listeningRelay(dataSource, bus, {
      pollIntervalMs: 60_000,
      // Long enough for the five commits below on a loaded CI machine: the first notification's round waits this long.
      nudgeDelayMs: 1_000,
      metrics: {
        published: { inc: (n = 1) => void published.push(n) },
        publishFailures: { inc: () => undefined },
      } as never,
    });
    // The relay's first round (at its start and at LISTEN) is over before the burst.
    await sleep(1_500);
    for (let n = 0; n < 5; n++) {
      await dataSource.transaction((manager) => outbox.enqueue(manager, 'burst.happened.v1', { n }));
    }
    await waitFor(() => messages.length === 5, 'the five events', 5_000);
    expect(messages.map((m) => (m.data as { n: number }).n)).toEqual([0, 1, 2, 3, 4]);
    // The relay counts a round after marking its rows, which a consumer may hear before: wait for the count.
    await waitFor(() => published.reduce((sum, n) => sum + n, 0) === 5, 'the five counted', 2_000);
    // One round published all five (a round per commit would have counted 1, 1, 1, 1, 1).
    expect(published).toEqual([5]);
  });

  it('relays an event a SQL function enqueued through outbox_enqueue at its commit, without any poll or nudge', async () => {
    const messages = await received('effect.>');
    // A service's own function writing a row and its event in one statement, as assessment's submit_grade does.
    await dataSource.query(`
      CREATE FUNCTION "${schema}".record_effect(p_message text, p_headers jsonb) RETURNS text
      LANGUAGE plpgsql VOLATILE AS $fn$
      BEGIN
        INSERT INTO "${schema}"."effects" (message_id) VALUES (p_message);
        PERFORM "${schema}".outbox_enqueue('effect.recorded.v1', jsonb_build_object('messageId', p_message), p_headers);
        RETURN p_message;
      END;
      $fn$`);
    try {
      // Polls only every minute, and its rounds at the start and at LISTEN are over: only the commit's notification
      // can start another.
      await listeningRelay(dataSource, bus, { pollIntervalMs: 60_000 });
      await sleep(300);
      const started = Date.now();
      await dataSource.transaction((m) =>
        m.query(`SELECT "${schema}".record_effect($1, $2::jsonb)`, [
          'm-1',
          JSON.stringify({ 'x-request-id': 'req-2' }),
        ]),
      );
      await waitFor(() => messages.length === 1, 'the event, sent at the commit', 5_000);
      // Far inside the poll's minute: the notification's doing.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(messages[0]).toMatchObject({
        subject: 'effect.recorded.v1',
        data: { messageId: 'm-1' },
        headers: { 'x-request-id': 'req-2' },
      });
      // A write that fails takes its event with it.
      await expect(
        dataSource.transaction((m) => m.query(`SELECT "${schema}".record_effect(NULL, '{}'::jsonb)`)),
      ).rejects.toThrow(/null value/);
      expect(await pendingCount()).toBe(0);
    } finally {
      await dataSource.query(`DROP FUNCTION "${schema}".record_effect(text, jsonb)`);
      await dataSource.query(`DELETE FROM "${schema}"."effects"`);
    }
  });

  it('keeps a nudge that comes while its first run (a batch, then the first clean-up) is still going', async () => {
    const messages = await received('early.>');
    // Polls only every minute and does not listen: the delivery below is the nudge's (one was, once, lost during
    // the clean-up).
    const relay = relayFor(dataSource, bus, { pollIntervalMs: 60_000, listen: false });
    relay.start();
    await dataSource.transaction((m) => outbox.enqueue(m, 'early.event.v1', { n: 1 }));
    relay.nudge();
    await waitFor(() => messages.length === 1, 'the nudged event', 5_000);
  });

  it('publishes nothing from a rolled-back transaction that enqueued from SQL, and is not woken by it', async () => {
    const messages = await received('sqlrollback.>');
    const rounds: number[] = [];
    const relay = await listeningRelay(dataSource, bus, {
      pollIntervalMs: 60_000,
      metrics: {
        published: { inc: (n = 1) => void rounds.push(n) },
        publishFailures: { inc: () => undefined },
      } as never,
    });
    await sleep(300);
    await expect(
      dataSource.transaction(async (m) => {
        await sqlEnqueue(m, 'sqlrollback.happened.v1', { n: 1 });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    await sleep(500);
    expect(messages).toEqual([]);
    expect(await pendingCount()).toBe(0);
    // The next commit is heard as usual.
    await dataSource.transaction((m) => sqlEnqueue(m, 'sqlrollback.committed.v1', { n: 2 }));
    await waitFor(() => messages.length === 1, 'the committed event', 5_000);
    expect(messages[0]).toMatchObject({ subject: 'sqlrollback.committed.v1', data: { n: 2 } });
    expect(relay.listening).toBe(true);
  });

  it('wakes the relay once the transaction commits, not at the enqueue: a relay never drains a row it cannot see', async () => {
    const messages = await received('late.>');
    await listeningRelay(dataSource, bus, { pollIntervalMs: 60_000 });
    await sleep(300);
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const id = await sqlEnqueue(runner.manager, 'late.committed.v1', { n: 1 });
      // Enqueued, not committed: no notification yet, nothing sent.
      await sleep(500);
      expect(messages).toEqual([]);
      await runner.commitTransaction();
      await waitFor(() => messages.length === 1, 'the event, after the commit', 5_000);
      expect(messages[0].id).toBe(id);
    } finally {
      await runner.release();
    }
  });

  it('sends nothing on a poll-only relay until its poll: the prompt deliveries above are the notifications', async () => {
    const messages = await received('deaf.>');
    relayFor(dataSource, bus, { pollIntervalMs: 60_000, listen: false }).start();
    await sleep(300);
    await dataSource.transaction((m) => sqlEnqueue(m, 'deaf.event.v1', { n: 1 }));
    await sleep(1_000);
    expect(messages).toEqual([]);
    expect(await pendingCount()).toBe(1);
  });

  it('listens again after its connection is terminated, and sends what committed while it was not listening', async () => {
    const messages = await received('relisten.>');
    const relay = await listeningRelay(dataSource, bus, {
      pollIntervalMs: 60_000,
      listenRetryMs: { min: 1_500, max: 3_000 },
    });
    const [first] = await listenerPids();
    expect(first).toEqual(expect.any(Number));
    // The database drops the relay's listening connection (a restart, an operator, a failover).
    await dataSource.query('SELECT pg_terminate_backend($1)', [first]);
    await waitFor(() => !relay.listening, 'the loss noticed', 5_000);
    // Committed while nobody listens: its notification is lost; listening again must send it.
    const missed = await dataSource.transaction((m) => sqlEnqueue(m, 'relisten.missed.v1', { n: 1 }));
    await waitFor(() => relay.listening, 'listening again', 10_000);
    const [second] = await listenerPids();
    expect(second).toEqual(expect.any(Number));
    expect(second).not.toBe(first);
    await waitFor(() => messages.length === 1, 'the event committed while not listening', 5_000);
    expect(messages[0].id).toBe(missed);
    // And it hears commits again.
    const heard = await dataSource.transaction((m) => sqlEnqueue(m, 'relisten.heard.v1', { n: 2 }));
    await waitFor(() => messages.length === 2, 'the event after listening again', 5_000);
    expect(messages[1].id).toBe(heard);
  });

  it('notifies only while a relay sleeps: enqueues of awake relays commit without the notification lock', async () => {
    const listener = new Client({ connectionString: DATABASE_URL });
    await listener.connect();
    let heard = 0;
    listener.on('notification', () => void heard++);
    await listener.query(`LISTEN "${outboxChannel(schema)}"`);
    try {
      // No relay sleeps (none runs): nothing to wake.
      await dataSource.transaction((m) => sqlEnqueue(m, 'asleep.none.v1', { n: 1 }));
      await sleep(300);
      expect(heard).toBe(0);
      // A relay that has looked at the outbox and sleeps is woken.
      const messages = await received('asleep.>');
      await listeningRelay(dataSource, bus, { pollIntervalMs: 60_000 });
      await waitFor(() => messages.length === 1, 'the first event, at the relay’s start', 5_000);
      await sleep(300);
      await dataSource.transaction((m) => sqlEnqueue(m, 'asleep.woken.v1', { n: 2 }));
      await waitFor(() => heard === 1, 'the notification', 5_000);
      await waitFor(() => messages.length === 2, 'the second event', 5_000);
    } finally {
      await listener.end();
    }
  });

  it('does not sleep past an enqueue that skipped its notification and commits after the relay looked', async () => {
    const messages = await received('inflight.>');
    // An enqueue while no relay sleeps: no notification, and its transaction stays open.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const id = await sqlEnqueue(runner.manager, 'inflight.event.v1', { n: 1 });
      // The relay starts, finds nothing it can see, and tries to sleep while that transaction is open.
      await listeningRelay(dataSource, bus, { pollIntervalMs: 60_000 });
      await sleep(500);
      expect(messages).toEqual([]);
      await runner.commitTransaction();
      // No notification comes (it skipped it), and the poll is a minute away: the relay did not sleep.
      await waitFor(() => messages.length === 1, 'the event of the transaction that was open', 5_000);
      expect(messages[0].id).toBe(id);
    } finally {
      await runner.release();
    }
  });

  it('wakes every sleeping replica, and each event goes out once', async () => {
    const messages = await received('replicas.>');
    const busA = new SwitchableBus(bus);
    const busB = new SwitchableBus(bus);
    // One sleeps holding the idle lock, the other beside it.
    await listeningRelay(dataSource, busA, { pollIntervalMs: 60_000 });
    await listeningRelay(otherReplica, busB, { pollIntervalMs: 60_000 });
    await sleep(500);
    for (let n = 0; n < 6; n++) {
      await (n % 2 ? otherReplica : dataSource).transaction((m) => sqlEnqueue(m, 'replicas.event.v1', { n }));
      await sleep(50);
    }
    await waitFor(() => messages.length === 6, 'the six events', 5_000);
    await sleep(300);
    expect(messages).toHaveLength(6);
    expect([...busA.calls, ...busB.calls].sort()).toEqual(messages.map((m) => m.id).sort());
  });

  it('checks an event enqueued from SQL as the bus would, failing the caller transaction', async () => {
    const rejects = (subject: unknown, headers: unknown, pattern: RegExp) =>
      expect(
        dataSource.transaction((m) =>
          m.query(`SELECT "${schema}".outbox_enqueue($1, '{}'::jsonb, $2::jsonb)`, [subject, headers]),
        ),
      ).rejects.toThrow(pattern);
    await rejects('bad.*', '{}', /invalid subject "bad\.\*"/);
    await rejects('has space.v1', '{}', /invalid subject/);
    await rejects('trailing.', '{}', /invalid subject/);
    await rejects('', '{}', /invalid subject/);
    await rejects(null, '{}', /invalid subject/);
    await rejects('ok.v1', '{"bad name": "x"}', /invalid header name "bad name"/);
    await rejects('ok.v1', '{"Nats-Msg-Id": "x"}', /invalid header name "Nats-Msg-Id"/);
    await rejects(
      'ok.v1',
      JSON.stringify({ 'x-a': 'line\r\nX-Injected: 1' }),
      /invalid value for header "x-a"/,
    );
    await rejects('ok.v1', '{"x-a": 1}', /invalid value for header "x-a"/);
    await rejects('ok.v1', '["x"]', /invalid headers/);
    expect(await pendingCount()).toBe(0);
    // What passes: the names and values the bus takes, a JSON null payload for SQL NULL, an id of its own.
    const id = await dataSource.transaction(
      async (m) =>
        (
          await m.query(`SELECT "${schema}".outbox_enqueue('ok.v1', NULL, $1::jsonb) AS id`, [
            JSON.stringify({ 'x-request-id': 'r-1', "A!#$%&'*+.^_`|~9": 'any value: tabs\tand ünïcode' }),
          ])
        )[0].id as string,
    );
    const row = await dataSource.getRepository(OutboxMessageEntity).findOneByOrFail({ id });
    expect(row).toMatchObject({ subject: 'ok.v1', payload: null });
    expect(row.headers).toEqual({
      'x-request-id': 'r-1',
      "A!#$%&'*+.^_`|~9": 'any value: tabs\tand ünïcode',
    });
    // A given id is the row's (and so the bus message's).
    const given = '5b0c1a52-6a4e-4a43-9a56-5d7c7d3f0c11';
    await dataSource.query(`SELECT "${schema}".outbox_enqueue('ok.v1', '{}'::jsonb, '{}'::jsonb, $1)`, [
      given,
    ]);
    expect(await dataSource.getRepository(OutboxMessageEntity).findOneByOrFail({ id: given })).toBeTruthy();
  });

  it('leaves rows another relay has claimed, and takes them over once the claim has expired (a relay that died)', async () => {
    const messages = await received('claimed.>');
    const id = await dataSource.transaction((manager) => outbox.enqueue(manager, 'claimed.row.v1', { n: 1 }));
    // Claimed by a relay elsewhere that is still within its claim.
    await dataSource.query(
      `UPDATE "${schema}"."outbox" SET claimed_until = now() + interval '1 hour' WHERE id = $1`,
      [id],
    );
    const relay = relayFor(dataSource, bus, { pollIntervalMs: 50 });
    relay.start();
    await sleep(300);
    expect(messages).toEqual([]);
    // That relay died: its claim runs out, and this one sends the row.
    await dataSource.query(
      `UPDATE "${schema}"."outbox" SET claimed_until = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    await waitFor(() => messages.length === 1, 'the row sent after the claim expired', 2_000);
    expect(messages[0]).toMatchObject({ id, subject: 'claimed.row.v1' });
    await waitFor(async () => (await pendingCount()) === 0, 'published_at set');
    const [row] = await dataSource.query(
      `SELECT claimed_until, attempts FROM "${schema}"."outbox" WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({ claimed_until: null, attempts: 1 });
  });

  it('relays each committed row exactly once while two replicas race, in order per replica', async () => {
    const messages = await received('race.>');
    const ids = await dataSource.transaction(async (manager) => {
      const out: string[] = [];
      for (let i = 0; i < 60; i++) out.push(await outbox.enqueue(manager, 'race.event', i));
      return out;
    });
    const busA = new SwitchableBus(bus);
    const busB = new SwitchableBus(bus);
    const relayA = relayFor(dataSource, busA, { batchSize: 7 });
    const relayB = relayFor(otherReplica, busB, { batchSize: 7 });
    relayA.start();
    relayB.start();

    await waitFor(async () => (await pendingCount()) === 0, 'all rows published');
    await sleep(200);
    const calls = [...busA.calls, ...busB.calls];
    expect(calls).toHaveLength(60);
    expect(new Set(calls)).toEqual(new Set(ids));
    expect(busA.calls.length).toBeGreaterThan(0);
    expect(busB.calls.length).toBeGreaterThan(0);
    // Each replica sends its rows in insertion order.
    for (const replica of [busA, busB]) {
      const positions = replica.calls.map((id) => ids.indexOf(id));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
    await waitFor(() => messages.length === 60, 'all delivered');
    expect(new Set(messages.map((m) => m.id)).size).toBe(60);
  });

  it('keeps events through a bus outage and sends them once it recovers', async () => {
    const messages = await received('outage.>');
    const flaky = new SwitchableBus(bus);
    flaky.down = true;
    const registry = new Registry();
    const metrics = new MessagingMetrics(registry, {
      outboxBacklog: () => outboxBacklog(dataSource, schema),
    });
    const gauge = async (name: string) =>
      ((await registry.getMetricsAsJSON()).find((m) => m.name === name)?.values[0]?.value as
        number | undefined) ?? -1;
    const relay = relayFor(dataSource, flaky, { pollIntervalMs: 20, maxBackoffMs: 100, metrics });
    relay.start();
    const first = await dataSource.transaction((m) => outbox.enqueue(m, 'outage.first', 1));
    const second = await dataSource.transaction((m) => outbox.enqueue(m, 'outage.second', 2));
    relay.nudge();

    await waitFor(
      async () =>
        (await dataSource.getRepository(OutboxMessageEntity).findOneByOrFail({ id: first })).attempts >= 3,
      'several failed attempts',
    );
    expect(messages).toEqual([]);
    const stuck = await dataSource.getRepository(OutboxMessageEntity).findOneByOrFail({ id: first });
    expect(stuck.publishedAt).toBeNull();
    expect(stuck.lastError).toBe('broker unavailable');
    // What /metrics shows during the outage: the backlog and its age grow, failed rounds are counted.
    expect(await gauge('outbox_pending_events')).toBeGreaterThanOrEqual(2);
    expect(await gauge('outbox_oldest_pending_seconds')).toBeGreaterThan(0);
    expect(await gauge('outbox_publish_failures_total')).toBeGreaterThanOrEqual(3);

    flaky.down = false;
    await waitFor(() => messages.length === 2, 'delivery after recovery');
    // Counted once the rows are marked published, a statement after the bus took them: on a slow machine the
    // consumer can hear them first.
    await waitFor(async () => (await gauge('outbox_published_total')) === 2, 'the published count');
    expect(messages.map((m) => m.id)).toEqual([first, second]);
    await sleep(200);
    expect(flaky.calls).toEqual([first, second]);
    expect(await gauge('outbox_published_total')).toBe(2);
  });

  it('deletes published rows past retention and keeps pending ones', async () => {
    const relay = relayFor(dataSource, bus, { retentionMs: 60_000 });
    const oldId = await dataSource.transaction((m) => outbox.enqueue(m, 'retention.old', 1));
    const pendingId = await dataSource.transaction((m) => outbox.enqueue(m, 'retention.pending', 2));
    await dataSource.query(
      `UPDATE "${schema}"."outbox" SET published_at = now() - interval '2 minutes' WHERE id = $1`,
      [oldId],
    );
    expect(await relay.cleanup()).toBe(1);
    const left: { id: string }[] = await dataSource.query(`SELECT id FROM "${schema}"."outbox"`);
    expect(left.map((r) => r.id)).toEqual([pendingId]);
  });

  it('rejects an invalid subject at enqueue time, failing the caller transaction', async () => {
    await expect(dataSource.transaction((m) => outbox.enqueue(m, 'bad.*', 1))).rejects.toThrow(/subject/);
    expect(await pendingCount()).toBe(0);
  });

  it('hears the outer commit of a transaction that enqueued in a savepoint, and an enqueue outside any transaction', async () => {
    const messages = await received('commit.>');
    // Polls only every minute and nobody nudges it: prompt deliveries below are the commits' notifications.
    await listeningRelay(dataSource, bus, { pollIntervalMs: 60_000 });
    await sleep(300);
    await dataSource.transaction(async (outer) => {
      await outer.transaction((inner) => outbox.enqueue(inner, 'commit.nested', 3));
      // Released savepoint, outer transaction still open: nothing is visible, nothing is sent.
      await sleep(300);
      expect(messages).toEqual([]);
    });
    await waitFor(() => messages.length === 1, 'the nested event, at the outer commit', 5_000);
    // Outside a transaction the enqueue commits by itself.
    await outbox.enqueue(dataSource.manager, 'commit.autocommit', 4);
    await waitFor(() => messages.length === 2, 'the autocommitted event', 5_000);
    expect(messages.map((m) => m.subject)).toEqual(['commit.nested', 'commit.autocommit']);
  });

  it('gives an event enqueued without headers the current request id, and keeps the caller’s headers', async () => {
    const headersOf = async (id: string) =>
      (await dataSource.getRepository(OutboxMessageEntity).findOneByOrFail({ id })).headers;
    const implicit = await runWithRequestId('req-implicit', () =>
      dataSource.transaction((m) => outbox.enqueue(m, 'rid.implicit', 1)),
    );
    expect(await headersOf(implicit)).toEqual({ 'x-request-id': 'req-implicit' });
    const explicit = await runWithRequestId('req-implicit', () =>
      dataSource.transaction((m) => outbox.enqueue(m, 'rid.explicit', 1, { 'x-request-id': 'req-given' })),
    );
    expect(await headersOf(explicit)).toEqual({ 'x-request-id': 'req-given' });
    const outside = await dataSource.transaction((m) => outbox.enqueue(m, 'rid.none', 1));
    expect(await headersOf(outside)).toEqual({});
  });

  describe('inbox', () => {
    const inbox = () => new InboxService(dataSource);
    const effects = async (messageId: string) =>
      Number(
        (
          await dataSource.query(`SELECT count(*) AS n FROM "${schema}"."effects" WHERE message_id = $1`, [
            messageId,
          ])
        )[0].n,
      );
    const effect = (messageId: string) => async (manager: import('typeorm').EntityManager) => {
      await manager.query(`INSERT INTO "${schema}"."effects" (message_id) VALUES ($1)`, [messageId]);
    };

    it('runs the handler once per consumer and message, skipping a redelivery', async () => {
      const id = `m-${uniqueToken()}`;
      await expect(inbox().handleOnce('content-user-deleted', { id }, effect(id))).resolves.toBe(true);
      await expect(inbox().handleOnce('content-user-deleted', { id }, effect(id))).resolves.toBe(false);
      expect(await effects(id)).toBe(1);
      // Another consumer is tracked separately.
      await expect(inbox().handleOnce('chat-user-deleted', { id }, effect(id))).resolves.toBe(true);
      expect(await effects(id)).toBe(2);
    });

    it('records nothing when the handler fails, so the retry runs it', async () => {
      const id = `m-${uniqueToken()}`;
      await expect(
        inbox().handleOnce('c', { id }, async (manager) => {
          await effect(id)(manager);
          throw new Error('handler failed');
        }),
      ).rejects.toThrow('handler failed');
      expect(await effects(id)).toBe(0);
      await expect(inbox().handleOnce('c', { id }, effect(id))).resolves.toBe(true);
      expect(await effects(id)).toBe(1);
    });

    it('lets only one of two concurrent deliveries through', async () => {
      const id = `m-${uniqueToken()}`;
      const slowEffect = async (manager: import('typeorm').EntityManager) => {
        await effect(id)(manager);
        await sleep(100);
      };
      const results = await Promise.all([
        inbox().handleOnce('c', { id }, slowEffect),
        new InboxService(otherReplica).handleOnce('c', { id }, slowEffect),
      ]);
      expect(results.sort()).toEqual([false, true]);
      expect(await effects(id)).toBe(1);
    });

    it('makes a bus redelivery harmless end to end', async () => {
      const handled: number[] = [];
      let failOnce = true;
      await bus.subscribe(
        'inbox.e2e',
        async (message) => {
          await inbox().handleOnce('e2e', message, async (manager) => {
            await effect(message.id)(manager);
            handled.push(message.deliveryCount);
          });
          // The effect committed, then the acknowledgement is lost: the bus redelivers.
          if (failOnce) {
            failOnce = false;
            throw new Error('ack lost');
          }
        },
        { durable: 'inbox-e2e', retryDelayMs: 20 },
      );
      await bus.publish('inbox.e2e', {}, { id: 'e2e-1' });
      await waitFor(() => !failOnce, 'first delivery');
      await sleep(200);
      expect(handled).toEqual([1]);
      expect(await effects('e2e-1')).toBe(1);
    });

    it('prunes old entries', async () => {
      const id = `m-${uniqueToken()}`;
      await inbox().handleOnce('prune', { id }, async () => undefined);
      await dataSource.query(
        `UPDATE "${schema}"."inbox" SET processed_at = now() - interval '2 days' WHERE message_id = $1`,
        [id],
      );
      expect(await inbox().prune(24 * 3600_000)).toBe(1);
      await expect(inbox().handleOnce('prune', { id }, async () => undefined)).resolves.toBe(true);
    });
  });
});
