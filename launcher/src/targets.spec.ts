import type { ServiceDefinition } from '@district/nest-common';
import { dependencyOrder, resolveTargets } from './targets';

const def = (name: string, dependsOn: string[] = []): ServiceDefinition => ({
  name,
  dependsOn,
  defaultPort: 0,
  rootModule: () => {
    throw new Error('not used');
  },
});

describe('target registry', () => {
  it('expands all to the gateway and every service', () => {
    const resolved = resolveTargets(['all']);
    expect(resolved.gateway).toBe(true);
    expect(resolved.services.map((s) => s.name)).toContain('identity');
  });

  it('runs only the named targets', () => {
    expect(resolveTargets(['identity'])).toMatchObject({ gateway: false, services: [{ name: 'identity' }] });
    expect(resolveTargets(['gateway'])).toMatchObject({ gateway: true, services: [] });
  });

  it('names unknown targets and lists the known ones', () => {
    expect(() => resolveTargets(['identity', 'nope'])).toThrow(/Unknown target\(s\): nope\. Known targets: all, gateway, identity/);
  });

  it('orders services so dependencies start first', () => {
    const order = dependencyOrder([def('chat', ['identity']), def('content', ['identity']), def('identity')]);
    expect(order.map((s) => s.name)).toEqual(['identity', 'chat', 'content']);
  });

  it('reports a dependency cycle', () => {
    expect(() => dependencyOrder([def('a', ['b']), def('b', ['a'])])).toThrow(/cycle: a -> b -> a/);
  });
});
