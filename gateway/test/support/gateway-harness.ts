import { Writable } from 'node:stream';
import pino from 'pino';
import { createGateway, type Gateway, type GatewayOptions } from '../../src';
import { TEST_SERVICES, TEST_SERVICE_NAMES } from './test-services';
import { startFakeService, unusedPort, type FakeService } from './fake-service';

export interface Harness {
  gateway: Gateway;
  base: string;
  logLines: Array<Record<string, unknown>>;
  /** The same lines as written (a repeated key would be lost in the parsed ones). */
  rawLogLines: string[];
  close(): Promise<void>;
}

export const PUBLIC_ORIGIN = 'https://learn.example-district.org';

export interface ListenOptions {
  /** The address the gateway binds; `0.0.0.0` makes it listen beyond loopback. */
  listenHost?: string;
}

/**
 * A gateway on an ephemeral port, logging into an array the test can read. The tests reach it as
 * `127.0.0.1:<port>`, a name PUBLIC_ORIGIN does not cover, so that name is configured as an extra host
 * (as an operator would) and the Host check stays on in every test. The port is chosen before the gateway
 * is created because the name includes it; if another process takes it meanwhile, another one is tried.
 * Unless told otherwise, the gateway serves the test registry (TEST_SERVICES).
 */
export async function startGateway(
  options: Partial<GatewayOptions> & Pick<GatewayOptions, 'upstreams'>,
  { listenHost = '127.0.0.1' }: ListenOptions = {},
): Promise<Harness> {
  const logLines: Array<Record<string, unknown>> = [];
  const rawLogLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        rawLogLines.push(line);
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  for (let attempt = 1; ; attempt++) {
    const port = await unusedPort();
    const gateway = createGateway({
      publicOrigin: PUBLIC_ORIGIN,
      // A child with `service`, as the launcher hands it.
      logger: pino({ level: 'debug' }, sink).child({ service: 'gateway' }),
      defaultMetrics: false,
      healthCheckIntervalMs: 0,
      services: TEST_SERVICES,
      ...options,
      allowedHosts: [`127.0.0.1:${port}`, ...(options.allowedHosts ?? [])],
    });
    try {
      await gateway.listen(port, listenHost);
    } catch (err) {
      await gateway.close();
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      throw err;
    }
    return {
      gateway,
      base: `http://127.0.0.1:${port}`,
      logLines,
      rawLogLines,
      close: () => gateway.close(),
    };
  }
}

/** One fake replica per service. */
export async function startAllServices(websocket = true): Promise<Record<string, FakeService>> {
  const entries = await Promise.all(
    TEST_SERVICE_NAMES.map(
      async (name) =>
        [name, await startFakeService(name, { websocket: websocket && name === 'chat' })] as const,
    ),
  );
  return Object.fromEntries(entries);
}

export function upstreamsOf(services: Record<string, FakeService>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(services).map(([name, s]) => [name, [s.url]]));
}

export async function waitFor(condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
