import { Reflector } from '@nestjs/core';
import { UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { NatsContext } from '@nestjs/microservices';
import { BusContext } from '../bus/transport/bus-context';
import { MemoryEphemeralStore } from '../pubsub';
import { testKeys } from '../testing';
import { AuthGuard, holdsRight } from './auth.guard';
import { SessionStateStore } from './session-state';
import { TokenService } from './token.service';

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
    for (const type of ['ws', 'rpc', 'graphql', 'anything']) expect(await guard.canActivate(contextOf(type))).toBe(false);
    // RPC from any other transport, or a context that merely looks like the bus's, is refused too.
    const lookalike = { subject: 'identity.users.list.v1', headers: {}, getArgs: () => [] };
    for (const rpcContext of [new NatsContext(['identity.users.list.v1', undefined]), lookalike, null]) {
      expect(await guard.canActivate(contextOf('rpc', rpcContext))).toBe(false);
    }
    // A bus context is honoured only in an RPC context, never to skip the session check of an HTTP request.
    const busContext = new BusContext([{ subject: 'identity.users.list.v1', headers: {} }]);
    for (const type of ['ws', 'graphql']) expect(await guard.canActivate(contextOf(type, busContext))).toBe(false);
    await expect(guard.canActivate(contextOf('http', busContext))).rejects.toBeInstanceOf(UnauthorizedException);
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
});
