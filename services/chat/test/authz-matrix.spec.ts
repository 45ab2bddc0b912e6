import { randomUUID } from 'node:crypto';
import { Subjects, type Chatroom, type UsersListReply } from '@district/contracts';
import {
  describeAuthzMatrix,
  PERSONAS,
  type FilledRequest,
  type HttpClient,
  type MatrixPersona,
} from '@district/nest-common/testing';
import matrix from './authz-matrix.json';
import { startChat, type ChatTestApp } from './support/chat-app';
import { publishClass } from '@district/nest-common/testing';

let app: ChatTestApp;
let admin: HttpClient;
/** One client per persona, signed in once: chat only verifies tokens, so a session outlives every cell. */
const clients = new Map<MatrixPersona, HttpClient>();
/** Each signed-in persona's user id (class snapshots enrol them). */
const ids = new Map<MatrixPersona, string>();
let counter = 0;

beforeAll(async () => {
  app = await startChat();
  // identity's part of the invite list, played on the in-process bus.
  await app.runtime.bus.reply(
    Subjects.identityUsersList,
    async (): Promise<UsersListReply> => ({ users: [] }),
    'identity',
  );
  for (const persona of PERSONAS) {
    const { client, person } = await app.signIn(persona);
    clients.set(persona, client);
    ids.set(persona, person.id);
  }
  const suspended = await app.signIn('admin', { approved: false });
  clients.set('suspendedAdmin', suspended.client);
  ids.set('suspendedAdmin', suspended.person.id);
  admin = clients.get('admin') as HttpClient;
});
afterAll(async () => {
  await app?.close();
});

describeAuthzMatrix({
  matrix,
  app: () => app,
  clientFor: (persona) => clients.get(persona) as HttpClient,
  fill: async (route, persona): Promise<FilledRequest> => ({
    path: await fillPath(route.path, persona),
    options: { body: await bodyFor(route.body, persona) },
  }),
});

async function newRoom(): Promise<Chatroom> {
  const res = await admin.post<Chatroom>('/api/admin/chatrooms', { name: `Matrix room ${++counter}` });
  if (res.status !== 201) throw new Error(`room: ${res.status} ${res.text}`);
  return res.body;
}

/**
 * A fresh class of a school of its own: `own` enrols the persona (teachers and administrators as its teacher,
 * students and pending accounts as a student), else someone else teaches it.
 */
async function newClass(persona: MatrixPersona, own: boolean): Promise<string> {
  const classId = randomUUID();
  const member = own ? ids.get(persona) : undefined;
  const teaches = persona === 'teacher' || persona === 'admin' || persona === 'suspendedAdmin';
  await publishClass(app, {
    classId,
    schoolId: randomUUID(),
    teacherIds: member && teaches ? [member] : [randomUUID()],
    studentIds: member && !teaches ? [member] : [],
  });
  return classId;
}

async function newClassRoom(persona: MatrixPersona, own: boolean): Promise<Chatroom> {
  const classId = await newClass(persona, own);
  const res = await admin.post<Chatroom>('/api/admin/chatrooms', {
    name: `Class room ${++counter}`,
    classId,
  });
  if (res.status !== 201) throw new Error(`class room: ${res.status} ${res.text}`);
  return res.body;
}

/** `{room:upper}` / `{room:mixed}`: the room's id spelled in another letter case. */
async function fillPath(path: string, persona: MatrixPersona): Promise<string> {
  if (path.includes('{classRoom}'))
    return path.replace('{classRoom}', (await newClassRoom(persona, true)).id);
  if (path.includes('{otherClassRoom}'))
    return path.replace('{otherClassRoom}', (await newClassRoom(persona, false)).id);
  let filled = path
    .replace('{nul}', '%00')
    .replace('{malformed}', 'not-a-room')
    .replace('{missing}', randomUUID());
  const spelled = /\{room:(upper|mixed)\}/.exec(filled);
  if (spelled) {
    const id = (await newRoom()).id;
    const respelled =
      spelled[1] === 'upper'
        ? id.toUpperCase()
        : [...id].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
    filled = filled.replace(spelled[0], respelled);
  }
  if (filled.includes('{room}')) filled = filled.replace('{room}', (await newRoom()).id);
  return filled;
}

async function bodyFor(body: unknown, persona: MatrixPersona): Promise<unknown> {
  if (body === undefined) return undefined;
  let text = JSON.stringify(body)
    .replace('$uniqueName', `Matrix name ${++counter}`)
    .replace('$someone', randomUUID());
  if (text.includes('$ownClass')) text = text.replace('$ownClass', await newClass(persona, true));
  if (text.includes('$otherClass')) text = text.replace('$otherClass', await newClass(persona, false));
  return JSON.parse(text);
}
