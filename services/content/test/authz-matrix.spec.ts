import type { Category, Comment, Post } from '@district/contracts';
import {
  describeAuthzMatrix,
  PERSONAS,
  type FilledRequest,
  type HttpClient,
  type MatrixPersona,
} from '@district/nest-common/testing';
import matrix from './authz-matrix.json';
import { startContent, type ContentTestApp } from './support/content-app';
import { imageForm, png, uploadImage } from './support/upload';

let app: ContentTestApp;
let admin: HttpClient;
/** One client per persona, signed in once: content only verifies tokens, so a session outlives every cell. */
const clients = new Map<MatrixPersona, HttpClient>();
let counter = 0;

beforeAll(async () => {
  app = await startContent();
  for (const persona of PERSONAS) clients.set(persona, (await app.signIn(persona)).client);
  clients.set('suspendedAdmin', (await app.signIn('admin', { approved: false })).client);
  admin = clients.get('admin') as HttpClient;
});
afterAll(async () => {
  await app?.close();
});

describeAuthzMatrix({
  matrix,
  app: () => app,
  clientFor: (persona) => clients.get(persona) as HttpClient,
  fill: async (route): Promise<FilledRequest> => {
    const path = await fillPath(route.path);
    if (route.body === '$image') return { path, options: { multipart: imageForm(png(++counter)) } };
    return { path, options: { body: bodyFor(route.body) } };
  },
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
      spelling === 'upper'
        ? value.toUpperCase()
        : [...value].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
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
