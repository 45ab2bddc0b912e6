import { TEST_ROUTES, TEST_SERVICES, TEST_SERVICE_NAMES } from '../test/support/test-services';
import { buildRouteTable, isApiPath, matchRoute as matchIn, type GatewayService } from './routes';

const matchRoute = (path: string, table = TEST_ROUTES) => matchIn(path, table);

/** Every path the SPA calls, from section 7 of both specs ({id} and friends filled in), over the test registry. */
const SPEC_CALLS: ReadonlyArray<readonly [string, string]> = [
  ['/api/auth/login', 'identity'],
  ['/api/auth/register', 'identity'],
  ['/api/auth/logout', 'identity'],
  ['/api/auth/google', 'identity'],
  ['/api/auth/me', 'identity'],
  ['/api/auth/quick-login', 'identity'],
  ['/api/posts/public', 'content'],
  ['/api/posts/public/how-to-teach-fractions', 'content'],
  ['/api/posts', 'content'],
  ['/api/posts/0b9c', 'content'],
  ['/api/posts/0b9c/status', 'content'],
  ['/api/categories', 'content'],
  ['/api/categories/12', 'content'],
  ['/api/posts/0b9c/comments', 'content'],
  ['/api/comments', 'content'],
  ['/api/comments/7/status', 'content'],
  ['/api/users', 'identity'],
  ['/api/users/7/approval', 'identity'],
  ['/api/users/7/role', 'identity'],
  ['/api/users/7/admin', 'identity'],
  ['/api/users/7', 'identity'],
  ['/api/admin/users/7/password', 'identity'],
  ['/api/upload-image', 'content'],
  ['/api/seo/settings', 'content'],
  ['/api/seo/sitemap/generate', 'content'],
  ['/api/admin/chatrooms', 'chat'],
  ['/api/admin/chatrooms/3', 'chat'],
  ['/api/quiz-grades', 'assessment'],
  ['/api/quiz-grades/4', 'assessment'],
  ['/api/audio-quizzes', 'assessment'],
  ['/api/audio-quizzes/4', 'assessment'],
  ['/api/text-quizzes', 'assessment'],
  ['/api/text-quizzes/4', 'assessment'],
  ['/api/text-quiz-grades', 'assessment'],
  ['/api/text-quiz-grades/4', 'assessment'],
  ['/api/audio-proxy', 'classroom'],
  ['/api/audio-lists', 'classroom'],
  ['/api/audio-lists/4', 'classroom'],
  ['/api/chatrooms', 'chat'],
  ['/ws', 'chat'],
  ['/api/lesson-plans', 'classroom'],
  ['/api/lesson-plans/4', 'classroom'],
  ['/api/google-slides', 'classroom'],
  ['/api/google-slides/4', 'classroom'],
  ['/sitemap.xml', 'content'],
  ['/robots.txt', 'content'],
  ['/rss.xml', 'content'],
  ['/uploads/ab/abcdef.png', 'content'],
];

describe('route table (the test registry: identity, content and the planned services)', () => {
  it.each(SPEC_CALLS)('routes %s to %s', (path, service) => {
    expect(matchRoute(path)?.service).toBe(service);
  });

  it.each(TEST_ROUTES.map((r) => [r.sample, r.service, r.path] as const))(
    'sample %s reaches %s through its own entry %s',
    (sample, service, path) => {
      const route = matchRoute(sample);
      expect(route?.service).toBe(service);
      expect(route?.path).toBe(path);
    },
  );

  it('gives every service at least one entry', () => {
    for (const service of TEST_SERVICE_NAMES) {
      expect(TEST_ROUTES.some((r) => r.service === service)).toBe(true);
    }
  });

  it('matches whole path segments only', () => {
    expect(matchRoute('/api/users-export')).toBeUndefined();
    expect(matchRoute('/api/postsX')).toBeUndefined();
    expect(matchRoute('/api/upload-image/extra')).toBeUndefined();
    expect(matchRoute('/ws/other')).toBeUndefined();
    expect(matchRoute('/uploads')?.service).toBe('content');
    expect(matchRoute('/sitemap.xml.bak')).toBeUndefined();
  });

  it('keeps the admin user and admin chatroom trees apart', () => {
    expect(matchRoute('/api/admin/users/1/password')?.service).toBe('identity');
    expect(matchRoute('/api/admin/chatrooms/1')?.service).toBe('chat');
    expect(matchRoute('/api/admin/other')).toBeUndefined();
  });

  it('leaves SPA screens and the static sounds to the web app', () => {
    for (const path of [
      '/',
      '/blog/my-post',
      '/admin/quiz-grades-dashboard',
      '/sounds/spanish/a.mp3',
      '/assets/index-abc.js',
    ]) {
      expect(matchRoute(path)).toBeUndefined();
      expect(isApiPath(path)).toBe(false);
    }
  });

  it('lets only the image upload use the larger body limit, and only the roster import the largest', () => {
    expect(TEST_ROUTES.filter((r) => r.bodyLimit === 'upload').map((r) => r.path)).toEqual([
      '/api/upload-image',
    ]);
    expect(TEST_ROUTES.filter((r) => r.bodyLimit === 'roster').map((r) => r.path)).toEqual([
      '/api/admin/roster/imports',
    ]);
  });

  it('puts /api and everything under it in the API namespace', () => {
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/api/nothing-here')).toBe(true);
    expect(isApiPath('/apixyz')).toBe(false);
  });

  it('sends a class’s gradebook export to assessment and the rest of /api/classes to identity', () => {
    expect(matchRoute('/api/classes/3f2a/results.zip')?.service).toBe('assessment');
    expect(matchRoute('/api/classes/3F2A-x/results.zip')?.service).toBe('assessment');
    expect(matchRoute('/api/classes')?.service).toBe('identity');
    expect(matchRoute('/api/classes/3f2a')?.service).toBe('identity');
    expect(matchRoute('/api/classes/3f2a/members')?.service).toBe('identity');
    // One segment exactly: an empty one, two, or a longer path stay identity's.
    expect(matchRoute('/api/classes//results.zip')?.service).toBe('identity');
    expect(matchRoute('/api/classes/a/b/results.zip')?.service).toBe('identity');
    expect(matchRoute('/api/classes/3f2a/results.zip/x')?.service).toBe('identity');
    expect(matchRoute('/api/classes/3f2a/results.zipx')?.service).toBe('identity');
  });

  it('tries pattern entries before every other entry, whatever their order', () => {
    const table = [
      { path: '/api/a', match: 'tree', service: 'identity', bodyLimit: 'default', sample: '/api/a/b' },
      {
        path: '/api/a/*/c',
        match: 'pattern',
        service: 'content',
        bodyLimit: 'default',
        sample: '/api/a/b/c',
      },
    ] as const;
    expect(matchRoute('/api/a/b/c', table)?.service).toBe('content');
    expect(matchRoute('/api/a/b', table)?.service).toBe('identity');
    expect(matchRoute('/api/a/*/c', table)?.service).toBe('content');
    expect(
      buildRouteTable(table.map(({ service: _s, ...r }, i) => ({ name: ['one', 'two'][i], routes: [r] }))),
    ).toHaveLength(2);
  });

  it('lets the first matching entry win', () => {
    const table = [
      { path: '/api/a', match: 'tree', service: 'identity', bodyLimit: 'default', sample: '/api/a/b' },
      { path: '/api/a/b', match: 'tree', service: 'content', bodyLimit: 'default', sample: '/api/a/b' },
    ] as const;
    expect(matchRoute('/api/a/b', table)?.service).toBe('identity');
  });
});

describe('buildRouteTable', () => {
  const svc = (name: string, ...paths: Array<[string, 'exact' | 'tree', string]>): GatewayService => ({
    name,
    routes: paths.map(([path, match, sample]) => ({ path, match, sample, bodyLimit: 'default' as const })),
  });

  it('keeps the services’ order and their routes’ order, each entry naming its service', () => {
    const table = buildRouteTable(TEST_SERVICES);
    expect(table.map((r) => `${r.service} ${r.path}`)).toEqual(
      TEST_SERVICES.flatMap((s) => s.routes.map((r) => `${s.name} ${r.path}`)),
    );
    expect(buildRouteTable([])).toEqual([]);
  });

  it('refuses an entry that an earlier one shadows, naming both', () => {
    expect(() =>
      buildRouteTable([
        svc('one', ['/api/a', 'tree', '/api/a/b']),
        svc('two', ['/api/a/b', 'tree', '/api/a/b/c']),
      ]),
    ).toThrow('Route /api/a/b of two: its sample /api/a/b/c goes to /api/a of one');
    expect(() =>
      buildRouteTable([svc('one', ['/api/a', 'exact', '/api/a']), svc('two', ['/api/a', 'tree', '/api/a'])]),
    ).toThrow(/goes to \/api\/a of one/);
  });

  it('refuses a sample its own entry does not match', () => {
    expect(() => buildRouteTable([svc('one', ['/api/a', 'exact', '/api/a/b'])])).toThrow(/goes to no route/);
  });

  it('refuses names UPSTREAM_<NAME> cannot map back, repeated names and relative paths', () => {
    expect(() => buildRouteTable([svc('lesson-plans')])).toThrow(/lower-case letters and digits/);
    expect(() => buildRouteTable([svc('Chat')])).toThrow(/lower-case letters and digits/);
    expect(() => buildRouteTable([svc('one'), svc('one')])).toThrow(/listed twice/);
    expect(() => buildRouteTable([svc('one', ['api/a', 'exact', 'api/a'])])).toThrow(/must start with \//);
  });
});
