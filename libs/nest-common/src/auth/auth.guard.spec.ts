import { Reflector } from '@nestjs/core';
import { HttpException, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { NatsContext } from '@nestjs/microservices';
import { BusContext } from '../bus/transport/bus-context';
import { MemoryEphemeralStore } from '../pubsub';
import { testKeys } from '../testing';
import { AuthGuard, SESSION_STATE_MESSAGES, holdsRight } from './auth.guard';
import type { RequestWithUser } from './decorators';
import { SessionStateStore } from './session-state';
import { SESSION_COOKIE, TokenService } from './token.service';

function contextOf(type: string, rpcContext?: unknown): ExecutionContext {
  const handler = () => undefined;
  return {
    getType: () => type,
    getHandler: () => handler,
    getClass: () => class Probe {},
    switchToHttp: () => ({ getRequest: () => ({ headers: {}, cookies: {} }) }),
    switchToRpc: () => ({ getData: () => ({}), getContext: () => rpcContext }),
  } as unknown as ExecutionContext;
}

describe('AuthGuard', () => {
  let store: MemoryEphemeralStore;
  let guard: AuthGuard;
  beforeEach(() => {
    store = new MemoryEphemeralStore();
    guard = new AuthGuard(new Reflector(), new TokenService(testKeys()), new SessionStateStore(store));
  });
  afterEach(() => store.close());

  it('fails closed for every context that is not HTTP (a WebSocket or foreign RPC handler is never unguarded)', async () => {
    for (const type of ['ws', 'rpc', 'graphql', 'anything'])
      expect(await guard.canActivate(contextOf(type))).toBe(false);
    // RPC from any other transport, or a context that merely looks like the bus's, is refused too.
    const lookalike = { subject: 'identity.users.list.v1', headers: {}, getArgs: () => [] };
    for (const rpcContext of [new NatsContext(['identity.users.list.v1', undefined]), lookalike, null]) {
      expect(await guard.canActivate(contextOf('rpc', rpcContext))).toBe(false);
    }
    // A bus context is honoured only in an RPC context, never to skip the session check of an HTTP request.
    const busContext = new BusContext([{ subject: 'identity.users.list.v1', headers: {} }]);
    for (const type of ['ws', 'graphql'])
      expect(await guard.canActivate(contextOf(type, busContext))).toBe(false);
    await expect(guard.canActivate(contextOf('http', busContext))).rejects.toBeInstanceOf(
      UnauthorizedException,
    );
  });

  it('lets the platform bus transport call its handlers (they answer services, not users)', async () => {
    const busContext = new BusContext([{ subject: 'identity.users.list.v1', headers: {} }]);
    expect(await guard.canActivate(contextOf('rpc', busContext))).toBe(true);
  });

  it('grants admin and teacher rights only to approved accounts', () => {
    const suspendedAdmin = { role: 'teacher' as const, approved: false, isAdmin: true };
    expect(holdsRight(suspendedAdmin, 'admin')).toBe(false);
    expect(holdsRight(suspendedAdmin, 'teacher')).toBe(false);
    expect(holdsRight({ ...suspendedAdmin, approved: true }, 'admin')).toBe(true);
    expect(holdsRight({ ...suspendedAdmin, approved: true }, 'teacher')).toBe(true);
    expect(holdsRight({ role: 'student', approved: false, isAdmin: false }, 'student')).toBe(true);
  });

  describe('while the shared session state cannot say (ADR 0022)', () => {
    const keys = testKeys();
    const tokens = new TokenService(keys);
    const userId = randomUUID();
    const signed = async () =>
      (
        await tokens.sign({
          sub: userId,
          tv: 1,
          role: 'teacher',
          approved: true,
          isAdmin: false,
          name: 'T',
          username: 't',
          email: 't@x.test',
        })
      ).token;
    const httpContext = (request: RequestWithUser): ExecutionContext =>
      ({
        getType: () => 'http',
        getHandler: () => httpContext,
        getClass: () => class Route {},
        switchToHttp: () => ({ getRequest: () => request }),
      }) as unknown as ExecutionContext;
    const requestWith = async (method: string): Promise<RequestWithUser> => ({
      method,
      headers: {},
      cookies: { [SESSION_COOKIE]: await signed() },
    });
    const refusal = async (guarded: AuthGuard, request: RequestWithUser) => {
      try {
        await guarded.canActivate(httpContext(request));
        return undefined;
      } catch (error) {
        return error instanceof HttpException
          ? { status: error.getStatus(), body: error.getResponse() as { message: string } }
          : error;
      }
    };

    it('decides reads from the signed token and refuses changes with 503 when the store is unreachable', async () => {
      const unreachable = new MemoryEphemeralStore();
      unreachable.mget = () =>
        Promise.reject(
          Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }),
        );
      const guarded = new AuthGuard(new Reflector(), tokens, new SessionStateStore(unreachable));
      for (const method of ['GET', 'HEAD']) {
        const request = await requestWith(method);
        expect(await guarded.canActivate(httpContext(request))).toBe(true);
        expect(request.user).toMatchObject({ id: userId, role: 'teacher' });
      }
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const request = await requestWith(method);
        expect(await refusal(guarded, request)).toEqual({
          status: 503,
          body: expect.objectContaining({ message: SESSION_STATE_MESSAGES.unreachable, retryAfter: 1 }),
        });
        expect(request.user).toBeUndefined();
      }
      await unreachable.close();
    });

    it('does the same while identity has not yet restored an emptied store, and decides from the store once it has', async () => {
      const empty = new MemoryEphemeralStore();
      const state = new SessionStateStore(empty);
      const guarded = new AuthGuard(new Reflector(), tokens, state);
      expect(await guarded.canActivate(httpContext(await requestWith('GET')))).toBe(true);
      expect(await refusal(guarded, await requestWith('POST'))).toEqual({
        status: 503,
        body: expect.objectContaining({ message: SESSION_STATE_MESSAGES.restoring }),
      });
      // Restored, with the user's token version moved on (say they were suspended meanwhile): now refused.
      await state.warm({ [userId]: 2 });
      await state.markRestored();
      const read = await requestWith('GET');
      await expect(guarded.canActivate(httpContext(read))).rejects.toBeInstanceOf(UnauthorizedException);
      expect(read.session?.state).toBe('stale');
      await empty.close();
    });
  });
});
