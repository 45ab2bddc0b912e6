import { startFakeService, type FakeService } from './support/fake-service';
import { PUBLIC_ORIGIN, startGateway, type Harness } from './support/gateway-harness';
import { rawRequest as request } from '@district/nest-common/testing';
import type { MergedDocument } from '../src/api-docs';

function serviceDoc(paths: Record<string, Record<string, unknown>>) {
  return {
    openapi: '3.1.0',
    paths,
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'district_session' } },
      schemas: { Error: { type: 'object' } },
    },
  };
}

const op = (service: string, access: string, extra: Record<string, unknown> = {}) => ({
  operationId: `${service}.x`,
  tags: [service],
  'x-access': access,
  responses: { '200': { description: 'Success' } },
  ...extra,
});

describe('/api/docs', () => {
  let identity: FakeService;
  let content: FakeService;
  let harness: Harness;
  let contentDocReads = 0;

  beforeAll(async () => {
    identity = await startFakeService('identity');
    content = await startFakeService('content');
    const serve =
      (doc: unknown, count?: () => void) =>
      (req: { url?: string }, res: import('node:http').ServerResponse) => {
        if (req.url !== '/openapi.json') return false;
        count?.();
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(doc));
        return true;
      };
    identity.override = serve(
      serviceDoc({
        '/api/auth/login': {
          post: op('identity', 'public', {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { email: { type: 'string' }, password: { type: 'string' } },
                    required: ['email', 'password'],
                  },
                },
              },
            },
          }),
        },
        // Not routed to identity by the gateway: must not appear.
        '/api/posts/{id}': { get: op('identity', 'public') },
      }),
    );
    content.override = serve(
      serviceDoc({
        '/api/posts/{id}': { put: op('content', 'admin'), get: op('content', 'public') },
        '/api/posts/public': {
          get: op('content', 'public <script>', {
            parameters: [{ name: 'q', in: 'query', required: false }],
          }),
        },
      }),
      () => contentDocReads++,
    );
    harness = await startGateway({ upstreams: { identity: [identity.url], content: [content.url] } });
  });

  afterAll(async () => {
    await harness.close();
    await identity.kill();
    await content.kill();
  });

  it('merges the services’ documents, keeping only paths the route table sends to each service', async () => {
    const res = await request(harness.base, '/api/docs/openapi.json');
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.text) as MergedDocument;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: PUBLIC_ORIGIN }]);
    expect(Object.keys(doc.paths)).toEqual(['/api/auth/login', '/api/posts/{id}', '/api/posts/public']);
    expect(Object.keys(doc.paths['/api/posts/{id}']).sort()).toEqual(['get', 'put']);
    expect(doc.paths['/api/posts/{id}'].get.tags).toEqual(['content']);
    expect(doc.tags.map((t) => t.name)).toEqual(['identity', 'content']);
    expect(doc.components.securitySchemes.session).toBeDefined();
    // Services that are not deployed are not "missing".
    expect(doc.info.description).not.toContain('Not running');
  });

  it('renders a readable, escaped page and reuses the merged document', async () => {
    const before = contentDocReads;
    const res = await request(harness.base, '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<code>POST</code></td><td><code>/api/auth/login</code></td><td>public</td>');
    expect(res.text).toContain('application/json: email: string, password: string');
    expect(res.text).toContain('public &lt;script&gt;');
    expect(res.text).not.toContain('<script>');
    expect(contentDocReads).toBe(before);
    expect((await request(harness.base, '/api/docs', { method: 'POST' })).status).toBe(405);
  });

  it('names a deployed service that does not answer, and leaves its paths out', async () => {
    const down = await startFakeService('content');
    await down.kill();
    const h = await startGateway({ upstreams: { identity: [identity.url], content: [down.url] } });
    try {
      const doc = JSON.parse((await request(h.base, '/api/docs/openapi.json')).text) as MergedDocument;
      expect(doc.info.description).toContain('Not running when this was generated: content.');
      expect(Object.keys(doc.paths)).toEqual(['/api/auth/login']);
    } finally {
      await h.close();
    }
  });
});
