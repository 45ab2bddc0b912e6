import { RetentionPolicy, StorageType, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { JetStreamManager } from '@nats-io/jetstream';
import { connect, nanos } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import type { BusMessage } from './bus.port';
import { NatsJetStreamBus, type NatsJetStreamBusOptions } from './nats-jetstream.bus';
import { NATS_URL, PINO_ERROR, capturingLogger, sleep, uniqueToken, waitFor } from './test-support';

describe('NatsJetStreamBus', () => {
  const run = uniqueToken().toUpperCase();
  const streamName = `NATSBUS_${run}`;
  const prefix = `natsbus${run.toLowerCase()}`;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let buses: NatsJetStreamBus[] = [];
  const log = capturingLogger();

  const open = async (overrides: Partial<NatsJetStreamBusOptions> = {}) => {
    const bus = await NatsJetStreamBus.connect({
      url: NATS_URL,
      streamName,
      subjects: [`${prefix}.>`],
      logger: log.logger,
      ...overrides,
    });
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
    jsm = await jetstreamManager(nc);
  });

  afterEach(async () => {
    await Promise.all(buses.map((b) => b.close()));
    buses = [];
  });

  afterAll(async () => {
    await jsm.streams.delete(streamName).catch(() => undefined);
    await nc.close();
  });

  it('creates a file-backed stream with a duplicate window, and updates it when the subjects change', async () => {
    await open();
    let info = await jsm.streams.info(streamName);
    expect(info.config.storage).toBe(StorageType.File);
    expect(info.config.retention).toBe(RetentionPolicy.Limits);
    expect(info.config.duplicate_window).toBe(nanos(120_000));
    expect(info.config.subjects).toEqual([`${prefix}.>`]);

    await open({ subjects: [`${prefix}.>`, `${prefix}x.>`] });
    info = await jsm.streams.info(streamName);
    expect(info.config.subjects).toEqual([`${prefix}.>`, `${prefix}x.>`]);
  });

  it('refuses stream subjects that would swallow requests', async () => {
    await expect(open({ subjects: ['>'] })).rejects.toThrow(/request prefix/);
  });

  it('takes a durable whose filter spans the stream subjects (one per service), as JetStream 2.9 cannot', async () => {
    // Its own stream: `<service>.>` per service, as the launcher's registry makes it (ADR 0036).
    const services = ['a', 'b'].map((s) => `${prefix}${s}`);
    const wide = await open({ streamName: `${streamName}_WIDE`, subjects: services.map((s) => `${s}.>`) });
    try {
      const got: string[] = [];
      const durable = `wide-${run}`;
      const sub = await wide.subscribe('*.audit.recorded.v1', async (m) => void got.push(m.subject), {
        durable,
      });
      for (const service of services) {
        await wide.publish(`${service}.audit.recorded.v1`, 1);
        await wide.publish(`${service}.room.created.v1`, 2);
      }
      await waitFor(() => got.length >= 2, 'both services’ audit events');
      await sleep(300);
      expect(got.sort()).toEqual(services.map((s) => `${s}.audit.recorded.v1`));
      // One durable to the caller; the lag it reports covers each service's slice.
      expect((await wide.consumerLag()).map((l) => l.durable).sort()).toEqual(
        services.map((s) => `${durable}--${s}-audit-recorded-v1`),
      );
      await sub.unsubscribe();
    } finally {
      await jsm.streams.delete(`${streamName}_WIDE`).catch(() => undefined);
    }
  });

  it('shares a durable between replicas on separate connections', async () => {
    const a = await open();
    const b = await open();
    const subject = `${prefix}.share.${uniqueToken()}`;
    const handled: { by: string; id: string }[] = [];
    const handler = (by: string) => async (m: BusMessage) => {
      handled.push({ by, id: m.id });
      await sleep(5);
    };
    await a.subscribe(subject, handler('a'), { durable: `share-${run}` });
    await b.subscribe(subject, handler('b'), { durable: `share-${run}` });
    for (let i = 0; i < 30; i++) await a.publish(subject, i, { id: `${run}-share-${i}` });
    await waitFor(() => handled.length >= 30, '30 deliveries');
    await sleep(400);
    expect(handled).toHaveLength(30);
    expect(new Set(handled.map((h) => h.id)).size).toBe(30);
  });

  it('reports each of its durables’ lag as the broker counts it: waiting, unacknowledged, redelivered', async () => {
    const bus = await open({ ackWaitMs: 400 });
    const subject = `${prefix}.lag.${uniqueToken()}`;
    const durable = `lag-${run}`;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    await bus.subscribe(
      subject,
      async () => {
        calls++;
        await held;
      },
      { durable, maxDeliver: 10 },
    );
    for (let i = 0; i < 3; i++) await bus.publish(subject, i, { id: `${run}-lag-${i}` });
    // The handler holds every delivery past the ack wait: the broker counts them unacknowledged, then redelivers.
    await waitFor(
      async () => ((await bus.consumerLag()).find((c) => c.durable === durable)?.redelivered ?? 0) > 0,
      'a redelivery',
      5_000,
    );
    const lag = (await bus.consumerLag()).find((c) => c.durable === durable);
    expect(lag).toBeDefined();
    expect((lag?.ackPending ?? 0) + (lag?.pending ?? 0)).toBeGreaterThan(0);
    release();
    await waitFor(
      async () => {
        const now = (await bus.consumerLag()).find((c) => c.durable === durable);
        return now?.ackPending === 0 && now.pending === 0;
      },
      'all acknowledged',
      5_000,
    );
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('redelivers to another replica when one dies before acknowledging', async () => {
    const doomed = await open({ ackWaitMs: 500, closeTimeoutMs: 50 });
    const survivor = await open({ ackWaitMs: 500 });
    const subject = `${prefix}.crash.${uniqueToken()}`;
    const durable = `crash-${run}`;
    let doomedGotIt = false;
    await doomed.subscribe(
      subject,
      async () => {
        doomedGotIt = true;
        await new Promise(() => undefined);
      },
      { durable },
    );
    await doomed.publish(subject, 'work', { id: `${run}-crash` });
    await waitFor(() => doomedGotIt, 'first delivery');
    await doomed.close();

    const seen: BusMessage[] = [];
    await survivor.subscribe(subject, async (m) => void seen.push(m), { durable });
    await waitFor(() => seen.length === 1, 'redelivery after ack wait', 5_000);
    expect(seen[0]).toMatchObject({ id: `${run}-crash`, data: 'work', deliveryCount: 2 });
  });

  it('terminates and logs a message whose data is not JSON', async () => {
    const bus = await open();
    const subject = `${prefix}.raw.${uniqueToken()}`;
    const seen: unknown[] = [];
    await bus.subscribe(subject, async (m) => void seen.push(m.data), { durable: `raw-${run}` });
    const js = jetstream(nc);
    await js.publish(subject, new TextEncoder().encode('{not json'), { msgID: `${run}-raw` });
    await bus.publish(subject, 'fine');
    await waitFor(() => seen.length === 1, 'the valid message');
    await sleep(300);
    expect(seen).toEqual(['fine']);
    expect(
      log.records.some((r) => r.level === PINO_ERROR && r.messageId === `${run}-raw` && /JSON/.test(r.msg)),
    ).toBe(true);
  });

  it('answers requests across connections and keeps request subjects out of the stream', async () => {
    const server = await open();
    const client = await open();
    const subject = `${prefix}.users.list`;
    await server.reply(subject, async (q: { ids: string[] }) => q.ids.map((id) => ({ id })), 'identity');
    await expect(client.request(subject, { ids: ['1', '2'] }, 2_000)).resolves.toEqual([
      { id: '1' },
      { id: '2' },
    ]);
    // The stream takes this subject (`<prefix>.>`), so only the bus keeping requests out of it explains the absence:
    // the lookup answers "no message" (null), where any failure of the lookup rejects (a wrong stream is 10059).
    expect((await jsm.streams.info(streamName)).config.subjects).toEqual([`${prefix}.>`]);
    await expect(jsm.streams.getMessage(streamName, { last_by_subj: subject })).resolves.toBeNull();
    // The same lookup finds an event published on a sibling subject: it can see what is there.
    await client.publish(`${prefix}.users.changed`, { id: '1' });
    await expect(
      jsm.streams.getMessage(streamName, { last_by_subj: `${prefix}.users.changed` }),
    ).resolves.toMatchObject({ subject: `${prefix}.users.changed` });
  });

  it('updates an existing durable when its settings change', async () => {
    const bus = await open();
    const subject = `${prefix}.cfg.${uniqueToken()}`;
    const durable = `cfg-${run}`;
    const sub = await bus.subscribe(subject, async () => undefined, { durable, maxDeliver: 3 });
    await sub.unsubscribe();
    await bus.subscribe(subject, async () => undefined, { durable, maxDeliver: 7 });
    const info = await jsm.consumers.info(streamName, durable);
    expect(info.config.max_deliver).toBe(7);
    expect(info.config.filter_subject).toBe(subject);
  });
});
