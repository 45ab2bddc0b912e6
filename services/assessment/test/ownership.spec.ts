import { randomUUID } from 'node:crypto';
import {
  PeopleDataSubjects,
  AssessmentMessages as M,
  auditRecordedEventSchema,
  Subjects,
  type AuditRecordedEvent,
  type AuthoredQuiz,
  type Grade,
  type Quiz,
} from '@district/contracts';
import type { BusSubscription } from '@district/nest-common';
import { waitFor, type HttpClient, type TestPerson } from '@district/nest-common/testing';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

/**
 * Issue #34 item 6 (ADR 0033): a quiz belongs to its creator. Another teacher may not edit or delete it, set extra
 * attempts on it or delete its results (403 with the owner rule's words); administrators may; every one of these
 * changes reaches the audit log, and a refused one records nothing.
 */
let app: AssessmentTestApp;
let owner: HttpClient;
let ownerPerson: TestPerson;
let other: HttpClient;
let admin: HttpClient;
let adminPerson: TestPerson;
let subscription: BusSubscription;
const audits: AuditRecordedEvent[] = [];

beforeAll(async () => {
  app = await startAssessment();
  ({ client: owner, person: ownerPerson } = await app.signIn('teacher', { name: 'Ms. Owner' }));
  ({ client: other } = await app.signIn('teacher', { name: 'Mr. Other' }));
  ({ client: admin, person: adminPerson } = await app.signIn('admin', { name: 'Ada Admin' }));
  subscription = await app.runtime.bus.subscribe(
    PeopleDataSubjects.auditRecorded('assessment'),
    async (m) => void audits.push(auditRecordedEventSchema.parse(m.data)),
    { durable: 'assessment-ownership-audit' },
  );
});
afterAll(async () => {
  await subscription?.unsubscribe();
  await app?.close();
});

const body = (title: string, maxAttempts = 1) => ({
  title,
  maxAttempts,
  questions: [{ question: 'rojo', options: ['red', 'blue', 'green', 'black'], correctAnswer: 0 }],
});

async function ownersQuiz(): Promise<Quiz> {
  const res = await owner.post<Quiz>('/api/text-quizzes', body(`Colores ${randomUUID().slice(0, 6)}`));
  expect(res.status).toBe(201);
  return res.body;
}

const auditsOf = (targetId: string) => audits.filter((a) => a.record.targetId === targetId);
const quietly = () => new Promise((r) => setTimeout(r, 300));

describe('another teacher', () => {
  it('gets 403 with the owner rule for every change to the quiz, and nothing changes or is audited', async () => {
    const quiz = await ownersQuiz();
    const { client: student, person } = await app.signIn('student');
    const grade = (await student.post<Grade>('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [0] }))
      .body;
    // The id as any case: decided from the stored row, never from the text of the path.
    const path = `/api/text-quizzes/${quiz.id.toUpperCase()}`;
    const refusals = [
      await other.put(path, body('Hijacked', -1)),
      await other.delete(path),
      await other.put(`${path}/accommodations/${person.id}`, { extraAttempts: 5 }),
    ];
    for (const res of refusals)
      expect([res.status, (res.body as { message: string }).message]).toEqual([403, M.quizOwnerOnly]);
    const gradeRefusal = await other.delete(`/api/text-quiz-grades/${grade.id.toUpperCase()}`);
    expect([gradeRefusal.status, (gradeRefusal.body as { message: string }).message]).toEqual([
      403,
      M.gradeOwnerOnly,
    ]);

    const stored = (await owner.get<AuthoredQuiz>(`/api/text-quizzes/${quiz.id}`)).body;
    expect(stored).toMatchObject({
      title: quiz.title,
      maxAttempts: 1,
      version: 1,
      createdById: ownerPerson.id,
    });
    expect((await student.post('/api/text-quizzes/' + quiz.id + '/attempts')).status).toBe(409);
    expect(
      (await owner.get<Grade[]>(`/api/text-quiz-grades?quizId=${quiz.id}`)).body.map((g) => g.id),
    ).toEqual([grade.id]);
    await quietly();
    expect([...auditsOf(quiz.id), ...auditsOf(grade.id)]).toEqual([]);
  });

  it('sees Edit and Delete decided by the server: canEdit for the owner and admins only', async () => {
    const quiz = await ownersQuiz();
    const canEdit = async (client: HttpClient) =>
      (await client.get<AuthoredQuiz[]>('/api/text-quizzes')).body.find((q) => q.id === quiz.id)?.canEdit;
    expect([await canEdit(owner), await canEdit(other), await canEdit(admin)]).toEqual([true, false, true]);
    expect((await other.get<AuthoredQuiz>(`/api/text-quizzes/${quiz.id}`)).body.canEdit).toBe(false);
    // A teacher whose approval was withdrawn holds no teacher's rights, their own quiz included (ADR 0011).
    const { client: suspended } = await app.signIn('teacher', { id: ownerPerson.id, approved: false });
    expect((await suspended.put(`/api/text-quizzes/${quiz.id}`, body('x'))).status).toBe(403);
  });
});

describe('the owner and administrators', () => {
  it('edit, set extra attempts, delete results and delete the quiz, each in the audit log: who, what, from where', async () => {
    const quiz = await ownersQuiz();
    const { client: student, person } = await app.signIn('student', { name: 'Pat Pupil' });
    const grade = (await student.post<Grade>('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1] }))
      .body;
    const from = { headers: { 'x-forwarded-for': '203.0.113.9' } };

    const edited = await owner.put<Quiz>(
      `/api/text-quizzes/${quiz.id}`,
      { ...body('Colores 2', 3), revealAnswers: 'never' },
      from,
    );
    expect(edited).toMatchObject({
      status: 200,
      body: { title: 'Colores 2', version: 2, revealAnswers: 'never' },
    });
    expect(
      (
        await admin.put(`/api/text-quizzes/${quiz.id}/accommodations/${person.id.toUpperCase()}`, {
          extraAttempts: 2,
        })
      ).status,
    ).toBe(204);
    // The same value again changes nothing and records nothing.
    expect(
      (await admin.put(`/api/text-quizzes/${quiz.id}/accommodations/${person.id}`, { extraAttempts: 2 }))
        .status,
    ).toBe(204);
    expect((await owner.delete(`/api/text-quiz-grades/${grade.id}`)).status).toBe(204);
    expect((await admin.delete(`/api/text-quizzes/${quiz.id}`)).status).toBe(204);

    await waitFor(
      async () => auditsOf(quiz.id).length >= 3 && auditsOf(grade.id).length >= 1,
      'the audit events',
    );
    await quietly();
    const ofQuiz = auditsOf(quiz.id).map((a) => a.record);
    expect(auditsOf(quiz.id).every((a) => a.service === 'assessment')).toBe(true);
    expect(ofQuiz).toEqual([
      expect.objectContaining({
        actorId: ownerPerson.id,
        actorName: 'Ms. Owner',
        action: 'quiz.updated',
        targetType: 'quiz',
        targetLabel: 'Colores 2',
        details: {
          kind: 'text',
          ownerId: ownerPerson.id,
          version: 2,
          changed: ['title', 'maxAttempts', 'revealAnswers'],
        },
        ip: expect.stringMatching(/\S/),
      }),
      expect.objectContaining({
        actorId: adminPerson.id,
        action: 'quiz.accommodation_set',
        targetType: 'quiz',
        details: { kind: 'text', userId: person.id, extraAttempts: 2, previousExtraAttempts: 0 },
      }),
      expect.objectContaining({
        actorId: adminPerson.id,
        actorName: 'Ada Admin',
        action: 'quiz.deleted',
        targetLabel: 'Colores 2',
        details: { kind: 'text', ownerId: ownerPerson.id, version: 2 },
      }),
    ]);
    expect(auditsOf(grade.id).map((a) => a.record)).toEqual([
      expect.objectContaining({
        actorId: ownerPerson.id,
        action: 'grade.deleted',
        targetType: 'grade',
        targetLabel: `${quiz.title} — Pat Pupil`,
        details: { kind: 'text', userId: person.id },
      }),
    ]);
  });

  it('leaves the results of a deleted quiz to administrators', async () => {
    const quiz = await ownersQuiz();
    const { client: student } = await app.signIn('student');
    const grade = (await student.post<Grade>('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [0] }))
      .body;
    expect((await owner.delete(`/api/text-quizzes/${quiz.id}`)).status).toBe(204);
    const refused = await owner.delete(`/api/text-quiz-grades/${grade.id}`);
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([403, M.gradeOwnerOnly]);
    expect((await admin.delete(`/api/text-quiz-grades/${grade.id}`)).status).toBe(204);
    expect((await admin.delete(`/api/text-quiz-grades/${grade.id}`)).status).toBe(404);
  });

  it('keeps a deleted teacher’s quizzes ownerless: administrators only', async () => {
    const { client: leaving, person } = await app.signIn('teacher', { name: 'Leaving Teacher' });
    const quiz = (await leaving.post<Quiz>('/api/text-quizzes', body('Despedida'))).body;
    await app.runtime.bus.publish(Subjects.identityUserDeleted, { userId: person.id }, { id: randomUUID() });
    await waitFor(
      async () => (await admin.get<AuthoredQuiz>(`/api/text-quizzes/${quiz.id}`)).body.createdById === null,
      'the quiz disowned',
    );
    expect((await admin.get<AuthoredQuiz>(`/api/text-quizzes/${quiz.id}`)).body).toMatchObject({
      createdById: null,
      createdByName: M.formerStaffMember,
      canEdit: true,
    });
    expect((await owner.put(`/api/text-quizzes/${quiz.id}`, body('Mine now'))).status).toBe(403);
    expect((await admin.put(`/api/text-quizzes/${quiz.id}`, body('Kept'))).status).toBe(200);
  });
});
