import { randomUUID } from 'node:crypto';
import type { Grade, Quiz } from '@district/contracts';
import {
  describeAuthzMatrix,
  PERSONAS,
  type FilledRequest,
  type HttpClient,
  type MatrixPersona,
} from '@district/nest-common/testing';
import matrix from './authz-matrix.json';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

let app: AssessmentTestApp;
let teacher: HttpClient;
/** Another teacher than the matrix's teacher persona: the owner of the `{others…}` quizzes. */
let otherTeacher: HttpClient;
let student: HttpClient;
/** One client per persona, signed in once: assessment only verifies tokens, so a session outlives every cell. */
const clients = new Map<MatrixPersona, HttpClient>();
let counter = 0;

beforeAll(async () => {
  app = await startAssessment();
  for (const persona of PERSONAS) clients.set(persona, (await app.signIn(persona)).client);
  clients.set('suspendedAdmin', (await app.signIn('admin', { approved: false })).client);
  teacher = clients.get('teacher') as HttpClient;
  otherTeacher = (await app.signIn('teacher')).client;
  student = (await app.signIn('student')).client;
});
afterAll(async () => {
  await app?.close();
});

const KINDS = {
  audio: ['/api/audio-quizzes', '/api/quiz-grades'],
  text: ['/api/text-quizzes', '/api/text-quiz-grades'],
} as const;

async function newQuiz(kind: keyof typeof KINDS, author: HttpClient = teacher): Promise<string> {
  const body = (
    matrix.routes.find((r) => r.method === 'POST' && r.path === KINDS[kind][0]) as { body: unknown }
  ).body;
  const res = await author.post<Quiz>(KINDS[kind][0], fillBody(body));
  if (res.status !== 201) throw new Error(`quiz: ${res.status} ${res.text}`);
  return res.body.id;
}

async function newGrade(kind: keyof typeof KINDS, author: HttpClient = teacher): Promise<string> {
  const res = await student.post<Grade>(KINDS[kind][1], {
    quizId: await newQuiz(kind, author),
    userAnswers: [0],
  });
  if (res.status !== 201) throw new Error(`grade: ${res.status} ${res.text}`);
  return res.body.id;
}

function fillBody(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replace('$uniqueTitle', `Matrix quiz ${++counter}`));
}

describeAuthzMatrix({
  matrix,
  app: () => app,
  clientFor: (persona) => clients.get(persona) as HttpClient,
  fill: async (route): Promise<FilledRequest> => {
    let path = route.path
      .replace('{missing}', randomUUID())
      .replace('{malformed}', 'not-a-quiz')
      .replace('{someone}', randomUUID());
    for (const kind of ['audio', 'text'] as const) {
      const others = kind === 'audio' ? 'othersAudio' : 'othersText';
      if (path.includes(`{${kind}Quiz}`)) path = path.replace(`{${kind}Quiz}`, await newQuiz(kind));
      if (path.includes(`{${kind}Grade}`)) path = path.replace(`{${kind}Grade}`, await newGrade(kind));
      if (path.includes(`{${others}Quiz}`))
        path = path.replace(`{${others}Quiz}`, await newQuiz(kind, otherTeacher));
      if (path.includes(`{${others}Grade}`))
        path = path.replace(`{${others}Grade}`, await newGrade(kind, otherTeacher));
    }
    let body = route.body === undefined ? undefined : fillBody(route.body);
    for (const kind of ['audio', 'text'] as const) {
      if (body !== undefined && JSON.stringify(body).includes(`$${kind}Quiz`))
        body = JSON.parse(JSON.stringify(body).replace(`$${kind}Quiz`, await newQuiz(kind)));
    }
    return { path, options: { body } };
  },
});
