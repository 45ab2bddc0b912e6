import 'reflect-metadata';
import { Controller, Get, Module, type DynamicModule } from '@nestjs/common';
import pino from 'pino';
import { Public } from '../auth/decorators';
import { HealthController } from '../health/health.controller';
import type { PlatformRuntime, ServiceDefinition, ServiceWarmUp, WarmUpContext } from '../runtime/runtime';
import { bareServiceProviders, capturedLogger } from '../testing/captured-logger';
import { WARM_UP_MAX_MS, startService, type RunningService } from './create-service-app';

@Controller('work')
class WorkController {
  served = 0;

  @Public()
  @Get()
  work() {
    this.served += 1;
    return { served: this.served };
  }
}

@Module({})
class WorkModule {
  static forRoot(logger: pino.Logger): DynamicModule {
    return {
      module: WorkModule,
      controllers: [HealthController, WorkController],
      providers: bareServiceProviders(logger),
    };
  }
}

interface Started {
  service: RunningService;
  logLines: Array<Record<string, unknown>>;
}

const running: RunningService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(warmUp: ServiceWarmUp | undefined, warmUpRounds: number | undefined): Promise<Started> {
  const { logger, lines: logLines } = capturedLogger();
  const definition: ServiceDefinition = {
    name: 'probe',
    dependsOn: [],
    defaultPort: 0,
    routes: [],
    rootModule: () => WorkModule.forRoot(logger),
    warmUp,
  };
  const runtime = { logger, env: {} } as unknown as PlatformRuntime;
  const service = await startService(definition, runtime, { port: 0, host: '127.0.0.1', warmUpRounds });
  running.push(service);
  return { service, logLines };
}

/** A warm-up that asks its loopback URL for /work once per round and keeps what it saw. */
function recordingWarmUp() {
  const seen: { context?: WarmUpContext; answers: number[] } = { answers: [] };
  const warmUp: ServiceWarmUp = {
    rounds: 3,
    async run(context) {
      seen.context = context;
      for (let i = 0; i < context.rounds; i++) {
        const body = (await (await fetch(`${context.url}/work`)).json()) as { served: number };
        seen.answers.push(body.served);
      }
      return context.rounds;
    },
  };
  return { warmUp, seen };
}

const requestLines = (lines: Array<Record<string, unknown>>) => lines.filter((l) => l.msg === 'request');

describe('a service warm-up before it listens', () => {
  it('serves the warm-up its own routes on a loopback address closed before the service listens, unlogged and uncounted', async () => {
    const { warmUp, seen } = recordingWarmUp();
    const before = Date.now();
    const { service, logLines } = await start(warmUp, 4);

    expect(seen.answers).toEqual([1, 2, 3, 4]);
    const context = seen.context as WarmUpContext;
    expect(context.rounds).toBe(4);
    expect(context.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(context.url).not.toBe(service.url);
    expect(context.deadline).toBeGreaterThanOrEqual(before + WARM_UP_MAX_MS);
    expect(context.deadline).toBeLessThanOrEqual(Date.now() + WARM_UP_MAX_MS);
    await expect(fetch(`${context.url}/work`)).rejects.toThrow();
    expect(logLines.find((l) => l.msg === 'warmed up')).toMatchObject({ rounds: 4, asked: 4 });
    expect(requestLines(logLines)).toEqual([]);

    // The same instance serves real requests after it: logged and counted, the warm-up's not.
    expect(await (await fetch(`${service.url}/work`)).json()).toEqual({ served: 5 });
    expect(requestLines(logLines)).toEqual([expect.objectContaining({ path: '/work', status: 200 })]);
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/work"[^}]*\} 1\n/);
  });

  it('runs none without rounds, or for a service without a warm-up', async () => {
    const { warmUp, seen } = recordingWarmUp();
    const { service, logLines } = await start(warmUp, 0);
    expect(seen.context).toBeUndefined();
    expect(logLines.some((l) => l.msg === 'warmed up')).toBe(false);
    expect(await (await fetch(`${service.url}/work`)).json()).toEqual({ served: 1 });
    const plain = await start(undefined, 100);
    expect((await fetch(`${plain.service.url}/healthz`)).status).toBe(200);
  });

  it('starts the service anyway when the warm-up fails, and says so', async () => {
    const failing: ServiceWarmUp = {
      rounds: 1,
      run: () => Promise.reject(new Error('the rehearsal broke')),
    };
    const { service, logLines } = await start(failing, 1);
    expect(logLines.find((l) => l.msg === 'warm-up failed: the replica starts without it')).toMatchObject({
      err: expect.objectContaining({ message: 'the rehearsal broke' }),
    });
    expect(await (await fetch(`${service.url}/work`)).json()).toEqual({ served: 1 });
  });
});
