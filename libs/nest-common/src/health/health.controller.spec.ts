import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import pino from 'pino';
import { startService, type RunningService } from '../app/create-service-app';
import { ConfigError } from '../config/config';
import type { PlatformRuntime, ServiceDefinition } from '../runtime/runtime';
import { bareServiceProviders, capturedLogger } from '../testing/captured-logger';
import { HealthController } from './health.controller';
import { isLoopbackListenHost } from './metrics-access';
import { Readiness } from './readiness';

const TOKEN = 'a-long-service-metrics-token';

/** What the checks answer: the database gates; the bus is watched; the store gates only where `storeGates` says. */
const deps = { database: true, bus: false, store: true, storeGates: false };

/** Only what the health endpoints need from the platform, so no database is involved. */
@Module({})
class HealthOnlyModule {
  static forRoot(logger: pino.Logger): DynamicModule {
    const readiness = new Readiness();
    readiness.add('database', () => deps.database);
    readiness.add('bus', () => deps.bus, { gates: false });
    readiness.add('store', () => deps.store, { gates: deps.storeGates });
    return {
      module: HealthOnlyModule,
      controllers: [HealthController],
      providers: bareServiceProviders(logger, readiness),
    };
  }
}

interface Started {
  service: RunningService;
  logLines: Array<Record<string, unknown>>;
}

async function start(host: string, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const { logger, lines: logLines } = capturedLogger();
  const definition: ServiceDefinition = {
    name: 'probe',
    dependsOn: [],
    defaultPort: 0,
    routes: [],
    rootModule: () => HealthOnlyModule.forRoot(logger),
  };
  const runtime = { logger, env } as unknown as PlatformRuntime;
  const service = await startService(definition, runtime, { port: 0, host });
  return { service, logLines };
}

const running: RunningService[] = [];
async function started(host: string, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const s = await start(host, env);
  running.push(s.service);
  return s;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  Object.assign(deps, { database: true, bus: false, store: true, storeGates: false });
});

const metricsWarnings = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.level === 40 && String(l.msg).includes('METRICS_TOKEN'));

describe('service /metrics', () => {
  it('is open on loopback when no token is set (npm start)', async () => {
    const { service, logLines } = await started('127.0.0.1');
    const res = await fetch(`${service.url}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('http_request_duration_seconds');
    expect(metricsWarnings(logLines)).toHaveLength(0);
  });

  it('beyond loopback without a token, answers 403 naming METRICS_TOKEN and warns once at listen', async () => {
    const { service, logLines } = await started('0.0.0.0');
    for (const headers of [{}, { Authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
      const res = await fetch(`${service.url}/metrics`, { headers });
      expect(res.status).toBe(403);
      const body = (await res.json()) as { statusCode: number; message: string };
      expect(body).toMatchObject({ statusCode: 403, message: expect.stringContaining('METRICS_TOKEN') });
    }
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect(metricsWarnings(logLines)).toHaveLength(1);
  });

  it('beyond loopback with METRICS_TOKEN, serves the bearer of the token only', async () => {
    const { service, logLines } = await started('0.0.0.0', { METRICS_TOKEN: TOKEN });
    const anonymous = await fetch(`${service.url}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(await anonymous.json()).toMatchObject({
      statusCode: 401,
      message: 'A valid metrics token is required',
    });
    const wrong = await fetch(`${service.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const ok = await fetch(`${service.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('http_request_duration_seconds');
    expect(metricsWarnings(logLines)).toHaveLength(0);
  });

  it('needs the token on loopback too once one is set', async () => {
    const { service } = await started('127.0.0.1', { METRICS_TOKEN: TOKEN });
    expect((await fetch(`${service.url}/metrics`)).status).toBe(401);
    const ok = await fetch(`${service.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
  });

  it('refuses to start with a short token, without echoing it', async () => {
    const error = await start('127.0.0.1', { METRICS_TOKEN: 'short-secret' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(['METRICS_TOKEN: must be at least 16 characters']);
    expect((error as Error).message).not.toContain('short-secret');
  });
});

describe('service /healthz', () => {
  it('says it is alive and which service it is (the gateway routes only to an address that names its service)', async () => {
    const { service } = await started('127.0.0.1');
    const res = await fetch(`${service.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', service: 'probe' });
  });
});

describe('service /readyz (ADR 0043)', () => {
  it('answers by the gating checks only: ready while a watched dependency (the bus) is away', async () => {
    const { service } = await started('0.0.0.0');
    const res = await fetch(`${service.url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      status: 'ready',
      service: 'probe',
      ready: true,
      checks: { database: true },
    });
    deps.store = false;
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  });

  it('is not ready without its database; names its checks and results, nothing about where they connect', async () => {
    deps.database = false;
    const { service } = await started('0.0.0.0');
    const res = await fetch(`${service.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'not ready',
      service: 'probe',
      ready: false,
      checks: { database: false },
    });
  });

  it('is not ready without the store where the store gates (chat), and ready again when it returns', async () => {
    deps.storeGates = true;
    const { service } = await started('127.0.0.1');
    deps.store = false;
    const down = await fetch(`${service.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ ready: false, checks: { database: true, store: false } });
    deps.store = true;
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  });
});

describe('service /statusz and the dependency metrics', () => {
  it('shows every dependency, gating or watched, with 200 whatever they answer', async () => {
    deps.store = false;
    const { service } = await started('127.0.0.1');
    const res = await fetch(`${service.url}/statusz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      service: 'probe',
      ready: true,
      checks: { database: true, bus: false, store: false },
      gating: ['database'],
    });
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toContain('service_ready{service="probe"} 1');
    expect(metrics).toContain('dependency_up{dependency="database",gating="true",service="probe"} 1');
    expect(metrics).toContain('dependency_up{dependency="bus",gating="false",service="probe"} 0');
    expect(metrics).toContain('dependency_up{dependency="store",gating="false",service="probe"} 0');
  });
});

describe('a draining service (ADR 0022)', () => {
  it('fails its probes with 503 while still serving other requests, each answer closing its connection', async () => {
    const { service } = await started('127.0.0.1');
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    service.drain();
    for (const probe of ['/healthz', '/readyz', '/healthz?x=1']) {
      const res = await fetch(`${service.url}${probe}`);
      expect([probe, res.status, res.headers.get('connection')]).toEqual([probe, 503, 'close']);
      expect(await res.json()).toEqual({ status: 'draining', ready: false });
    }
    const metrics = await fetch(`${service.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('connection')).toBe('close');
  });
});

describe('isLoopbackListenHost', () => {
  it('knows the loopback addresses and names, and nothing else', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]', 'LOCALHOST']) {
      expect([host, isLoopbackListenHost(host)]).toEqual([host, true]);
    }
    for (const host of [
      '0.0.0.0',
      '::',
      '',
      '10.0.0.5',
      'identity',
      '127.0.0.1.nip.io',
      '::ffff:127.0.0.1',
    ]) {
      expect([host, isLoopbackListenHost(host)]).toEqual([host, false]);
    }
  });
});
