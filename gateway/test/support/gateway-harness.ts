import { Writable } from 'node:stream';
import pino from 'pino';
import { createGateway, type Gateway, type GatewayOptions } from '../../src';
import { SERVICE_NAMES, type ServiceName } from '../../src/routes';
import { startFakeService, type FakeService } from './fake-service';

export interface Harness {
  gateway: Gateway;
  base: string;
  logLines: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export const PUBLIC_ORIGIN = 'https://learn.example-district.org';

/** A gateway on an ephemeral loopback port, logging into an array the test can read. */
export async function startGateway(
  options: Partial<GatewayOptions> & Pick<GatewayOptions, 'upstreams'>,
): Promise<Harness> {
  const logLines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') logLines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  const gateway = createGateway({
    publicOrigin: PUBLIC_ORIGIN,
    logger: pino({ level: 'debug' }, sink),
    defaultMetrics: false,
    healthCheckIntervalMs: 0,
    ...options,
  });
  const address = await gateway.listen(0, '127.0.0.1');
  return { gateway, base: `http://127.0.0.1:${address.port}`, logLines, close: () => gateway.close() };
}

/** One fake replica per service. */
export async function startAllServices(websocket = true): Promise<Record<ServiceName, FakeService>> {
  const entries = await Promise.all(
    SERVICE_NAMES.map(
      async (name) =>
        [name, await startFakeService(name, { websocket: websocket && name === 'chat' })] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<ServiceName, FakeService>;
}

export function upstreamsOf(services: Record<ServiceName, FakeService>): Record<ServiceName, string[]> {
  return Object.fromEntries(Object.entries(services).map(([name, s]) => [name, [s.url]])) as Record<
    ServiceName,
    string[]
  >;
}

export async function waitFor(condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
