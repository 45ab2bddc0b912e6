import 'reflect-metadata';
import { Writable } from 'node:stream';
import { Body, Controller, Get, Module, Post, Req, type DynamicModule } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import pino from 'pino';
import { createGateway, type Gateway, type GatewayService } from '@district/gateway';
import {
  PlatformModule,
  Public,
  startService,
  type PlatformRuntime,
  type RunningService,
  type ServiceDefinition,
} from '@district/nest-common';
import {
  createTestRuntime,
  dropSchema,
  rawRequest,
  TEST_DATABASE_URL,
  uniqueSchema,
  type RawRequestOptions,
  type RawResponse,
} from '@district/nest-common/testing';
import { freePort } from './support/processes';

/**
 * A platform service (Nest on Fastify, the platform's hooks) behind two gateways at once: one hands it requests
 * in-process, as `--target=all` does, the other reaches it over its loopback port, as the cluster does. Every
 * answer must be the same both ways (status, body, headers), apart from what the hop itself adds; only the
 * access log differs: one line per request in-process (the gateway's), one per process through the hop.
 */
jest.setTimeout(60_000);

const PUBLIC_ORIGIN = 'https://learn.example-district.org';
const MB = 1024 * 1024;

@Controller('api/probe')
@Public()
class ProbeController {
  @Get('who')
  who(@Req() request: FastifyRequest): Record<string, unknown> {
    return {
      ip: request.ip,
      ips: request.ips?.at(-1),
      protocol: request.protocol,
      hostname: request.hostname,
    };
  }

  @Post('echo')
  echo(@Body() body: unknown): unknown {
    return body;
  }

  @Get('slow')
  async slow(): Promise<{ late: true }> {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return { late: true };
  }
}

const schema = uniqueSchema('inprocess');
const probe: ServiceDefinition & GatewayService = {
  name: 'probe',
  dependsOn: [],
  defaultPort: 0,
  routes: [{ path: '/api/probe', match: 'tree', bodyLimit: 'default', sample: '/api/probe/who' }],
  rootModule: (runtime: PlatformRuntime): DynamicModule => {
    @Module({})
    class ProbeModule {}
    return {
      module: ProbeModule,
      imports: [PlatformModule.forService({ name: 'probe', runtime, schema, entities: [], migrations: [] })],
      controllers: [ProbeController],
    };
  },
};

/** What must not differ between the two paths: everything but the date and the hop's own connection handling. */
function comparable(answer: RawResponse): Record<string, unknown> {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...headers } = answer.headers;
  let body: unknown = answer.text;
  try {
    body = JSON.parse(answer.text);
  } catch {
    // not JSON
  }
  return { status: answer.status, headers, body };
}

const lines: string[] = [];
const logger = pino(
  { level: 'info', base: { name: 'launcher' } },
  new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(line);
      callback();
    },
  }),
);
const linesOf = (requestId: string) =>
  lines.filter((l) => l.includes(`"requestId":"${requestId}"`) && l.includes('"msg":"request"'));

let runtime: ReturnType<typeof createTestRuntime>;
let service: RunningService;
const gateways: Record<
  'inProcess' | 'proxied' | 'ingressInProcess' | 'ingressProxied',
  { gateway: Gateway; base: string }
> = {} as never;

async function startGateway(
  local: boolean,
  trustProxy: boolean,
): Promise<{ gateway: Gateway; base: string }> {
  const port = await freePort();
  const gateway = createGateway({
    services: [probe],
    upstreams: { probe: [service.url] },
    local: local ? { probe: service.handle } : undefined,
    publicOrigin: PUBLIC_ORIGIN,
    allowedHosts: [`127.0.0.1:${port}`],
    logger: logger.child({ service: 'gateway' }),
    trustProxy,
    upstreamTimeoutMs: 500,
    healthCheckIntervalMs: 0,
    defaultMetrics: false,
  });
  await gateway.listen(port, '127.0.0.1');
  return { gateway, base: `http://127.0.0.1:${port}` };
}

beforeAll(async () => {
  runtime = createTestRuntime({ logger });
  service = await startService(probe, runtime, { port: 0, host: '127.0.0.1' });
  gateways.inProcess = await startGateway(true, false);
  gateways.proxied = await startGateway(false, false);
  gateways.ingressInProcess = await startGateway(true, true);
  gateways.ingressProxied = await startGateway(false, true);
});

afterAll(async () => {
  for (const { gateway } of Object.values(gateways)) await gateway?.close();
  await service?.close();
  await runtime?.dispose();
  await dropSchema(TEST_DATABASE_URL, schema);
});

/** The same request through both gateways of a pair; both answers, in-process first. */
async function both(
  pair: 'direct' | 'ingress',
  path: string,
  options: RawRequestOptions = {},
): Promise<[RawResponse, RawResponse]> {
  const [inProcess, proxied] =
    pair === 'direct'
      ? [gateways.inProcess, gateways.proxied]
      : [gateways.ingressInProcess, gateways.ingressProxied];
  const id = (suffix: string) => ({
    ...options,
    headers: {
      'X-Request-Id': `same-${suffix}-${Math.random().toString(36).slice(2, 10)}`,
      ...options.headers,
    },
  });
  const a = await rawRequest(inProcess.base, path, id('a'));
  const b = await rawRequest(proxied.base, path, id('b'));
  // The request ids differ on purpose (each is echoed): compare the rest.
  delete a.headers['x-request-id'];
  delete b.headers['x-request-id'];
  for (const answer of [a, b]) answer.text = answer.text.replace(/"requestId":"[^"]+"/, '"requestId":"…"');
  return [a, b];
}

describe('a platform service handed requests in-process answers as through the loopback hop', () => {
  it('the same answer, headers and request id', async () => {
    const res = await rawRequest(gateways.inProcess.base, '/api/probe/who', {
      headers: { 'X-Request-Id': 'handed-over-0001' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('handed-over-0001');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    const [a, b] = await both('direct', '/api/probe/who');
    expect(comparable(a)).toEqual(comparable(b));
  });

  it('request.ip, protocol and hostname are what the gateway decided, also when the socket is an untrusted ingress', async () => {
    // From 127.0.0.1 (TRUSTED_PROXIES' default) with a forged X-Forwarded-For: the gateway replaces it.
    const [a, b] = await both('direct', '/api/probe/who', {
      headers: { 'X-Forwarded-For': '6.6.6.6', 'X-Forwarded-Proto': 'https' },
    });
    expect(JSON.parse(a.text)).toEqual({
      ip: '127.0.0.1',
      ips: '127.0.0.1',
      protocol: 'http',
      hostname: '127.0.0.1',
    });
    expect(comparable(a)).toEqual(comparable(b));

    // Behind an ingress at 127.0.0.2 (not in TRUSTED_PROXIES) with GATEWAY_TRUST_PROXY: the client is the last
    // X-Forwarded-For entry, the scheme and name the ingress's. The socket alone would say 127.0.0.2 and http.
    const ingress = {
      localAddress: '127.0.0.2',
      headers: {
        'X-Forwarded-For': '198.51.100.4, 203.0.113.9',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'learn.example-district.org',
      },
    };
    const [c, d] = await both('ingress', '/api/probe/who', ingress);
    expect(JSON.parse(c.text)).toEqual({
      ip: '203.0.113.9',
      ips: '203.0.113.9',
      protocol: 'https',
      hostname: 'learn.example-district.org',
    });
    expect(comparable(c)).toEqual(comparable(d));
  });

  it('bodies: the same answer under the limit, and the gateway’s 413 over it, by Content-Length or streamed', async () => {
    const json = { 'Content-Type': 'application/json', Origin: PUBLIC_ORIGIN };
    const [a, b] = await both('direct', '/api/probe/echo', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(a.status).toBe(201);
    expect(comparable(a)).toEqual(comparable(b));

    const big = JSON.stringify({ text: 'x'.repeat(MB) });
    const [c, d] = await both('direct', '/api/probe/echo', { method: 'POST', headers: json, body: big });
    expect(c.status).toBe(413);
    expect(JSON.parse(c.text)).toMatchObject({
      statusCode: 413,
      message: 'The request body is too large. The limit is 1 MB.',
    });
    expect(comparable(c)).toEqual(comparable(d));

    const chunk = Buffer.from(`"${'x'.repeat(256 * 1024)}`);
    const chunks = [Buffer.from('{"text":'), chunk, chunk, chunk, chunk, chunk, Buffer.from('"}')];
    const [e, f] = await both('direct', '/api/probe/echo', { method: 'POST', headers: json, chunks });
    expect(e.status).toBe(413);
    expect(JSON.parse(e.text)).toMatchObject({
      statusCode: 413,
      message: 'The request body is too large. The limit is 1 MB.',
    });
    expect(comparable(e)).toEqual(comparable(f));
  });

  it('the same refusals: a cross-origin write, an unknown route, a malformed body', async () => {
    const foreign = { 'Content-Type': 'application/json', Origin: 'https://evil.example' };
    const [a, b] = await both('direct', '/api/probe/echo', { method: 'POST', headers: foreign, body: '{}' });
    expect(a.status).toBe(403);
    expect(comparable(a)).toEqual(comparable(b));
    const [c, d] = await both('direct', '/api/probe/nothing-here');
    expect(c.status).toBe(404);
    expect(comparable(c)).toEqual(comparable(d));
    const [e, f] = await both('direct', '/api/probe/echo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: PUBLIC_ORIGIN },
      body: '{"text":',
    });
    expect(e.status).toBe(400);
    expect(comparable(e)).toEqual(comparable(f));
  });

  it('a service that stays silent past upstreamTimeoutMs: the same 504', async () => {
    const [a, b] = await both('direct', '/api/probe/slow');
    expect(a.status).toBe(504);
    expect(JSON.parse(a.text)).toMatchObject({
      statusCode: 504,
      message: 'The probe service took too long to answer. Please try again.',
    });
    expect(comparable(a)).toEqual(comparable(b));
    // The late answer is dropped; the service and the gateway keep serving.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await rawRequest(gateways.inProcess.base, '/api/probe/who')).status).toBe(200);
  });

  it('one access-log line per request in-process (the gateway’s, no repeated key); one per process through the hop', async () => {
    await rawRequest(gateways.inProcess.base, '/api/probe/who?x=1', {
      headers: { 'X-Request-Id': 'one-line-in-process' },
    });
    await rawRequest(gateways.proxied.base, '/api/probe/who?x=1', {
      headers: { 'X-Request-Id': 'one-line-proxied' },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const handed = linesOf('one-line-in-process');
    expect(handed).toHaveLength(1);
    expect(JSON.parse(handed[0])).toMatchObject({
      service: 'gateway',
      target: 'probe',
      upstream: 'in-process',
      path: '/api/probe/who',
      status: 200,
    });
    const keys = [...handed[0].matchAll(/"([^"]+)":/g)].map((m) => m[1]);
    expect(keys.length).toBe(new Set(keys).size);

    const proxied = linesOf('one-line-proxied').map((l) => JSON.parse(l) as { service: string });
    expect(proxied.map((l) => l.service).sort()).toEqual(['gateway', 'probe']);
  });

  it('still observes the service’s request metrics for handed-over requests', async () => {
    const count = async () => {
      const text = await (await fetch(`${service.url}/metrics`)).text();
      const match =
        /http_request_duration_seconds_count\{[^}]*route="\/api\/probe\/who"[^}]*status="200"[^}]*\} (\d+)/.exec(
          text,
        );
      return Number(match?.[1] ?? 0);
    };
    const before = await count();
    await rawRequest(gateways.inProcess.base, '/api/probe/who');
    expect(await count()).toBe(before + 1);
  });
});
