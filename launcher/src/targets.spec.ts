import { Subjects } from '@district/contracts';
import {
  buildRouteTable,
  gatewaySettingsFromEnv,
  isApiPath,
  matchRoute,
  WEBSOCKET_PATH,
} from '@district/gateway';
import { peopleDataParticipants, subjectMatches, type ServiceDefinition } from '@district/nest-common';
import { SERVICES, dependencyOrder, resolveTargets, serviceNames, streamSubjects } from './targets';

const def = (name: string, dependsOn: string[] = []): ServiceDefinition => ({
  name,
  dependsOn,
  defaultPort: 0,
  routes: [],
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
    expect(() => resolveTargets(['identity', 'nope'])).toThrow(
      /Unknown target\(s\): nope\. Known targets: all, gateway, identity/,
    );
  });

  it('orders services so dependencies start first', () => {
    const order = dependencyOrder([def('chat', ['identity']), def('content', ['identity']), def('identity')]);
    expect(order.map((s) => s.name)).toEqual(['identity', 'chat', 'content']);
  });

  it('reports a dependency cycle', () => {
    expect(() => dependencyOrder([def('a', ['b']), def('b', ['a'])])).toThrow(/cycle: a -> b -> a/);
  });
});

/** The public calls of identity, content and chat, from section 7 of both specs ({id} and friends filled in). */
const SPEC_CALLS: ReadonlyArray<readonly [string, string]> = [
  ['/api/auth/login', 'identity'],
  ['/api/auth/register', 'identity'],
  ['/api/auth/logout', 'identity'],
  ['/api/auth/google', 'identity'],
  ['/api/auth/me', 'identity'],
  ['/api/auth/quick-login', 'identity'],
  ['/api/users', 'identity'],
  ['/api/users/7/approval', 'identity'],
  ['/api/users/7/role', 'identity'],
  ['/api/users/7/admin', 'identity'],
  ['/api/users/7', 'identity'],
  ['/api/admin/users/7/password', 'identity'],
  ['/api/posts/public', 'content'],
  ['/api/posts/public/how-to-teach-fractions', 'content'],
  ['/api/posts', 'content'],
  ['/api/posts/0b9c', 'content'],
  ['/api/posts/0b9c/status', 'content'],
  ['/api/posts/0b9c/comments', 'content'],
  ['/api/categories', 'content'],
  ['/api/categories/12', 'content'],
  ['/api/comments', 'content'],
  ['/api/comments/7/status', 'content'],
  ['/api/upload-image', 'content'],
  ['/api/seo/settings', 'content'],
  ['/api/seo/sitemap/generate', 'content'],
  ['/sitemap.xml', 'content'],
  ['/robots.txt', 'content'],
  ['/rss.xml', 'content'],
  ['/uploads/ab/abcdef.png', 'content'],
  ['/api/chatrooms', 'chat'],
  ['/api/admin/chatrooms', 'chat'],
  ['/api/admin/chatrooms/3', 'chat'],
  ['/api/admin/chatrooms/invitable-users', 'chat'],
  ['/api/quiz-grades', 'assessment'],
  ['/api/quiz-grades/4', 'assessment'],
  ['/api/text-quiz-grades', 'assessment'],
  ['/api/text-quiz-grades/4', 'assessment'],
  ['/api/audio-quizzes', 'assessment'],
  ['/api/audio-quizzes/4', 'assessment'],
  ['/api/text-quizzes', 'assessment'],
  ['/api/text-quizzes/4', 'assessment'],
  ['/api/audio-lists', 'classroom'],
  ['/api/audio-lists/4', 'classroom'],
  ['/api/audio-proxy', 'classroom'],
  ['/api/lesson-plans', 'classroom'],
  ['/api/lesson-plans/4', 'classroom'],
  ['/api/google-slides', 'classroom'],
  ['/api/google-slides/4', 'classroom'],
];

/** Paths no registered service declares (every planned service is registered now): unmatched /api paths (JSON 404). */
const PLANNED_PATHS = ['/api/audio-proxy/4', '/api/lesson-plan', '/api/no-such-service/4'];

describe('what the gateway and the bus take from the registry', () => {
  const table = buildRouteTable(SERVICES);

  it('makes a route table in which every declared sample reaches its own entry', () => {
    expect(table.length).toBeGreaterThan(0);
    for (const entry of table) expect(matchRoute(entry.sample, table)).toBe(entry);
    expect(new Set(table.map((r) => r.service))).toEqual(new Set(serviceNames()));
  });

  it.each(SPEC_CALLS)('routes %s to %s', (path, service) => {
    expect(matchRoute(path, table)?.service).toBe(service);
  });

  it('leaves the planned services’ paths unrouted until a service declares them, and sends the WebSocket to chat', () => {
    for (const path of PLANNED_PATHS)
      expect([path, matchRoute(path, table), isApiPath(path)]).toEqual([path, undefined, true]);
    expect(matchRoute(WEBSOCKET_PATH, table)?.service).toBe('chat');
  });

  it('keeps the admin user and admin chatroom trees apart', () => {
    expect(matchRoute('/api/admin/users/1/password', table)?.service).toBe('identity');
    expect(matchRoute('/api/admin/chatrooms/1', table)?.service).toBe('chat');
    expect(matchRoute('/api/admin/other', table)).toBeUndefined();
    expect(matchRoute('/api/chatrooms-old', table)).toBeUndefined();
  });

  it('lets only the image upload and the roster upload use the larger body limits', () => {
    expect(table.filter((r) => r.bodyLimit === 'upload').map((r) => `${r.service} ${r.path}`)).toEqual([
      'content /api/upload-image',
    ]);
    expect(table.filter((r) => r.bodyLimit === 'roster').map((r) => `${r.service} ${r.path}`)).toEqual([
      'identity /api/admin/roster/imports',
    ]);
  });

  it('reads UPSTREAM_<NAME> for every registered service', () => {
    const env = Object.fromEntries(
      serviceNames().map((name) => [`UPSTREAM_${name.toUpperCase()}`, `http://${name}:3000`]),
    );
    expect(gatewaySettingsFromEnv(env, serviceNames()).upstreams).toEqual(
      Object.fromEntries(serviceNames().map((name) => [name, [`http://${name}:3000`]])),
    );
  });

  it('stores every event subject of the contracts in the stream, one `<name>.>` per service', () => {
    expect(streamSubjects()).toEqual(serviceNames().map((name) => `${name}.>`));
    for (const subject of Object.values(Subjects)) {
      expect([subject, streamSubjects().some((filter) => subjectMatches(filter, subject))]).toEqual([
        subject,
        true,
      ]);
    }
    expect(streamSubjects([def('library')])).toEqual(['library.>']);
  });

  it('hands the gateway the page plug-ins the services declare: content describes home, the blog and lesson pages only', () => {
    const plugins = SERVICES.filter((s) => s.pages).map((s) => s.name);
    expect(plugins).toEqual(['content']);
    const lessons = SERVICES.find((s) => s.name === 'content')?.pages;
    expect(lessons?.match('/blog/los-colores')).toBe('los-colores');
    expect([lessons?.match('/'), lessons?.match('/blog')]).toEqual(['/', '/blog']);
    expect(['/blog/Upper', '/blog/a/b', '/admin', '/tools'].map((p) => lessons?.match(p))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('what identity takes from the registry (ADR 0036)', () => {
  it('learns the services that hold people’s data from their declarations: who is asked for exports, whose audit counts', () => {
    expect(peopleDataParticipants(SERVICES)).toEqual([
      { service: 'content', audit: true, export: true },
      { service: 'chat', audit: true, export: true },
      { service: 'assessment', audit: true, export: true },
      { service: 'classroom', audit: false, export: true },
    ]);
    expect(
      peopleDataParticipants([...SERVICES, { ...def('library'), peopleData: { audit: true } }]).at(-1),
    ).toEqual({
      service: 'library',
      audit: true,
      export: false,
    });
  });
});
