import { Registry } from 'prom-client';
import { MessagingMetrics } from '../../health/messaging-metrics';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { BusMessage, EventBus, PublishOptions } from '../bus.port';
import { InProcessBus } from '../in-process.bus';
import { DATABASE_URL, capturingLogger, sleep, uniqueToken, waitFor } from '../test-support';
import { runWithRequestId } from '../../logging/request-context';
import {
  InboxService,
  OutboxMessageEntity,
  OutboxRelay,
  outboxBacklog,
  OutboxService,
  afterOutboxCommit,
  createMessagingMigrations,
  messagingEntities,
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

  it('creates both tables in the service schema through the migration', async () => {
    const tables: { table_name: string }[] = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual(['effects', 'inbox', 'migrations', 'outbox']);
    expect(dataSource.getMetadata(OutboxMessageEntity).tablePath).toBe(`${schema}.outbox`);
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

  it('relays a committed event at a nudge with its id and headers, and marks it published', async () => {
    const messages = await received('user.>');
    // Polls only every minute: the prompt delivery below is the nudge's doing.
    const relay = relayFor(dataSource, bus, { pollIntervalMs: 60_000 });
    relay.start();
    await sleep(100);
    const id = await dataSource.transaction((manager) =>
      outbox.enqueue(manager, 'user.deleted.v1', { userId: 'u1' }, { 'x-request-id': 'req-1' }),
    );
    relay.nudge();
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

  it('sends the events of nudges that come close together in one round (one claim for all of them)', async () => {
    const messages = await received('burst.>');
    const published: number[] = [];
    const relay = relayFor(dataSource, bus, {
      pollIntervalMs: 60_000,
      // Long enough for the five commits below on a loaded CI machine: the first nudge's round waits this long.
      nudgeDelayMs: 1_000,
      metrics: {
        published: { inc: (n = 1) => void published.push(n) },
        publishFailures: { inc: () => undefined },
      } as never,
    });
    relay.start();
    await sleep(100);
    for (let n = 0; n < 5; n++) {
      await dataSource.transaction((manager) => outbox.enqueue(manager, 'burst.happened.v1', { n }));
      relay.nudge();
    }
    await waitFor(() => messages.length === 5, 'the five events', 5_000);
    expect(messages.map((m) => (m.data as { n: number }).n)).toEqual([0, 1, 2, 3, 4]);
    // The relay counts a round after marking its rows, which a consumer may hear before: wait for the count.
    await waitFor(() => published.reduce((sum, n) => sum + n, 0) === 5, 'the five counted', 2_000);
    // One round published all five (a round per nudge would have counted 1, 1, 1, 1, 1).
    expect(published).toEqual([5]);
  });

  it('writes a row and its event in one statement, both or neither (enqueueWith)', async () => {
    const messages = await received('effect.>');
    // Polls only every minute, and has just started: its first run (a batch, then the first clean-up) may still be
    // going when the nudge comes, which must not be lost (it was, during the clean-up).
    const relay = relayFor(dataSource, bus, { pollIntervalMs: 60_000 });
    relay.start();
    const rows = await dataSource.transaction((manager) =>
      outbox.enqueueWith<{ message_id: string }>(
        manager,
        {
          sql: `INSERT INTO "${schema}"."effects" (message_id) VALUES ($1) RETURNING message_id`,
          params: ['m-1'],
        },
        'effect.recorded.v1',
        { messageId: 'm-1' },
        { 'x-request-id': 'req-2' },
      ),
    );
    expect(rows).toEqual([{ message_id: 'm-1' }]);
    relay.nudge();
    await waitFor(() => messages.length === 1, 'relayed event', 2_000);
    expect(messages[0]).toMatchObject({
      subject: 'effect.recorded.v1',
      data: { messageId: 'm-1' },
      headers: { 'x-request-id': 'req-2' },
    });
    // A write that fails takes its event with it.
    await expect(
      dataSource.transaction((manager) =>
        outbox.enqueueWith(
          manager,
          {
            sql: `INSERT INTO "${schema}"."effects" (message_id) VALUES ($1) RETURNING message_id`,
            params: [null],
          },
          'effect.recorded.v1',
          {},
        ),
      ),
    ).rejects.toThrow(/null value/);
    expect(await pendingCount()).toBe(0);
    expect(
      await dataSource.query(`SELECT message_id FROM "${schema}"."effects" WHERE message_id = 'm-1'`),
    ).toHaveLength(1);
    await dataSource.query(`DELETE FROM "${schema}"."effects"`);
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

  it('nudges after the commit of a transaction that enqueued, not after a rollback, a savepoint or no event', async () => {
    const messages = await received('commit.>');
    // Polls only every minute: prompt deliveries below are the commit hook's doing.
    const relay = relayFor(dataSource, bus, { pollIntervalMs: 60_000 });
    relay.start();
    let nudges = 0;
    afterOutboxCommit(dataSource, () => {
      nudges++;
      relay.nudge();
    });
    try {
      await sleep(100);
      await dataSource.transaction((m) => outbox.enqueue(m, 'commit.first', 1));
      expect(nudges).toBe(1);
      await waitFor(() => messages.length === 1, 'the event, sent at the commit', 2_000);

      await expect(
        dataSource.transaction(async (m) => {
          await outbox.enqueue(m, 'commit.rolled-back', 2);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await dataSource.transaction((m) => m.query('SELECT 1'));
      expect(nudges).toBe(1);

      // A nested transaction (savepoint) commits nothing yet: the nudge waits for the outer commit.
      await dataSource.transaction(async (outer) => {
        await outer.transaction((inner) => outbox.enqueue(inner, 'commit.nested', 3));
        expect(nudges).toBe(1);
      });
      expect(nudges).toBe(2);
      // Outside a transaction the insert commits by itself.
      await outbox.enqueue(dataSource.manager, 'commit.autocommit', 4);
      expect(nudges).toBe(3);
      await waitFor(() => messages.length === 3, 'every committed event', 2_000);
      expect(messages.map((m) => m.subject)).toEqual(['commit.first', 'commit.nested', 'commit.autocommit']);
    } finally {
      afterOutboxCommit(dataSource, () => undefined);
    }
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
