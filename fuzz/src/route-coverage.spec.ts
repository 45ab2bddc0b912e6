import { documentedRouteCount, operationsOf, type OpenApiDocument } from './request-arbitrary';
import { routeCoverage } from './route-coverage';

const doc = {
  paths: {
    '/api/things': { get: {}, post: {}, parameters: [], summary: 'things' },
    '/api/things/{id}': { get: {}, head: {}, delete: {}, 'x-owner': 'content' },
  },
} as unknown as OpenApiDocument;

describe('the routes the fuzzer must cover', () => {
  it('counts every method of every path item, and nothing else, and fuzzes each of them', () => {
    expect(documentedRouteCount(doc)).toBe(5);
    // HEAD is a route too: the old list of five verbs would have dropped it silently.
    expect(operationsOf(doc).map((op) => `${op.method} ${op.template}`)).toEqual([
      'GET /api/things',
      'POST /api/things',
      'GET /api/things/{id}',
      'DELETE /api/things/{id}',
      'HEAD /api/things/{id}',
    ]);
    expect(operationsOf(doc)).toHaveLength(documentedRouteCount(doc));
  });

  it('names the matrix rows no documented route answers, and the documented routes no row exercises', () => {
    const expect200 = { anonymous: 200 };
    const coverage = routeCoverage(operationsOf(doc), [
      {
        routes: [
          { method: 'GET', path: '/api/things', expect: expect200 },
          { method: 'GET', path: '/api/things/{thing}', expect: expect200 },
          { method: 'GET', path: '/api/things/{other}?q=1', expect: expect200 },
          { method: 'POST', path: '/api/things', expect: expect200 },
          { method: 'PATCH', path: '/api/things/{thing}', expect: expect200 },
          { method: 'GET', path: '/api/things/{thing}/more', expect: expect200 },
          // A service's own probe is in its matrix, never in the gateway's document.
          { method: 'GET', path: '/readyz', expect: expect200 },
          { method: 'GET', path: '/healthz/x', expect: expect200 },
        ],
      },
    ]);
    expect(coverage.rows).toHaveLength(4);
    expect(coverage.unmatchedRows).toEqual([
      'PATCH /api/things/{thing}',
      'GET /api/things/{thing}/more',
      'GET /healthz/x',
    ]);
    expect(coverage.uncoveredRoutes).toEqual(['DELETE /api/things/{id}', 'HEAD /api/things/{id}']);
  });

  it('pairs a row with the literal route before a parameter that would also take it', () => {
    const withLiteral = {
      paths: { '/api/things/{id}': { get: {} }, '/api/things/public': { get: {} } },
    } as unknown as OpenApiDocument;
    const coverage = routeCoverage(operationsOf(withLiteral), [
      {
        routes: [
          { method: 'GET', path: '/api/things/public', expect: {} },
          { method: 'GET', path: '/api/things/{thing}', expect: {} },
        ],
      },
    ]);
    expect(coverage.rows.map(({ op, row }) => `${row.path} -> ${op.template}`)).toEqual([
      '/api/things/public -> /api/things/public',
      '/api/things/{thing} -> /api/things/{id}',
    ]);
    expect(coverage.uncoveredRoutes).toEqual([]);
  });
});
