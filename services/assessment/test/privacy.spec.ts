import { randomUUID } from 'node:crypto';
import {
  PeopleDataSubjects,
  auditRecordedEventSchema,
  userExportReplySchema,
  type AuditRecordedEvent,
  type Grade,
  type Quiz,
} from '@district/contracts';
import type { BusSubscription } from '@district/nest-common';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

/** assessment's part of ADR 0021: its answer to the right-of-access request, and its grade deletions audited. */
let app: AssessmentTestApp;
let teacher: HttpClient;
let teacherId: string;
let subscription: BusSubscription;
const audits: AuditRecordedEvent[] = [];

beforeAll(async () => {
  app = await startAssessment();
  const signedIn = await app.signIn('teacher');
  teacher = signedIn.client;
  teacherId = signedIn.person.id;
  subscription = await app.runtime.bus.subscribe(
    PeopleDataSubjects.auditRecorded('assessment'),
    async (m) => void audits.push(auditRecordedEventSchema.parse(m.data)),
    { durable: 'assessment-test-audit' },
  );
});
afterAll(async () => {
  await subscription?.unsubscribe();
  await app?.close();
});

async function quiz(): Promise<Quiz> {
  const res = await teacher.post<Quiz>('/api/text-quizzes', {
    title: `Privacidad ${randomUUID().slice(0, 6)}`,
    maxAttempts: 1,
    questions: [{ question: 'rojo', options: ['red', 'blue', 'green', 'black'], correctAnswer: 0 }],
  });
  expect(res.status).toBe(201);
  return res.body;
}

it('answers assessment.user.export.v1 with the person’s results, accommodations and quizzes, and no one else’s', async () => {
  const q = await quiz();
  const { client: student, person } = await app.signIn('student');
  const { client: other } = await app.signIn('student');
  for (const c of [student, other])
    expect((await c.post('/api/text-quiz-grades', { quizId: q.id, userAnswers: [0] })).status).toBe(201);
  expect(
    (await teacher.put(`/api/text-quizzes/${q.id}/accommodations/${person.id}`, { extraAttempts: 3 })).status,
  ).toBe(204);

  const reply = userExportReplySchema.parse(
    await app.runtime.bus.request(PeopleDataSubjects.userExport('assessment'), {
      userId: person.id.toUpperCase(),
    }),
  );
  expect(reply.service).toBe('assessment');
  expect(reply.sections.grades).toEqual([
    expect.objectContaining({
      quizId: q.id,
      quizTitle: q.title,
      score: 100,
      userAnswers: [0],
      userName: person.name,
    }),
  ]);
  expect(reply.sections.accommodations).toEqual([
    expect.objectContaining({ quizId: q.id, extraAttempts: 3 }),
  ]);
  expect(reply.sections.quizzesCreated).toEqual([]);
  const mine = userExportReplySchema.parse(
    await app.runtime.bus.request(PeopleDataSubjects.userExport('assessment'), { userId: teacherId }),
  );
  expect(mine.sections.quizzesCreated.map((r) => r.id)).toContain(q.id);
  expect(mine.sections.grades).toEqual([]);
  // A request out of contract is refused, not answered.
  await expect(
    app.runtime.bus.request(PeopleDataSubjects.userExport('assessment'), { userId: 'me' }),
  ).rejects.toMatchObject({ code: 'REMOTE' });
});

it('publishes assessment.audit.recorded.v1 with each grade deletion: who, which result, when, from where', async () => {
  const q = await quiz();
  const { client: student, person } = await app.signIn('student');
  const grade = (await student.post<Grade>('/api/text-quiz-grades', { quizId: q.id, userAnswers: [0] })).body;
  expect(
    (
      await teacher.delete(`/api/text-quiz-grades/${grade.id}`, {
        headers: { 'x-forwarded-for': '203.0.113.5' },
      })
    ).status,
  ).toBe(204);
  await waitFor(async () => audits.some((a) => a.record.targetId === grade.id), 'the audit event');
  expect(audits.filter((a) => a.record.targetId === grade.id)).toEqual([
    {
      service: 'assessment',
      record: expect.objectContaining({
        actorId: teacherId,
        action: 'grade.deleted',
        targetType: 'grade',
        targetLabel: `${q.title} — ${person.name}`,
        details: { kind: 'text', userId: person.id },
        ip: expect.stringMatching(/\S/),
      }),
    },
  ]);
  // A refused deletion (no such result) is no action taken.
  const before = audits.length;
  expect((await teacher.delete(`/api/text-quiz-grades/${randomUUID()}`)).status).toBe(404);
  await new Promise((r) => setTimeout(r, 200));
  expect(audits).toHaveLength(before);
});
