import { ModulesContainer } from '@nestjs/core';
import type { Category, Comment, Post } from '@district/contracts';
import matrix from './authz-matrix.json';
import {
  openApiMatrixDifferences,
  registeredRouteKeys,
  routeKey,
  type HttpClient,
} from '@district/nest-common/testing';
import type { OpenApiDocument } from '@district/nest-common';
import { PERSONAS as ACCOUNT_PERSONAS, startContent, type ContentTestApp } from './support/content-app';

/** The account kinds, and an administrator whose approval an admin withdrew (ADR 0011). */
const PERSONAS = [...ACCOUNT_PERSONAS, 'suspendedAdmin'] as const;
type Persona = (typeof PERSONAS)[number];
import { png, uploadImage } from './support/upload';

interface MatrixRoute {
  method: string;
  path: string;
  body?: unknown;
  expect: Record<Persona, number>;
  messages?: Record<string, string>;
}

const routes = matrix.routes as MatrixRoute[];

let app: ContentTestApp;
let admin: HttpClient;
const clients = new Map<Persona, HttpClient>();
let counter = 0;

beforeAll(async () => {
  app = await startContent();
  for (const persona of ACCOUNT_PERSONAS) clients.set(persona, (await app.signIn(persona)).client);
  clients.set('suspendedAdmin', (await app.signIn('admin', { approved: false })).client);
  admin = clients.get('admin') as HttpClient;
});
afterAll(async () => {
  await app?.close();
});

it('lists every route of the service, for every persona', () => {
  expect([...matrix.personas].sort()).toEqual([...PERSONAS].sort());
  for (const route of routes) expect(Object.keys(route.expect).sort()).toEqual([...PERSONAS].sort());
  const inMatrix = new Set(routes.map((r) => routeKey(r.method, r.path)));
  expect(new Set(registeredRouteKeys(app.service.app.get(ModulesContainer)))).toEqual(inMatrix);
});

it('documents every route in its OpenAPI document, public exactly where the matrix lets anyone in', async () => {
  const res = await app.client().get<OpenApiDocument>('/openapi.json');
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe('3.1.0');
  expect(openApiMatrixDifferences(res.body, routes)).toEqual([]);
});

it('answers every route as the matrix says, for every persona', async () => {
  const mismatches: string[] = [];
  for (const route of routes) {
    for (const persona of PERSONAS) {
      const client = clients.get(persona) as HttpClient;
      const path = await fillPath(route.path);
      const res =
        route.body === '$image'
          ? await uploadImage(client, png(++counter))
          : await client.request(route.method, path, { body: bodyFor(route.body) });
      const expected = route.expect[persona];
      const message = route.messages?.[String(expected)];
      const actualMessage = (res.body as { message?: string })?.message;
      if (res.status !== expected || (message && actualMessage !== message)) {
        mismatches.push(
          `${route.method} ${route.path} as ${persona}: expected ${expected}${message ? ` "${message}"` : ''}, got ${res.status} ${res.text.slice(0, 120)}`,
        );
      }
    }
  }
  expect(mismatches).toEqual([]);
});

async function newPost(status: 'draft' | 'published'): Promise<Post> {
  const res = await admin.post<Post>('/api/posts', { title: `Matrix ${++counter}`, status });
  if (res.status !== 201) throw new Error(`post: ${res.status} ${res.text}`);
  return res.body;
}

/** `{name:upper}` / `{name:mixed}`: the placeholder's value spelled in another letter case. */
async function fillPath(path: string): Promise<string> {
  const spelled = /\{(\w+):(upper|mixed)\}/.exec(path);
  if (spelled) {
    const [token, name, spelling] = spelled;
    const value = (await fillPath(`{${name}}`)).replace(/^\/uploads\//, '');
    const respelled =
      spelling === 'upper' ? value.toUpperCase() : [...value].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
    return fillPath(path.replace(token, respelled));
  }
  let filled = path.replace('{nul}', '%00');
  if (filled.includes('{publishedPost}') || filled.includes('{publishedSlug}')) {
    const post = await newPost('published');
    filled = filled.replace('{publishedPost}', post.id).replace('{publishedSlug}', post.slug);
  }
  if (filled.includes('{draftPost}') || filled.includes('{draftSlug}')) {
    const post = await newPost('draft');
    filled = filled.replace('{draftPost}', post.id).replace('{draftSlug}', post.slug);
  }
  if (filled.includes('{category}')) {
    const res = await admin.post<Category>('/api/categories', { name: `Matrix category ${++counter}` });
    filled = filled.replace('{category}', res.body.id);
  }
  if (filled.includes('{comment}')) {
    const post = await newPost('published');
    const res = await admin.post<Comment>(`/api/posts/${post.id}/comments`, { content: 'Matrix' });
    filled = filled.replace('{comment}', res.body.id);
  }
  if (filled.includes('{image}')) {
    const res = await uploadImage(admin, png(++counter));
    filled = filled.replace('{image}', (res.body.url ?? '').replace('/uploads/', ''));
  }
  return filled;
}

function bodyFor(body: unknown): unknown {
  if (body === undefined) return undefined;
  return JSON.parse(JSON.stringify(body).replace('$uniqueName', `Matrix name ${++counter}`));
}
