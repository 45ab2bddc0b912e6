import { randomUUID } from 'node:crypto';
import {
  describeAuthzMatrix,
  PERSONAS,
  type FilledRequest,
  type HttpClient,
  type MatrixPersona,
} from '@district/nest-common/testing';
import matrix from './authz-matrix.json';
import { startClassroom, type ClassroomTestApp } from './support/classroom-app';

let app: ClassroomTestApp;
/** One client per persona, signed in once: classroom only verifies tokens, so a session outlives every cell. */
const clients = new Map<MatrixPersona, HttpClient>();
/** Another teacher: the creator of the `{others…}` items. */
let otherTeacher: HttpClient;
let counter = 0;

beforeAll(async () => {
  app = await startClassroom();
  for (const persona of PERSONAS) clients.set(persona, (await app.signIn(persona)).client);
  clients.set('suspendedAdmin', (await app.signIn('admin', { approved: false })).client);
  otherTeacher = (await app.signIn('teacher', { name: 'Other Teacher' })).client;
});
afterAll(async () => {
  await app?.close();
});

/** Each item kind: its route and a body that creates one (the matrix's first POST of that route). */
const KINDS = {
  AudioList: '/api/audio-lists',
  LessonPlan: '/api/lesson-plans',
  Slide: '/api/google-slides',
} as const;

function fillBody(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replace('$uniqueTitle', `Matrix item ${++counter}`));
}

async function newItem(kind: keyof typeof KINDS, creator: HttpClient): Promise<string> {
  const route = matrix.routes.find((r) => r.method === 'POST' && r.path === KINDS[kind]) as { body: unknown };
  const res = await creator.post<{ id: string }>(KINDS[kind], fillBody(route.body));
  if (res.status !== 201) throw new Error(`${kind}: ${res.status} ${res.text}`);
  return res.body.id;
}

describeAuthzMatrix({
  matrix,
  app: () => app,
  clientFor: (persona) => clients.get(persona) as HttpClient,
  fill: async (route): Promise<FilledRequest> => {
    let path = route.path.replace('{missing}', randomUUID()).replace('{malformed}', 'not-an-item');
    for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
      const own = `{${kind[0].toLowerCase()}${kind.slice(1)}}`;
      if (path.includes(own))
        path = path.replace(own, await newItem(kind, clients.get('teacher') as HttpClient));
      if (path.includes(`{others${kind}}`))
        path = path.replace(`{others${kind}}`, await newItem(kind, otherTeacher));
    }
    return { path, options: { body: route.body === undefined ? undefined : fillBody(route.body) } };
  },
});
