import type { BusMessage } from './bus.port';
import { BusRequestError } from './bus-request.error';
import { InProcessBus } from './in-process.bus';
import { capturingLogger, sleep, waitFor } from './test-support';

describe('InProcessBus', () => {
  let bus: InProcessBus;
  const make = (options: Partial<ConstructorParameters<typeof InProcessBus>[0]> = {}) => {
    bus = new InProcessBus({ logger: capturingLogger().logger, retryDelayMs: 20, ...options });
    return bus;
  };

  afterEach(() => bus.close());

  it('resolves publish before any handler runs', async () => {
    make();
    let ran = false;
    await bus.subscribe('a.b', async () => void (ran = true), { durable: 'd' });
    await bus.publish('a.b', 1);
    expect(ran).toBe(false);
    await waitFor(() => ran, 'handler');
  });

  it('spreads a durable across its subscribers in turn', async () => {
    make();
    const byMember: Record<string, number> = { one: 0, two: 0 };
    const handler = (name: string) => async () => {
      byMember[name]++;
      await sleep(2);
    };
    await bus.subscribe('s', handler('one'), { durable: 'd' });
    await bus.subscribe('s', handler('two'), { durable: 'd' });
    for (let i = 0; i < 10; i++) await bus.publish('s', i);
    await waitFor(() => byMember.one + byMember.two === 10, 'all handled');
    expect(byMember.one).toBeGreaterThan(0);
    expect(byMember.two).toBeGreaterThan(0);
  });

  it('refuses the same durable name with another filter', async () => {
    make();
    await bus.subscribe('a.*', async () => undefined, { durable: 'd' });
    await expect(bus.subscribe('b.*', async () => undefined, { durable: 'd' })).rejects.toThrow(
      /already filters/,
    );
  });

  it('forgets message ids after the duplicate window', async () => {
    make({ duplicateWindowMs: 50 });
    const got: unknown[] = [];
    await bus.subscribe('w', async (m) => void got.push(m.data), { durable: 'd' });
    await bus.publish('w', 1, { id: 'same' });
    await bus.publish('w', 2, { id: 'same' });
    await sleep(80);
    await bus.publish('w', 3, { id: 'same' });
    await waitFor(() => got.length === 2, 'two deliveries');
    expect(got).toEqual([1, 3]);
  });

  it('replays to a new durable only what is still retained', async () => {
    make({ retentionMs: 60_000, retainMax: 2 });
    for (const n of [1, 2, 3]) await bus.publish('r', n);
    const got: unknown[] = [];
    await bus.subscribe('r', async (m) => void got.push(m.data), { durable: 'late' });
    await waitFor(() => got.length === 2, 'replay');
    await sleep(50);
    expect(got).toEqual([2, 3]);
  });

  it('drops retained messages older than the retention', async () => {
    make({ retentionMs: 30 });
    await bus.publish('old', 1);
    await sleep(60);
    const got: BusMessage[] = [];
    await bus.subscribe('old', async (m) => void got.push(m), { durable: 'late' });
    await sleep(50);
    expect(got).toEqual([]);
  });

  it('sends a request to one member of every queue group and takes the first answer', async () => {
    make();
    const calls: string[] = [];
    await bus.reply('q', async () => (calls.push('svc-a'), 'a'), 'svc-a');
    await bus.reply('q', async () => (calls.push('svc-b'), await sleep(50), 'b'), 'svc-b');
    await expect(bus.request('q', {}, 1_000)).resolves.toBe('a');
    await sleep(80);
    expect(calls.sort()).toEqual(['svc-a', 'svc-b']);
  });

  it('fails pending requests when closed', async () => {
    make();
    await bus.reply('slow', () => sleep(200), 'svc');
    const pending = bus.request('slow', {}, 5_000).catch((err: unknown) => err);
    await sleep(10);
    await bus.close();
    const err = await pending;
    expect(err).toBeInstanceOf(BusRequestError);
    expect(err).toMatchObject({ code: 'CLOSED', subject: 'slow' });
  });

  it('does not retry after close', async () => {
    make({ retryDelayMs: 50 });
    let calls = 0;
    await bus.subscribe(
      'f',
      async () => {
        calls++;
        throw new Error('fail');
      },
      { durable: 'd', maxDeliver: 5 },
    );
    await bus.publish('f', 1);
    await waitFor(() => calls === 1, 'first delivery');
    await bus.close();
    await sleep(150);
    expect(calls).toBe(1);
  });
});
