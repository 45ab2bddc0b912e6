import { randomUUID } from 'node:crypto';
import {
  describeAuthzMatrix,
  PERSONAS,
  type FilledRequest,
  type HttpClient,
  type MatrixPersona,
} from '@district/nest-common/testing';
import matrix from './authz-matrix.json';
import { publishClass, publishSchool } from '@district/nest-common/testing';
import { startClassroom, type ClassroomTestApp } from './support/classroom-app';

let app: ClassroomTestApp;
/** One client per persona, signed in once: classroom only verifies tokens, so a session outlives every cell. */
const clients = new Map<MatrixPersona, HttpClient>();
/** Each signed-in persona's user id (school snapshots name them). */
const ids = new Map<MatrixPersona, string>();
/** Another teacher: the creator of the `{others…}` and `{…school…}` items. */
let otherTeacher: HttpClient;
let otherTeacherId: string;
let counter = 0;

beforeAll(async () => {
  app = await startClassroom();
  for (const persona of PERSONAS) {
    const { client, person } = await app.signIn(persona);
    clients.set(persona, client);
    ids.set(persona, person.id);
  }
  const suspended = await app.signIn('admin', { approved: false });
  clients.set('suspendedAdmin', suspended.client);
  ids.set('suspendedAdmin', suspended.person.id);
  const other = await app.signIn('teacher', { name: 'Other Teacher' });
  otherTeacher = other.client;
  otherTeacherId = other.person.id;
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

async function fillBody(body: unknown): Promise<unknown> {
  let text = JSON.stringify(body).replace('$uniqueTitle', `Matrix item ${++counter}`);
  if (text.includes('$otherSchool')) text = text.replace('$otherSchool', await newSchool([]));
  return JSON.parse(text);
}

/** A fresh school of the district (another teacher teaches a class there) with these administrators. */
async function newSchool(adminIds: string[]): Promise<string> {
  const schoolId = randomUUID();
  await publishSchool(app, schoolId, adminIds);
  await publishClass(app, { classId: randomUUID(), schoolId, teacherIds: [otherTeacherId], studentIds: [] });
  return schoolId;
}

async function newItem(
  kind: keyof typeof KINDS,
  creator: HttpClient,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const route = matrix.routes.find((r) => r.method === 'POST' && r.path === KINDS[kind]) as { body: unknown };
  const res = await creator.post<{ id: string }>(KINDS[kind], {
    ...((await fillBody(route.body)) as object),
    ...extra,
  });
  if (res.status !== 201) throw new Error(`${kind}: ${res.status} ${res.text}`);
  return res.body.id;
}

describeAuthzMatrix({
  matrix,
  app: () => app,
  clientFor: (persona) => clients.get(persona) as HttpClient,
  fill: async (route, persona): Promise<FilledRequest> => {
    let path = route.path.replace('{missing}', randomUUID()).replace('{malformed}', 'not-an-item');
    for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
      const own = `{${kind[0].toLowerCase()}${kind.slice(1)}}`;
      if (path.includes(own))
        path = path.replace(own, await newItem(kind, clients.get('teacher') as HttpClient));
      if (path.includes(`{others${kind}}`))
        path = path.replace(`{others${kind}}`, await newItem(kind, otherTeacher));
      // Another teacher's item of a school the persona administers, or of one it does not.
      for (const [placeholder, administers] of [
        [`{school${kind}}`, true],
        [`{otherSchool${kind}}`, false],
      ] as const) {
        if (!path.includes(placeholder)) continue;
        const me = ids.get(persona);
        const schoolId = await newSchool(administers && me ? [me] : []);
        path = path.replace(placeholder, await newItem(kind, otherTeacher, { schoolId }));
      }
    }
    return { path, options: { body: route.body === undefined ? undefined : await fillBody(route.body) } };
  },
});
