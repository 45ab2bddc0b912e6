import fs from 'node:fs';
import net from 'node:net';
import { Registry } from 'prom-client';
import { PER_HANDLE_METRICS, registerProcessMetrics } from './process-metrics';

/** The value of an unlabelled gauge in the text exposition. */
function valueOf(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('registerProcessMetrics', () => {
  const servers: net.Server[] = [];
  const sockets: net.Socket[] = [];
  afterEach(async () => {
    jest.restoreAllMocks();
    for (const s of sockets.splice(0)) s.destroy();
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  it("keeps prom-client's process figures but those that walk every handle", async () => {
    const registry = new Registry();
    registerProcessMetrics(registry);
    const text = await registry.metrics();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'process_max_fds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds',
      'nodejs_version_info',
      'process_open_fds',
    ])
      expect(text).toContain(`# TYPE ${name} `);
    for (const name of PER_HANDLE_METRICS.filter((n) => n !== 'process_open_fds'))
      expect(text).not.toContain(`# TYPE ${name} `);
  });

  it('scrapes without walking the handles or reading /proc/self/fd on the event loop', async () => {
    const registry = new Registry();
    registerProcessMetrics(registry);
    const handles = jest.spyOn(
      process as unknown as { _getActiveHandles: () => unknown[] },
      '_getActiveHandles',
    );
    const resources = jest.spyOn(process, 'getActiveResourcesInfo');
    const readdirSync = jest.spyOn(fs, 'readdirSync');
    await registry.metrics();
    expect(handles).not.toHaveBeenCalled();
    expect(resources).not.toHaveBeenCalled();
    expect(readdirSync).not.toHaveBeenCalled();
  });

  it('counts open file descriptors, sockets included', async () => {
    const registry = new Registry();
    registerProcessMetrics(registry);
    const before = valueOf(await registry.metrics(), 'process_open_fds');
    expect(before).toBeGreaterThan(2);
    const server = net.createServer((s) => sockets.push(s));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    for (let i = 0; i < 20; i++) {
      const s = net.connect(port, '127.0.0.1');
      sockets.push(s);
      await new Promise((r) => s.once('connect', r));
    }
    await new Promise((r) => setImmediate(r));
    // 20 client ends, 20 server ends and the listener.
    expect(valueOf(await registry.metrics(), 'process_open_fds')).toBeGreaterThanOrEqual(before! + 41);
  });

  it("names every figure with the gateway's prefix when given one", async () => {
    const registry = new Registry();
    registerProcessMetrics(registry, 'gateway_');
    const text = await registry.metrics();
    expect(text).toContain('# TYPE gateway_process_open_fds gauge');
    expect(text).toContain('# TYPE gateway_nodejs_eventloop_lag_p99_seconds gauge');
    expect(text).not.toMatch(/^# TYPE (?!gateway_)/m);
  });
});
