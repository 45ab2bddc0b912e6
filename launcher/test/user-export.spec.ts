import { randomUUID } from 'node:crypto';
import { defineAssessmentService } from '@district/assessment';
import { defineChatService } from '@district/chat';
import { defineClassroomService } from '@district/classroom';
import { defineContentService } from '@district/content';
import { defineIdentityService } from '@district/identity';
import { peopleDataParticipants, startService, type RunningService } from '@district/nest-common';
import {
  createTestRuntime,
  dropSchema,
  HttpClient,
  TEST_DATABASE_URL,
  uniqueSchema,
} from '@district/nest-common/testing';
import { DataSource } from 'typeorm';
import { SERVICES } from '../src/targets';

/**
 * The right of access (issue #14 §5, ADR 0021) with the real services: identity and the four others in one
 * process on the in-process bus (as `--target=all` runs them), each in a throwaway schema of the real
 * PostgreSQL. One teacher's rows are put in every service (and a message in a chatroom's log, as chat's hub
 * writes it), next to someone else's; the admin's export holds exactly the teacher's, from every service's own
 * `<service>.user.export.v1` handler. The same over real NATS: launcher/test/user-deletion.spec.ts.
 */
jest.setTimeout(90_000);

const ADMIN = { email: 'privacy.admin@district.test', password: 'privacy-admin-1' };
const runtime = createTestRuntime({
  env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Pat Privacy' },
  // As the launcher hands it over: identity asks whom the registry lists (ADR 0036).
  peopleData: peopleDataParticipants(SERVICES),
});
const schemas = {
  identity: uniqueSchema('identity'),
  content: uniqueSchema('content'),
  chat: uniqueSchema('chat'),
  assessment: uniqueSchema('assessment'),
  classroom: uniqueSchema('classroom'),
};
const running: RunningService[] = [];
let identity: RunningService;
const db = (service: RunningService) => service.app.get(DataSource);

beforeAll(async () => {
  identity = await startService(defineIdentityService({ schema: schemas.identity }), runtime, {
    port: 0,
    host: '127.0.0.1',
  });
  running.push(identity);
  for (const define of [
    () => defineContentService({ schema: schemas.content }),
    () => defineChatService({ schema: schemas.chat }),
    () => defineAssessmentService({ schema: schemas.assessment }),
    () => defineClassroomService({ schema: schemas.classroom }),
  ])
    running.push(await startService(define(), runtime, { port: 0, host: '127.0.0.1' }));
});

afterAll(async () => {
  for (const service of running.reverse()) await service.close();
  await runtime.dispose();
  for (const schema of Object.values(schemas)) await dropSchema(TEST_DATABASE_URL, schema);
});

const client = () =>
  new HttpClient(runtime.publicUrl, {}, { [new URL(runtime.publicUrl).origin]: identity.url });
const service = (name: string) => running.find((s) => s.name === name) as RunningService;

it('assembles one file from every service’s own handler, holding the person’s data and no one else’s', async () => {
  const admin = client();
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  const teacher = client();
  const registered = await teacher.post<{ id: string }>('/api/auth/register', {
    name: 'Robin Rights',
    username: 'robin',
    email: 'robin@district.test',
    password: 'robin-pass-1',
    role: 'teacher',
  });
  expect(registered.status).toBe(201);
  const me = registered.body.id;
  const other = randomUUID();

  // content: a comment each on the admin's post.
  const content = db(service('content'));
  const [{ id: postId }] = (await content.query(
    `INSERT INTO posts (slug, title, author_id, author_name, status) VALUES ('saludos', 'Saludos', $1, 'Pat Privacy', 'published') RETURNING id`,
    [other],
  )) as { id: string }[];
  await content.query(
    `INSERT INTO comments (post_id, author_id, author_name, content, status) VALUES ($1, $2, 'Robin Rights', '¡Muy bien!', 'pending'), ($1, $3, 'Other', 'Not mine', 'approved')`,
    [postId, me, other],
  );
  // assessment: a result and an accommodation each.
  const assessment = db(service('assessment'));
  const [{ id: quizId }] = (await assessment.query(
    `INSERT INTO quizzes (kind, title, questions, created_by_id, created_by_name) VALUES ('text', 'Colores', '[]', $1, 'Pat Privacy') RETURNING id`,
    [other],
  )) as { id: string }[];
  for (const [user, name, score] of [
    [me, 'Robin Rights', 100],
    [other, 'Other', 0],
  ] as const) {
    await assessment.query(
      `INSERT INTO grades (kind, quiz_id, user_id, user_name, quiz_title, score, correct_answers, total_questions, passed, user_answers, questions, quiz_version)
       VALUES ('text', $1, $2, $3, 'Colores', $4, 1, 1, true, '[0]', '[]', 1)`,
      [quizId, user, name, score],
    );
    await assessment.query(
      `INSERT INTO accommodations (quiz_id, user_id, extra_attempts) VALUES ($1, $2, 2)`,
      [quizId, user],
    );
  }
  // classroom: an audio list each, a lesson plan and a slide deck of the teacher's.
  const classroom = db(service('classroom'));
  for (const [user, title] of [
    [me, 'Canciones'],
    [other, 'Not mine'],
  ] as const)
    await classroom.query(
      `INSERT INTO audio_lists (title, audio_files, creator_id, creator_name) VALUES ($1, '[]', $2, 'x')`,
      [title, user],
    );
  const phase = JSON.stringify({ timeAllotted: '', teacherWill: '', studentsWill: '', instructionTypes: [] });
  await classroom.query(
    `INSERT INTO lesson_plans (title, teacher, warm_up, explore, explain, elaborate, evaluate, creator_id, creator_name)
     VALUES ('Greetings', 'Robin Rights', $1, $1, $1, $1, $1, $2, 'Robin Rights')`,
    [phase, me],
  );
  await classroom.query(
    `INSERT INTO google_slides (title, google_slides_url, creator_id, creator_name) VALUES ('Números', 'https://docs.google.com/presentation/d/x/edit', $1, 'Robin Rights')`,
    [me],
  );
  // chat: invited to one room of two; a message each in that room's log, as the hub writes them.
  const chat = db(service('chat'));
  const [{ id: roomId }] = (await chat.query(
    `INSERT INTO chatrooms (name, invited_user_ids) VALUES ('Sala', $1) RETURNING id`,
    [[me, other]],
  )) as { id: string }[];
  await chat.query(`INSERT INTO chatrooms (name, invited_user_ids) VALUES ('Otra', $1)`, [[other]]);
  for (const [user, name, text] of [
    [me, 'Robin', 'Hola clase'],
    [other, 'Kim', `${me} {"type":"message"`],
  ] as const)
    await runtime.pubsub.appendAndPublish(
      `chat:room:${roomId}`,
      `chat:log:${roomId}`,
      `${user} ${JSON.stringify({ type: 'message', id: randomUUID(), name, role: 'teacher', text, timestamp: new Date().toISOString(), chatroom: roomId })}`,
      { keep: 200, ttlMs: 60_000 },
    );

  const res = await admin.get<{ services: Record<string, Record<string, Array<Record<string, unknown>>>> }>(
    `/api/admin/users/${me}/export`,
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="user-${me}-export.json"`);
  const { services } = res.body;
  expect(Object.keys(services).sort()).toEqual(['assessment', 'chat', 'classroom', 'content', 'identity']);
  expect(services.identity.user).toMatchObject({
    id: me,
    name: 'Robin Rights',
    email: 'robin@district.test',
  });
  expect(services.content.comments).toEqual([
    expect.objectContaining({ postId, postTitle: 'Saludos', content: '¡Muy bien!', status: 'pending' }),
  ]);
  expect(services.content.posts).toEqual([]);
  expect(services.assessment.grades).toEqual([
    expect.objectContaining({ quizId, quizTitle: 'Colores', score: 100, userAnswers: [0] }),
  ]);
  expect(services.assessment.accommodations).toEqual([expect.objectContaining({ quizId, extraAttempts: 2 })]);
  expect(services.assessment.quizzesCreated).toEqual([]);
  expect(services.classroom.audioLists).toEqual([expect.objectContaining({ title: 'Canciones' })]);
  expect(services.classroom.lessonPlans).toEqual([
    expect.objectContaining({ title: 'Greetings', teacher: 'Robin Rights' }),
  ]);
  expect(services.classroom.slides).toEqual([expect.objectContaining({ title: 'Números' })]);
  expect(services.chat.invitedTo).toEqual([expect.objectContaining({ id: roomId, name: 'Sala' })]);
  // Only the teacher's own message, even when someone else's text looks like the teacher's mark.
  expect(services.chat.messages).toEqual([
    expect.objectContaining({
      chatroomId: roomId,
      chatroomName: 'Sala',
      seq: 1,
      name: 'Robin',
      text: 'Hola clase',
    }),
  ]);
  expect(JSON.stringify(services)).not.toContain(other);
  expect(res.text).not.toContain('Not mine');
});
