import { randomUUID } from 'node:crypto';
import {
  AssessmentMessages as M,
  type AttemptStart,
  type AuthoredQuiz,
  type Grade,
  type ListedQuizForTaking,
  type Quiz,
  type RevealAnswers,
} from '@district/contracts';
import type { HttpClient } from '@district/nest-common/testing';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

/**
 * Issue #34 items 7 and 8 (ADR 0033): the server decides whether a student's review carries the answer key (the
 * quiz's `revealAnswers`), and every quiz list carries the caller's attempts used and allowed.
 */
let app: AssessmentTestApp;
let teacher: HttpClient;

beforeAll(async () => {
  app = await startAssessment();
  teacher = (await app.signIn('teacher')).client;
});
afterAll(async () => {
  await app?.close();
});

const questions = [
  { question: 'rojo', options: ['red', 'blue', 'green', 'black'], correctAnswer: 0 },
  { question: 'azul', options: ['red', 'blue', 'green', 'black'], correctAnswer: 1 },
];

async function quiz(maxAttempts: number, revealAnswers?: RevealAnswers): Promise<Quiz> {
  const res = await teacher.post<Quiz>('/api/text-quizzes', {
    title: `Colores ${randomUUID().slice(0, 6)}`,
    maxAttempts,
    ...(revealAnswers ? { revealAnswers } : {}),
    questions,
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function attempt(student: HttpClient, quizId: string, answers = [0, 2]) {
  const res = await student.post<Grade>(
    '/api/text-quiz-grades',
    { quizId, userAnswers: answers },
    { headers: { 'idempotency-key': randomUUID() } },
  );
  expect(res.status).toBe(201);
  return res;
}

/** An answer key in a JSON text (not `correctAnswers`, the count every result carries). */
const KEY = /"correctAnswer":/;

const mine = async (student: HttpClient, quizId: string) =>
  (await student.get<Grade[]>(`/api/text-quiz-grades?quizId=${quizId}`)).body;

describe('revealAnswers', () => {
  it('is "always" by default: the spec’s review shows the key after the first of three attempts', async () => {
    const q = await quiz(3);
    expect(q.revealAnswers).toBe('always');
    const { client: student } = await app.signIn('student');
    const res = await attempt(student, q.id);
    expect(res.body).toMatchObject({ answerKey: 'shown', answersCorrect: [true, false], score: 50 });
    expect(res.body.questions.map((x) => x.correctAnswer)).toEqual([0, 1]);
  });

  it('"afterLastAttempt": answers and correctness only while an attempt is left, the key once none is', async () => {
    const q = await quiz(3, 'afterLastAttempt');
    const { client: student, person } = await app.signIn('student');
    for (let n = 1; n <= 2; n++) {
      const res = await attempt(student, q.id);
      expect(res.body).toMatchObject({
        answerKey: 'afterLastAttempt',
        userAnswers: [0, 2],
        answersCorrect: [true, false],
      });
      expect(res.text).not.toMatch(KEY);
      const listed = await student.get<Grade[]>(`/api/text-quiz-grades?quizId=${q.id}`);
      expect(listed.body).toHaveLength(n);
      expect(listed.text).not.toMatch(KEY);
      // Nor anywhere else a student reads the quiz.
      for (const text of [
        (await student.get('/api/text-quizzes')).text,
        (await student.get(`/api/text-quizzes/${q.id}`)).text,
        (await student.post<AttemptStart>(`/api/text-quizzes/${q.id}/attempts`)).text,
      ])
        expect(text).not.toMatch(KEY);
    }
    const last = await attempt(student, q.id, [0, 1]);
    expect(last.body).toMatchObject({ answerKey: 'shown', score: 100, answersCorrect: [true, true] });
    expect(last.body.questions.map((x) => x.correctAnswer)).toEqual([0, 1]);
    expect((await mine(student, q.id)).map((g) => g.answerKey)).toEqual(['shown', 'shown', 'shown']);

    // An extra attempt from the teacher leaves one to take: the key is withheld again until it is used.
    expect(
      (await teacher.put(`/api/text-quizzes/${q.id}/accommodations/${person.id}`, { extraAttempts: 1 }))
        .status,
    ).toBe(204);
    expect((await mine(student, q.id)).map((g) => g.answerKey)).toEqual([
      'afterLastAttempt',
      'afterLastAttempt',
      'afterLastAttempt',
    ]);
    expect((await student.get(`/api/text-quiz-grades?quizId=${q.id}`)).text).not.toMatch(KEY);
    // The teacher always sees the key.
    const staffView = (await teacher.get<Grade[]>(`/api/text-quiz-grades?quizId=${q.id}`)).body;
    expect(staffView.every((g) => g.answerKey === 'shown' && g.questions[1].correctAnswer === 1)).toBe(true);
  });

  it('"never": correctness only, even after the last attempt; a retried submission is answered the same way', async () => {
    const q = await quiz(1, 'never');
    const { client: student } = await app.signIn('student');
    const key = randomUUID();
    const send = () =>
      student.post<Grade>(
        '/api/text-quiz-grades',
        { quizId: q.id, userAnswers: [1, 1] },
        { headers: { 'idempotency-key': key } },
      );
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ answerKey: 'never', answersCorrect: [false, true] });
    expect(first.text).not.toMatch(KEY);
    const retried = await send();
    expect([retried.status, retried.body.id, retried.body.answerKey]).toEqual([200, first.body.id, 'never']);
    expect(retried.text).not.toMatch(KEY);
  });

  it('follows the quiz as it is now, and a deleted quiz’s results keep its setting', async () => {
    const q = await quiz(1, 'never');
    const { client: student } = await app.signIn('student');
    await attempt(student, q.id);
    const edit = (revealAnswers: RevealAnswers) =>
      teacher.put(`/api/text-quizzes/${q.id}`, { title: q.title, maxAttempts: 1, revealAnswers, questions });
    expect((await edit('always')).status).toBe(200);
    expect((await mine(student, q.id))[0].answerKey).toBe('shown');
    expect((await edit('never')).status).toBe(200);
    expect((await mine(student, q.id))[0].answerKey).toBe('never');
    expect((await teacher.delete(`/api/text-quizzes/${q.id}`)).status).toBe(204);
    const gone = await student.get<Grade[]>(`/api/text-quiz-grades?quizId=${q.id}`);
    expect(gone.body.map((g) => g.answerKey)).toEqual(['never']);
    expect(gone.text).not.toMatch(KEY);

    // 'afterLastAttempt' on a deleted quiz: no attempt can be left, so the key is shown.
    const later = await quiz(3, 'afterLastAttempt');
    await attempt(student, later.id);
    expect((await mine(student, later.id))[0].answerKey).toBe('afterLastAttempt');
    expect((await teacher.delete(`/api/text-quizzes/${later.id}`)).status).toBe(204);
    expect((await mine(student, later.id))[0].answerKey).toBe('shown');
  });

  it('refuses a value it does not know, with a message', async () => {
    for (const revealAnswers of ['sometimes', 1, null]) {
      const res = await teacher.post('/api/text-quizzes', { title: 'x', revealAnswers, questions });
      expect([res.status, (res.body as { message: string }).message]).toEqual([400, M.revealAnswersInvalid]);
    }
  });
});

describe('the quiz list’s attempts (attemptsUsed, attemptsAllowed)', () => {
  it('are the caller’s own: results stored, and the limit with their extra attempts (-1 unlimited)', async () => {
    const three = await quiz(3);
    const unlimited = await quiz(-1);
    const { client: student, person } = await app.signIn('student');
    const { client: classmate } = await app.signIn('student');
    await attempt(student, three.id);
    await attempt(student, three.id);
    await attempt(student, unlimited.id);
    const attemptsOf = async (client: HttpClient, id: string) => {
      const listed = (
        await client.get<(AuthoredQuiz | ListedQuizForTaking)[]>('/api/text-quizzes')
      ).body.find((q) => q.id === id);
      const one = (await client.get<AuthoredQuiz | ListedQuizForTaking>(`/api/text-quizzes/${id}`)).body;
      expect([one.attemptsUsed, one.attemptsAllowed]).toEqual([
        listed?.attemptsUsed,
        listed?.attemptsAllowed,
      ]);
      return [listed?.attemptsUsed, listed?.attemptsAllowed];
    };
    expect(await attemptsOf(student, three.id)).toEqual([2, 3]);
    expect(await attemptsOf(student, unlimited.id)).toEqual([1, -1]);
    expect(await attemptsOf(classmate, three.id)).toEqual([0, 3]);
    expect(await attemptsOf(teacher, three.id)).toEqual([0, 3]);

    expect(
      (await teacher.put(`/api/text-quizzes/${three.id}/accommodations/${person.id}`, { extraAttempts: 2 }))
        .status,
    ).toBe(204);
    expect(await attemptsOf(student, three.id)).toEqual([2, 5]);
    await attempt(student, three.id);
    expect(await attemptsOf(student, three.id)).toEqual([3, 5]);
  });
});
