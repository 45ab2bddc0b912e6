import { Reflector } from '@nestjs/core';
import type { ExecutionContext } from '@nestjs/common';
import { MemoryEphemeralStore } from '../pubsub';
import { testKeys } from '../testing';
import { AuthGuard, holdsRight } from './auth.guard';
import { SessionStateStore } from './session-state';
import { TokenService } from './token.service';

function contextOf(type: string): ExecutionContext {
  const handler = () => undefined;
  return {
    getType: () => type,
    getHandler: () => handler,
    getClass: () => class Probe {},
    switchToHttp: () => ({ getRequest: () => ({ headers: {}, cookies: {} }) }),
  } as unknown as ExecutionContext;
}

describe('AuthGuard', () => {
  it('fails closed for every context that is not HTTP (a WebSocket or bus handler is never unguarded)', async () => {
    const store = new MemoryEphemeralStore();
    const guard = new AuthGuard(new Reflector(), new TokenService(testKeys()), new SessionStateStore(store));
    for (const type of ['ws', 'rpc', 'graphql', 'anything']) expect(await guard.canActivate(contextOf(type))).toBe(false);
    await store.close();
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
