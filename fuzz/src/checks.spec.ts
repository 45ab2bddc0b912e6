import fc from 'fast-check';
import { leaksIn, problemsWith, refusal, type Answer } from './checks';
import { operationsOf, requestArbitrary, type FuzzRequest, type Operation } from './request-arbitrary';

const op: Operation = {
  method: 'POST',
  template: '/api/posts',
  access: 'admin',
  pathParams: [],
  query: [],
  body: { contentType: 'application/json', schema: {} },
};
const request = (flags: Partial<FuzzRequest['flags']> = {}): FuzzRequest => ({
  method: 'POST',
  path: '/api/posts',
  headers: {},
  flags: { badOrigin: false, pathEscapes: false, urlMalformed: false, bodyUnparsable: false, ...flags },
});
const json = (status: number, body: unknown): Answer => ({
  status,
  contentType: 'application/json; charset=utf-8',
  text: JSON.stringify(body),
});

describe('the checks on each answer', () => {
  it('refuses by x-access: anonymous 401 off public routes, 403 for the wrong role, a suspended admin is neither admin nor teacher', () => {
    expect(refusal('public', 'anonymous')).toBeUndefined();
    expect(refusal('signed-in', 'anonymous')).toBe(401);
    expect(refusal('signed-in', 'pending')).toBeUndefined();
    expect(refusal('teacher or admin', 'student')).toBe(403);
    expect(refusal('teacher or admin', 'suspendedAdmin')).toBe(403);
    expect(refusal('admin', 'teacher')).toBe(403);
    expect(refusal('admin', 'admin')).toBeUndefined();
    expect(refusal('admin or class manager', 'student')).toBe(403);
    expect(refusal('admin or class manager', 'teacher')).toBeUndefined();
    expect(refusal('approved', 'pending')).toBe(403);
    expect(refusal('approved', 'suspendedAdmin')).toBe(403);
    expect(refusal('approved', 'student')).toBeUndefined();
    expect(refusal('admin or school administrator', 'pending')).toBe(403);
    expect(refusal('admin or school administrator', 'student')).toBe(403);
    expect(refusal('admin or school administrator', 'suspendedAdmin')).toBe(403);
    expect(refusal('admin or school administrator', 'teacher')).toBeUndefined();
    expect(() => refusal('whoever', 'admin')).toThrow('unknown x-access');
  });

  it('finds stack traces, file paths, SQL and internal names in error bodies, and not in plain messages', () => {
    expect(
      leaksIn('QueryFailedError: duplicate key value violates unique constraint "posts_slug_key"'),
    ).toEqual(['SQL', 'internal name']);
    expect(
      leaksIn('at PostsService.create (/work/main/services/content/src/posts/posts.service.ts:73:22)'),
    ).toEqual(expect.arrayContaining(['stack frame', 'file path', 'internal name']));
    expect(leaksIn('SELECT id FROM posts WHERE slug = $1')).toEqual(['SQL']);
    expect(leaksIn('Cannot read properties of undefined (TypeError)')).toEqual(['internal name']);
    expect(leaksIn('Post not found')).toEqual([]);
    expect(leaksIn('Title is required')).toEqual([]);
    expect(leaksIn('Please select an image file')).toEqual([]);
  });

  it('fails a 500, a 4xx without a JSON message, and a refused caller who got anything but the refusal', () => {
    expect(problemsWith(op, 'admin', request(), json(500, { message: 'x' }))).toEqual(['answered 500']);
    expect(
      problemsWith(op, 'admin', request(), { status: 400, contentType: 'text/plain', text: 'Bad Request' }),
    ).toEqual(['400 body is not JSON', '400 content-type is text/plain']);
    expect(problemsWith(op, 'admin', request(), json(404, { error: 'x' }))).toEqual([
      '404 body has no message',
    ]);
    expect(problemsWith(op, 'student', request(), json(201, { id: 'x' }))).toEqual([
      'refused caller got 201, not 403',
    ]);
    expect(problemsWith(op, 'anonymous', request(), json(400, { message: 'Title is required' }))).toEqual([
      'refused caller got 400, not 401',
    ]);
    expect(problemsWith(op, 'student', request(), json(403, { message: 'Admin access required' }))).toEqual(
      [],
    );
  });

  it('accepts only the refusals that come before any route code', () => {
    expect(
      problemsWith(
        op,
        'anonymous',
        request({ badOrigin: true }),
        json(403, { message: 'Cross-origin request refused' }),
      ),
    ).toEqual([]);
    expect(
      problemsWith(
        op,
        'anonymous',
        request({ bodyUnparsable: true }),
        json(415, { message: 'Unsupported Media Type' }),
      ),
    ).toEqual([]);
    expect(
      problemsWith(
        op,
        'anonymous',
        request({ urlMalformed: true }),
        json(400, { message: 'Invalid address' }),
      ),
    ).toEqual([]);
    expect(
      problemsWith(op, 'anonymous', request(), json(431, { message: 'Request headers too large' })),
    ).toEqual([]);
    // …and not a success, whatever the request looked like.
    expect(
      problemsWith(op, 'anonymous', request({ bodyUnparsable: true, badOrigin: true }), json(200, {})),
    ).toEqual(['refused caller got 200, not 401']);
  });

  it('lets a 5xx through only where the authz matrix expects it of the route', () => {
    const google: Operation = {
      ...op,
      method: 'GET',
      template: '/api/auth/google',
      access: 'public',
      body: undefined,
    };
    const page = {
      status: 501,
      contentType: 'text/html',
      text: '<p>Sign-in with this provider is not configured on this site.</p>',
    };
    expect(problemsWith(google, 'anonymous', request(), page, new Set(['GET /api/auth/google 501']))).toEqual(
      [],
    );
    expect(problemsWith(google, 'anonymous', request(), page)).toEqual(['answered 501']);
  });
});

describe('the requests drawn for a route', () => {
  const [route] = operationsOf({
    paths: {
      '/api/things/{id}': {
        put: {
          'x-access': 'admin',
          parameters: [{ name: 'id', in: 'path', schema: { type: 'string' } }],
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { title: { type: 'string', minLength: 1, maxLength: 10 } },
                  required: ['title'],
                },
              },
            },
          },
        },
      },
    },
  });
  const sample = fc.sample(
    requestArbitrary(route, () => ['00000000-0000-4000-8000-000000000001'], 'http://site.test', [
      { title: 'Known good' },
    ]),
    { seed: 7, numRuns: 400 },
  );

  it('reads the route, its access and its body schema from the document', () => {
    expect(route).toMatchObject({
      method: 'PUT',
      template: '/api/things/{id}',
      access: 'admin',
      pathParams: ['id'],
    });
  });

  it('is the same for the same seed', () => {
    const again = fc.sample(
      requestArbitrary(route, () => ['00000000-0000-4000-8000-000000000001'], 'http://site.test', [
        { title: 'Known good' },
      ]),
      { seed: 7, numRuns: 400 },
    );
    expect(again.map((r) => r.path)).toEqual(sample.map((r) => r.path));
  });

  it('covers known ids, hostile ids, valid and broken bodies, odd content types and foreign origins', () => {
    const paths = sample.map((r) => r.path.split('?')[0]);
    expect(paths).toContain('/api/things/00000000-0000-4000-8000-000000000001');
    expect(paths).toContain(
      '/api/things/00000000-0000-4000-8000-000000000001'.toUpperCase().replace('/API/THINGS', '/api/things'),
    );
    expect(paths.some((p) => p.endsWith('/..') || p.includes('%2F'))).toBe(true);
    const bodies = sample.map((r) => r.body?.toString('utf8') ?? '');
    expect(bodies).toContain('{"title":"Known good"}');
    expect(bodies.some((b) => b.includes('"title":"aaaaaaaaaaa"'))).toBe(true);
    expect(bodies.some((b) => b.includes('\\u0000') || b.includes('\\ud800'))).toBe(true);
    expect(sample.some((r) => r.flags.bodyUnparsable)).toBe(true);
    expect(sample.some((r) => r.headers['content-type'] !== 'application/json')).toBe(true);
    expect(sample.some((r) => r.flags.badOrigin)).toBe(true);
    expect(sample.some((r) => r.path.includes('?'))).toBe(true);
  });
});
