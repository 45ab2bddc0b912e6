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

let app: ChatTestApp;
let admin: HttpClient;
/** One client per persona, signed in once: chat only verifies tokens, so a session outlives every cell. */
const clients = new Map<MatrixPersona, HttpClient>();
let counter = 0;

beforeAll(async () => {
  app = await startChat();
  // identity's part of the invite list, played on the in-process bus.
  await app.runtime.bus.reply(
    Subjects.identityUsersList,
    async (): Promise<UsersListReply> => ({ users: [] }),
    'identity',
  );
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
  fill: async (route): Promise<FilledRequest> => ({
    path: await fillPath(route.path),
    options: { body: bodyFor(route.body) },
  }),
});

async function newRoom(): Promise<Chatroom> {
  const res = await admin.post<Chatroom>('/api/admin/chatrooms', { name: `Matrix room ${++counter}` });
  if (res.status !== 201) throw new Error(`room: ${res.status} ${res.text}`);
  return res.body;
}

/** `{room:upper}` / `{room:mixed}`: the room's id spelled in another letter case. */
async function fillPath(path: string): Promise<string> {
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

function bodyFor(body: unknown): unknown {
  if (body === undefined) return undefined;
  return JSON.parse(
    JSON.stringify(body).replace('$uniqueName', `Matrix name ${++counter}`).replace('$someone', randomUUID()),
  );
}
