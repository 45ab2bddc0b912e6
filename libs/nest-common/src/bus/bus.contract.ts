import type { BusMessage, BusSubscription, EventBus } from './bus.port';
import type { BusLogger } from './bus-logger';
import { BusRequestError } from './bus-request.error';
import { currentRequestId, runWithRequestId } from '../logging/request-context';
import { PINO_ERROR, capturingLogger, sleep, uniqueToken, waitFor } from './test-support';

export interface BusUnderTest {
  bus: EventBus;
  /** A subject prefix the bus accepts (its stream stores `<prefix>.>`). */
  prefix: string;
  dispose(): Promise<void>;
}

/** Opens a bus for one test; two calls in one test are two replicas of the same service. */
export type BusFactory = (logger: BusLogger) => Promise<BusUnderTest>;

/** Long enough for a stray extra delivery to show up, short enough to keep the suite quick. */
const SETTLE_MS = 400;
const FAST_RETRY = { retryDelayMs: 50, maxDeliver: 3 };

/**
 * The EventBus contract: every adapter must pass it unchanged, so a service behaves the same in standalone
 * (in-process) and cluster (NATS JetStream) mode.
 */
export function describeEventBusContract(name: string, factory: BusFactory): void {
  describe(`EventBus contract: ${name}`, () => {
    let opened: BusUnderTest[] = [];
    let test: string;
    let records: ReturnType<typeof capturingLogger>['records'];
    let logger: BusLogger;

    const open = async (): Promise<BusUnderTest> => {
      const underTest = await factory(logger);
      opened.push(underTest);
      return underTest;
    };
    const subjectOf = (u: BusUnderTest, rest: string) => `${u.prefix}.${test}.${rest}`;
    const durable = (suffix: string) => `${test}-${suffix}`;

    beforeEach(() => {
      test = `t${uniqueToken()}`;
      ({ logger, records } = capturingLogger());
    });

    afterEach(async () => {
      await Promise.all(opened.map((u) => u.dispose()));
      opened = [];
    });

    it('delivers a published message with its id, subject, data, headers and first delivery count', async () => {
      const u = await open();
      const received: BusMessage[] = [];
      await u.bus.subscribe(subjectOf(u, 'user.created'), async (m) => void received.push(m), {
        durable: durable('a'),
      });
      const data = { id: 'u1', name: 'Ada', tags: ['x'], nested: { n: 1, flag: true, none: null } };
      await u.bus.publish(subjectOf(u, 'user.created'), data, { id: `${test}-m1` });

      await waitFor(() => received.length === 1, 'delivery');
      expect(received[0]).toEqual({
        id: `${test}-m1`,
        subject: subjectOf(u, 'user.created'),
        data,
        headers: {},
        deliveryCount: 1,
      });
    });

    it('generates distinct ids when none is given', async () => {
      const u = await open();
      const ids: string[] = [];
      await u.bus.subscribe(subjectOf(u, 'x'), async (m) => void ids.push(m.id), { durable: durable('a') });
      await u.bus.publish(subjectOf(u, 'x'), 1);
      await u.bus.publish(subjectOf(u, 'x'), 1);
      await waitFor(() => ids.length === 2, 'two deliveries');
      expect(ids[0]).not.toEqual(ids[1]);
      expect(ids[0].length).toBeGreaterThan(0);
    });

    it('sends data through JSON: undefined becomes null and dates become strings', async () => {
      const u = await open();
      const received: unknown[] = [];
      await u.bus.subscribe(subjectOf(u, '*'), async (m) => void received.push(m.data), {
        durable: durable('a'),
      });
      await u.bus.publish(subjectOf(u, 'a'), undefined);
      await u.bus.publish(subjectOf(u, 'b'), { at: new Date('2024-01-02T03:04:05.000Z') });
      await waitFor(() => received.length === 2, 'two deliveries');
      expect(received).toEqual(expect.arrayContaining([null, { at: '2024-01-02T03:04:05.000Z' }]));
    });

    it('applies wildcard filters as NATS does: * is one token, > is one or more trailing tokens', async () => {
      const u = await open();
      const star: string[] = [];
      const tail: string[] = [];
      const exact: string[] = [];
      await u.bus.subscribe(subjectOf(u, 'orders.*'), async (m) => void star.push(m.subject), {
        durable: durable('star'),
      });
      await u.bus.subscribe(subjectOf(u, 'users.>'), async (m) => void tail.push(m.subject), {
        durable: durable('tail'),
      });
      await u.bus.subscribe(subjectOf(u, '*.deleted.v1'), async (m) => void exact.push(m.subject), {
        durable: durable('mid'),
      });
      for (const s of [
        'orders.created',
        'orders.a.b',
        'users',
        'users.a',
        'users.a.b',
        'posts.deleted.v1',
        'other.x',
      ]) {
        await u.bus.publish(subjectOf(u, s), s);
      }
      await waitFor(() => star.length + tail.length + exact.length >= 4, 'matching deliveries');
      await sleep(SETTLE_MS);
      expect(star).toEqual([subjectOf(u, 'orders.created')]);
      expect(tail.sort()).toEqual([subjectOf(u, 'users.a'), subjectOf(u, 'users.a.b')]);
      expect(exact).toEqual([subjectOf(u, 'posts.deleted.v1')]);
    });

    it('shares a durable between subscribers: each message is handled once in total', async () => {
      const u = await open();
      const handled: string[] = [];
      const handler = async (m: BusMessage) => {
        handled.push(m.id);
        await sleep(5);
      };
      await u.bus.subscribe(subjectOf(u, 'shared'), handler, { durable: durable('shared') });
      await u.bus.subscribe(subjectOf(u, 'shared'), handler, { durable: durable('shared') });
      for (let i = 0; i < 20; i++) await u.bus.publish(subjectOf(u, 'shared'), i, { id: `${test}-${i}` });

      await waitFor(() => handled.length >= 20, '20 deliveries');
      await sleep(SETTLE_MS);
      expect(handled).toHaveLength(20);
      expect(new Set(handled).size).toBe(20);
    });

    it('gives every durable its own copy', async () => {
      const u = await open();
      const a: unknown[] = [];
      const b: unknown[] = [];
      await u.bus.subscribe(subjectOf(u, 'fanout'), async (m) => void a.push(m.data), {
        durable: durable('a'),
      });
      await u.bus.subscribe(subjectOf(u, 'fanout'), async (m) => void b.push(m.data), {
        durable: durable('b'),
      });
      await u.bus.publish(subjectOf(u, 'fanout'), 'one');
      await u.bus.publish(subjectOf(u, 'fanout'), 'two');
      await waitFor(() => a.length === 2 && b.length === 2, 'both durables');
      await sleep(SETTLE_MS);
      expect(a).toEqual(['one', 'two']);
      expect(b).toEqual(['one', 'two']);
    });

    it('redelivers after a handler throws, with a growing delivery count and the same id', async () => {
      const u = await open();
      const seen: { id: string; deliveryCount: number }[] = [];
      await u.bus.subscribe(
        subjectOf(u, 'flaky'),
        async (m) => {
          seen.push({ id: m.id, deliveryCount: m.deliveryCount });
          if (m.deliveryCount < 3) throw new Error('not yet');
        },
        { durable: durable('flaky'), retryDelayMs: 50, maxDeliver: 5 },
      );
      await u.bus.publish(subjectOf(u, 'flaky'), 'x', { id: `${test}-flaky` });
      await waitFor(() => seen.length >= 3, 'three deliveries');
      await sleep(SETTLE_MS);
      expect(seen).toEqual([1, 2, 3].map((deliveryCount) => ({ id: `${test}-flaky`, deliveryCount })));
    });

    it('spreads redeliveries by up to ±20 % of the back-off (jitter)', async () => {
      const u = await open();
      // The adapter draws its jitter from Math.random: the highest draw, so each redelivery comes 20 % after the
      // plain back-off. Only lower bounds tell it: a timer can fire late on a busy machine, never early (the other
      // direction is retryDelay's unit test in bus-rules.spec.ts).
      let draw = 0.5;
      const random = jest.spyOn(Math, 'random').mockImplementation(() => draw);
      try {
        const at: number[] = [];
        await u.bus.subscribe(
          subjectOf(u, 'jitter'),
          async () => {
            at.push(Date.now());
            draw = 0.999_999;
            if (at.length < 3) throw new Error('retry me');
          },
          { durable: durable('jitter'), retryDelayMs: 500, maxDeliver: 3 },
        );
        await u.bus.publish(subjectOf(u, 'jitter'), 'x');
        await waitFor(() => at.length === 3, 'three deliveries');
        // 500 ms + 20 % = 600 ms, then 1000 ms + 20 % = 1200 ms: each past the plain back-off (500, 1000 ms).
        const [first, second] = [at[1] - at[0], at[2] - at[1]];
        expect(first).toBeGreaterThanOrEqual(590);
        expect(first).toBeLessThan(1_190);
        expect(second).toBeGreaterThanOrEqual(1_190);
        expect(second).toBeLessThan(2_400);
      } finally {
        random.mockRestore();
      }
    });

    it('gives up after maxDeliver deliveries and logs the dropped message', async () => {
      const u = await open();
      const counts: number[] = [];
      await u.bus.subscribe(
        subjectOf(u, 'poison'),
        async (m) => {
          counts.push(m.deliveryCount);
          throw new Error('always fails');
        },
        { durable: durable('poison'), ...FAST_RETRY, maxDeliver: 2 },
      );
      await u.bus.publish(subjectOf(u, 'poison'), 'x', { id: `${test}-poison` });
      await waitFor(() => counts.length >= 2, 'two deliveries');
      await sleep(SETTLE_MS);
      expect(counts).toEqual([1, 2]);
      const dropped = records.filter((r) => r.level === PINO_ERROR && r.messageId === `${test}-poison`);
      expect(dropped).toHaveLength(1);
      expect(dropped[0].msg).toMatch(/dropped/);
    });

    it('keeps delivering other messages while one is waiting for redelivery', async () => {
      const u = await open();
      const done: unknown[] = [];
      await u.bus.subscribe(
        subjectOf(u, 'mixed'),
        async (m) => {
          if (m.data === 'bad' && m.deliveryCount === 1) throw new Error('first try fails');
          done.push(m.data);
        },
        { durable: durable('mixed'), retryDelayMs: 300, maxDeliver: 3 },
      );
      await u.bus.publish(subjectOf(u, 'mixed'), 'bad');
      await u.bus.publish(subjectOf(u, 'mixed'), 'good');
      await waitFor(() => done.length === 2, 'both handled');
      expect(done).toEqual(['good', 'bad']);
    });

    it('drops a second publish with the same message id', async () => {
      const u = await open();
      const received: unknown[] = [];
      await u.bus.subscribe(subjectOf(u, 'dup'), async (m) => void received.push(m.data), {
        durable: durable('a'),
      });
      await u.bus.publish(subjectOf(u, 'dup'), 'first', { id: `${test}-same` });
      await u.bus.publish(subjectOf(u, 'dup'), 'second', { id: `${test}-same` });
      await u.bus.publish(subjectOf(u, 'dup'), 'other', { id: `${test}-other` });
      await waitFor(() => received.length >= 2, 'deliveries');
      await sleep(SETTLE_MS);
      expect(received).toEqual(['first', 'other']);
    });

    it('carries headers end to end and rejects header injection', async () => {
      const u = await open();
      const received: BusMessage[] = [];
      await u.bus.subscribe(subjectOf(u, 'h'), async (m) => void received.push(m), { durable: durable('a') });
      const headers = { 'x-request-id': `req-${test}`, 'x-actor': 'user 42' };
      await u.bus.publish(subjectOf(u, 'h'), {}, { headers });
      await waitFor(() => received.length === 1, 'delivery');
      expect(received[0].headers).toEqual(headers);

      await expect(
        u.bus.publish(subjectOf(u, 'h'), {}, { headers: { 'x-a': 'b\r\nx-evil: 1' } }),
      ).rejects.toThrow(/header/);
      await expect(u.bus.publish(subjectOf(u, 'h'), {}, { headers: { 'bad name': 'v' } })).rejects.toThrow(
        /header/,
      );
    });

    it('carries the current request id to handlers, their logs and onward messages', async () => {
      const u = await open();
      const seen: Array<{ header?: string; context?: string }> = [];
      await u.bus.subscribe(
        subjectOf(u, 'ctx'),
        async (m) => void seen.push({ header: m.headers['x-request-id'], context: currentRequestId() }),
        { durable: durable('a') },
      );
      await runWithRequestId(`ctx-${test}`, () => u.bus.publish(subjectOf(u, 'ctx'), {}));
      await waitFor(() => seen.length === 1, 'delivery');
      expect(seen[0]).toEqual({ header: `ctx-${test}`, context: `ctx-${test}` });
    });

    it('rejects wildcards in a published subject and malformed filters', async () => {
      const u = await open();
      await expect(u.bus.publish(subjectOf(u, 'a.*'), 1)).rejects.toThrow(/subject/);
      await expect(u.bus.publish(subjectOf(u, 'a.>'), 1)).rejects.toThrow(/subject/);
      await expect(u.bus.publish(`${u.prefix}..x`, 1)).rejects.toThrow(/subject/);
      await expect(
        u.bus.subscribe(subjectOf(u, '>.x'), async () => undefined, { durable: durable('a') }),
      ).rejects.toThrow(/filter/);
    });

    it('lets a durable created after a publish still receive the stored message', async () => {
      const u = await open();
      await u.bus.publish(subjectOf(u, 'early'), 'before anyone listened');
      const received: unknown[] = [];
      await u.bus.subscribe(subjectOf(u, 'early'), async (m) => void received.push(m.data), {
        durable: durable('late'),
      });
      await waitFor(() => received.length === 1, 'retained delivery');
      expect(received).toEqual(['before anyone listened']);
    });

    it('keeps a durable across unsubscribe: messages published meanwhile arrive on resubscribe', async () => {
      const u = await open();
      const first: unknown[] = [];
      const sub: BusSubscription = await u.bus.subscribe(
        subjectOf(u, 'd'),
        async (m) => void first.push(m.data),
        {
          durable: durable('d'),
        },
      );
      await u.bus.publish(subjectOf(u, 'd'), 1);
      await waitFor(() => first.length === 1, 'first delivery');
      await sub.unsubscribe();

      await u.bus.publish(subjectOf(u, 'd'), 2);
      await sleep(SETTLE_MS);
      expect(first).toEqual([1]);

      const second: unknown[] = [];
      await u.bus.subscribe(subjectOf(u, 'd'), async (m) => void second.push(m.data), {
        durable: durable('d'),
      });
      await waitFor(() => second.length === 1, 'delivery after resubscribe');
      await sleep(SETTLE_MS);
      expect(second).toEqual([2]);
    });

    it('answers requests, passing headers, and returns replier errors as rejections with their message', async () => {
      const u = await open();
      await u.bus.reply<{ n: number }, { doubled: number; requestId?: string }>(
        subjectOf(u, 'double'),
        async (data, headers) => {
          if (data.n < 0) throw new Error('n must not be negative');
          return { doubled: data.n * 2, requestId: headers['x-request-id'] };
        },
        'calc',
      );
      await expect(
        u.bus.request(subjectOf(u, 'double'), { n: 21 }, 2_000, { 'x-request-id': 'r-1' }),
      ).resolves.toEqual({
        doubled: 42,
        requestId: 'r-1',
      });
      const failure = u.bus.request(subjectOf(u, 'double'), { n: -1 }, 2_000);
      await expect(failure).rejects.toBeInstanceOf(BusRequestError);
      await expect(failure).rejects.toMatchObject({ code: 'REMOTE', message: 'n must not be negative' });
    });

    it('times out a request nobody answers in time, and fails fast when nobody listens', async () => {
      const u = await open();
      await u.bus.reply(subjectOf(u, 'slow'), () => sleep(1_000).then(() => 'late'), 'slow');
      const started = Date.now();
      await expect(u.bus.request(subjectOf(u, 'slow'), {}, 200)).rejects.toMatchObject({ code: 'TIMEOUT' });
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(190);
      expect(elapsed).toBeLessThan(900);

      await expect(u.bus.request(subjectOf(u, 'nobody'), {}, 2_000)).rejects.toMatchObject({
        code: 'NO_RESPONDERS',
      });
    });

    it('shares requests within a queue group: each is answered by one replier', async () => {
      const u = await open();
      const calls: string[] = [];
      await u.bus.reply(subjectOf(u, 'q'), async (n: number) => (calls.push('a'), n), 'svc');
      await u.bus.reply(subjectOf(u, 'q'), async (n: number) => (calls.push('b'), n), 'svc');
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => u.bus.request(subjectOf(u, 'q'), i, 2_000)),
      );
      expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(calls).toHaveLength(10);
    });

    it('stops answering after a reply subscription is removed', async () => {
      const u = await open();
      const sub = await u.bus.reply(subjectOf(u, 'gone'), async () => 'here', 'svc');
      await expect(u.bus.request(subjectOf(u, 'gone'), {}, 1_000)).resolves.toBe('here');
      await sub.unsubscribe();
      await expect(u.bus.request(subjectOf(u, 'gone'), {}, 300)).rejects.toBeInstanceOf(BusRequestError);
    });

    it('reports readiness and refuses work after close', async () => {
      const u = await open();
      const received: unknown[] = [];
      await u.bus.subscribe(subjectOf(u, 'c'), async (m) => void received.push(m.data), {
        durable: durable('c'),
      });
      expect(u.bus.isReady()).toBe(true);
      await u.bus.close();
      expect(u.bus.isReady()).toBe(false);
      await expect(u.bus.publish(subjectOf(u, 'c'), 1)).rejects.toThrow();
      await expect(u.bus.request(subjectOf(u, 'c'), 1, 200)).rejects.toThrow();
      await u.bus.close();
      expect(received).toEqual([]);
    });

    it('lets close() wait for a running handler to finish', async () => {
      const u = await open();
      let finished = false;
      let started = false;
      await u.bus.subscribe(
        subjectOf(u, 'slow'),
        async () => {
          started = true;
          await sleep(200);
          finished = true;
        },
        { durable: durable('slow') },
      );
      await u.bus.publish(subjectOf(u, 'slow'), 1);
      await waitFor(() => started, 'handler start');
      await u.bus.close();
      expect(finished).toBe(true);
    });
  });
}
