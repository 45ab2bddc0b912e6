import {
  Body,
  Controller,
  Get,
  Module,
  NotFoundException,
  Post,
  Req,
  type DynamicModule,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AcceptsForm,
  IdParam,
  PlatformModule,
  Public,
  SESSION_COOKIE,
  SessionStateStore,
  TokenService,
  ZodPipe,
  startService,
  type PlatformRuntime,
  type RunningService,
} from '../src';
import { createTestRuntime, dropSchema, TEST_DATABASE_URL, uniqueSchema } from '../src/testing';

const echoSchema = z.object({ text: z.string().max(100) });

@Controller('probe')
@Public()
class ProbeController {
  @Get('ip')
  ip(@Req() request: FastifyRequest): { ip: string; protocol: string } {
    return { ip: request.ip, protocol: request.protocol };
  }

  @Post('json')
  json(@Body(new ZodPipe(echoSchema)) body: z.infer<typeof echoSchema>): unknown {
    return body;
  }

  @Post('form')
  @AcceptsForm()
  form(@Body(new ZodPipe(echoSchema)) body: z.infer<typeof echoSchema>): unknown {
    return body;
  }

  @Get('things/:id')
  thing(@IdParam('id', () => new NotFoundException('Thing not found')) id: string): { id: string } {
    return { id };
  }

  @Get('signed-in')
  signedIn(@Req() request: FastifyRequest & { user?: { id: string } }): { id: string | null } {
    return { id: request.user?.id ?? null };
  }
}

@Controller('probe')
class GuardedController {
  @Get('private')
  private(): { ok: true } {
    return { ok: true };
  }
}

const schema = uniqueSchema('platform');

function probeDefinition(): {
  name: string;
  dependsOn: string[];
  defaultPort: number;
  routes: [];
  rootModule(runtime: PlatformRuntime): DynamicModule;
} {
  @Module({})
  class ProbeModule {}
  return {
    name: 'probe',
    dependsOn: [],
    defaultPort: 0,
    routes: [],
    rootModule: (runtime) => ({
      module: ProbeModule,
      imports: [PlatformModule.forService({ name: 'probe', runtime, schema, entities: [], migrations: [] })],
      controllers: [ProbeController, GuardedController],
    }),
  };
}

async function start(
  env: NodeJS.ProcessEnv = {},
): Promise<{ service: RunningService; runtime: ReturnType<typeof createTestRuntime> }> {
  const runtime = createTestRuntime({ env });
  const service = await startService(probeDefinition(), runtime, { port: 0, host: '127.0.0.1' });
  return { service, runtime };
}

const running: Array<{ service: RunningService; runtime: ReturnType<typeof createTestRuntime> }> = [];
afterAll(async () => {
  for (const { service, runtime } of running) {
    await service.close();
    await runtime.dispose();
  }
  await dropSchema(TEST_DATABASE_URL, schema);
});

async function app(env: NodeJS.ProcessEnv = {}) {
  const started = await start(env);
  running.push(started);
  return started;
}

describe('forwarding headers', () => {
  it('believes X-Forwarded-For and -Proto from the gateway on loopback (the default trusted proxy)', async () => {
    const { service } = await app();
    const res = await fetch(`${service.url}/probe/ip`, {
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
    });
    expect(await res.json()).toEqual({ ip: '203.0.113.9', protocol: 'https' });
  });

  it('ignores them from a peer that is not a configured proxy, so a caller cannot choose its own address', async () => {
    const { service } = await app({ TRUSTED_PROXIES: '10.1.2.3,10.8.0.0/16' });
    const res = await fetch(`${service.url}/probe/ip`, {
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
    });
    expect(await res.json()).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });

  it('refuses a TRUSTED_PROXIES that is not a list of addresses or ranges', async () => {
    await expect(start({ TRUSTED_PROXIES: 'gateway,10.0.0.0/99' })).rejects.toThrow(/TRUSTED_PROXIES/);
  });
});

describe('request bodies', () => {
  it('answers a form body on a JSON route with 415, and takes it where the route accepts forms', async () => {
    const { service } = await app();
    const form = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'text=hello',
    };
    const refused = await fetch(`${service.url}/probe/json`, form);
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ statusCode: 415, message: 'Unsupported content type' });
    const accepted = await fetch(`${service.url}/probe/form`, form);
    expect(accepted.status).toBe(201);
    expect(await accepted.json()).toEqual({ text: 'hello' });
  });

  it('refuses a NUL character in any body string with 400, not a 500', async () => {
    const { service } = await app();
    const res = await fetch(`${service.url}/probe/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'a\u0000b' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      statusCode: 400,
      message: 'Text may not contain NUL characters',
    });
  });
});

describe('id parameters', () => {
  it('hands the handler the canonical (lower-case) id whatever spelling arrived', async () => {
    const { service } = await app();
    const id = '7D1C0D5E-8F57-4A43-9C55-8A0C2F0B6F11';
    const res = await fetch(`${service.url}/probe/things/${id}`);
    expect(await res.json()).toEqual({ id: id.toLowerCase() });
  });

  it('answers a malformed id with the service’s not-found error and a NUL with 400', async () => {
    const { service } = await app();
    const missing = await fetch(`${service.url}/probe/things/not-a-uuid`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ message: 'Thing not found' });
    const nul = await fetch(`${service.url}/probe/things/7d1c0d5e-8f57-4a43-9c55-8a0c2f0b6f11%00`);
    expect(nul.status).toBe(400);
  });

  it('answers an over-long URL through the platform’s error filter (JSON with a message)', async () => {
    const { service } = await app();
    const res = await fetch(`${service.url}/probe/things/${'a'.repeat(5000)}`);
    expect(res.status).toBe(414);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      statusCode: 414,
      message: 'The address is too long',
      requestId: expect.any(String),
    });
  });
});

describe('the shared session state', () => {
  async function signedInClient(runtime: PlatformRuntime, restored: boolean) {
    const sessions = new SessionStateStore(runtime.store);
    const userId = '5b0e4c7e-1f3a-4a55-8d0e-1c9a2d3b4e5f';
    if (restored) await sessions.markRestored();
    await sessions.setVersion(userId, 1);
    const { token } = await new TokenService(runtime.keys).sign({
      sub: userId,
      tv: 1,
      role: 'student',
      approved: true,
      isAdmin: false,
      name: 'Sam',
      username: 'sam',
      email: 'sam@school.test',
    });
    return { cookie: `${SESSION_COOKIE}=${token}`, userId, sessions };
  }

  it('while the store has lost its state, decides reads from the signed token and refuses changes with 503 and Retry-After (ADR 0022)', async () => {
    const { service, runtime } = await app();
    const { cookie, userId, sessions } = await signedInClient(runtime, false);
    expect((await fetch(`${service.url}/probe/private`, { headers: { cookie } })).status).toBe(200);
    expect(await (await fetch(`${service.url}/probe/signed-in`, { headers: { cookie } })).json()).toEqual({
      id: userId,
    });
    const write = await fetch(`${service.url}/probe/json`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hola' }),
    });
    expect(write.status).toBe(503);
    expect(write.headers.get('retry-after')).toBe('1');
    expect(await write.json()).toMatchObject({
      message: 'Sign-in state is being restored. Please try again in a moment.',
    });
    // Nobody signed in: nothing to check, the public write goes through.
    const anonymous = await fetch(`${service.url}/probe/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hola' }),
    });
    expect(anonymous.status).toBe(201);
    await sessions.markRestored();
    expect(
      (
        await fetch(`${service.url}/probe/json`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'hola' }),
        })
      ).status,
    ).toBe(201);
  });

  it('treats a user the restored state does not know as signed out, not as valid', async () => {
    const { service, runtime } = await app();
    const { cookie } = await signedInClient(runtime, true);
    await runtime.store.del('auth:tv:5b0e4c7e-1f3a-4a55-8d0e-1c9a2d3b4e5f');
    expect((await fetch(`${service.url}/probe/private`, { headers: { cookie } })).status).toBe(401);
  });
});
