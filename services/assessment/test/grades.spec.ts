import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  AssessmentMessages as M,
  EXTRA_ATTEMPTS_MAX,
  MAX_ATTEMPTS_OPTIONS,
  Subjects,
  type AttemptStart,
  type Grade,
  type GradeRecordedEvent,
  type ItemAnalysis,
  type Quiz,
} from '@district/contracts';
import type { BusMessage } from '@district/nest-common';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { GradesRepository } from '../src/grades/grades.repository';
import { attemptsAllowed, mayAttempt } from '../src/quizzes/attempt-rules';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

let app: AssessmentTestApp;
let teacher: HttpClient;

beforeAll(async () => {
  app = await startAssessment();
  teacher = (await app.signIn('teacher')).client;
});
afterAll(async () => {
  await app?.close();
});

const textQuestions = [
  { question: '¿Cómo se dice "cat"?', options: ['perro', 'gato', 'pez', 'ave'], correctAnswer: 1 },
  { question: '¿Cómo se dice "dog"?', options: ['perro', 'gato', 'pez', 'ave'], correctAnswer: 0 },
  { question: '¿Cómo se dice "fish"?', options: ['perro', 'gato', 'pez', 'ave'], correctAnswer: 2 },
];

async function textQuiz(maxAttempts = 1): Promise<Quiz> {
  const res = await teacher.post<Quiz>('/api/text-quizzes', {
    title: `Animales ${randomUUID().slice(0, 6)}`,
    maxAttempts,
    questions: textQuestions,
  });
  if (res.status !== 201) throw new Error(`quiz: ${res.status} ${res.text}`);
  return res.body;
}

describe('marking', () => {
  it('is the server’s, from its answer key, whatever score the client sends', async () => {
    const quiz = await textQuiz();
    const { client: student, person } = await app.signIn('student');
    const res = await student.post<Grade>('/api/text-quiz-grades', {
      quizId: quiz.id,
      quizTitle: 'forged',
      userAnswers: [1, 0, 3],
      correctAnswers: 3,
      totalQuestions: 3,
      score: 100,
      passed: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'text',
      quizId: quiz.id,
      userId: person.id,
      userName: person.name,
      quizTitle: quiz.title,
      correctAnswers: 2,
      totalQuestions: 3,
      score: 67,
      passed: false,
      userAnswers: [1, 0, 3],
      quizVersion: 1,
    });
    // The review: the questions as answered, with the key (the spec's Question Review needs it after submitting).
    expect(res.body.questions).toEqual(textQuestions);
  });

  it('refuses answers that do not fit the quiz', async () => {
    const quiz = await textQuiz(-1);
    const { client: student } = await app.signIn('student');
    for (const userAnswers of [
      [0, 1],
      [0, 1, 2, 3],
      [0, 1, 4],
      [0, 1, -1],
      ['a', 1, 2],
    ]) {
      const res = await student.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers });
      expect([JSON.stringify(userAnswers), res.status]).toEqual([JSON.stringify(userAnswers), 400]);
    }
    expect(
      (await student.post('/api/text-quiz-grades', { quizId: randomUUID(), userAnswers: [0] })).status,
    ).toBe(404);
    // An audio result cannot name a text quiz.
    expect((await student.post('/api/quiz-grades', { quizId: quiz.id, userAnswers: [0, 0, 0] })).status).toBe(
      404,
    );
  });
});

describe('the attempt limit', () => {
  it('answers the start of an attempt with the quiz without its key, then Attempt Limit Reached with the counts', async () => {
    const quiz = await textQuiz(1);
    const { client: student } = await app.signIn('student');
    const start = await student.post<AttemptStart>(`/api/text-quizzes/${quiz.id}/attempts`);
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ attemptsTaken: 0, maxAttempts: 1 });
    expect(JSON.stringify(start.body.quiz)).not.toContain('correctAnswer');
    expect(
      (await student.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1, 0, 2] })).status,
    ).toBe(201);
    const again = await student.post(`/api/text-quizzes/${quiz.id}/attempts`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      statusCode: 409,
      message: M.attemptLimit(1, 1),
      details: { title: 'Attempt Limit Reached', attemptsTaken: 1, maxAttempts: 1 },
    });
    expect(
      (await student.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1, 0, 2] })).status,
    ).toBe(409);
  });

  it('holds under 20 concurrent submissions for a one-attempt quiz: exactly one is stored', async () => {
    const quiz = await textQuiz(1);
    const { client: student, person } = await app.signIn('student');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        student.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1, 0, 2] }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array.from({ length: 19 }, () => 409)]);
    const [{ n }] = await app.dataSource.query(
      `SELECT count(*)::int AS n FROM grades WHERE quiz_id = $1 AND user_id = $2`,
      [quiz.id, person.id],
    );
    expect(n).toBe(1);
  });

  it('waits for the attempt lock under the key replicas of earlier versions took (a rolling deploy)', async () => {
    const quiz = await textQuiz(1);
    const { client: student, person } = await app.signIn('student');
    // Another replica of the previous version holds this person's lock on this quiz, in a transaction of its own.
    const holder = app.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `assessment:attempt:${quiz.id}:${person.id}`,
    ]);
    let answered = false;
    const submission = student
      .post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1, 0, 2] })
      .finally(() => (answered = true));
    try {
      // The submission waits on that very lock (PostgreSQL lists the wait), unanswered, until the holder commits.
      const key = `assessment:attempt:${quiz.id}:${person.id}`;
      const waiting = async () =>
        (
          await app.dataSource.query(
            `SELECT count(*)::int AS n FROM pg_locks
             WHERE locktype = 'advisory' AND NOT granted
               AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
            [key],
          )
        )[0].n as number;
      for (const until = Date.now() + 10_000; (await waiting()) === 0;) {
        if (Date.now() > until) throw new Error('the submission never waited for the lock');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(answered).toBe(false);
      await holder.query(
        `INSERT INTO grades (kind, quiz_id, user_id, user_name, quiz_title, score, correct_answers, total_questions, passed,
           user_answers, questions, quiz_version)
         VALUES ('text', $1, $2, 'x', 'x', 0, 0, 3, false, '[0,0,0]', '[]', 1)`,
        [quiz.id, person.id],
      );
      await holder.commitTransaction();
    } finally {
      await holder.release();
    }
    // Its read after the lock saw that result: the one attempt is taken.
    expect((await submission).status).toBe(409);
  });

  it('gives a student the extra attempts a teacher grants, and deleting a result frees an attempt', async () => {
    const quiz = await textQuiz(1);
    const { client: student, person } = await app.signIn('student');
    const first = await student.post<Grade>('/api/text-quiz-grades', {
      quizId: quiz.id,
      userAnswers: [0, 0, 0],
    });
    expect((await student.post(`/api/text-quizzes/${quiz.id}/attempts`)).status).toBe(409);
    expect(
      (
        await teacher.put(`/api/text-quizzes/${quiz.id}/accommodations/${person.id.toUpperCase()}`, {
          extraAttempts: 1,
        })
      ).status,
    ).toBe(204);
    expect((await student.post<AttemptStart>(`/api/text-quizzes/${quiz.id}/attempts`)).body).toMatchObject({
      attemptsTaken: 1,
      maxAttempts: 2,
    });
    expect(
      (await student.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1, 0, 2] })).status,
    ).toBe(201);
    expect((await student.post(`/api/text-quizzes/${quiz.id}/attempts`)).status).toBe(409);
    expect((await teacher.delete(`/api/text-quiz-grades/${first.body.id}`)).status).toBe(204);
    expect((await student.post(`/api/text-quizzes/${quiz.id}/attempts`)).status).toBe(200);
    expect(
      (await teacher.put(`/api/text-quizzes/${quiz.id}/accommodations/${person.id}`, { extraAttempts: 21 }))
        .status,
    ).toBe(400);
    expect(
      (await student.put(`/api/text-quizzes/${quiz.id}/accommodations/${person.id}`, { extraAttempts: 5 }))
        .status,
    ).toBe(403);
  });
});

describe('idempotent submission', () => {
  it('stores a retried submission once and answers it with the same result', async () => {
    const quiz = await textQuiz(3);
    const { client: student, person } = await app.signIn('student');
    const key = randomUUID();
    const headers = { 'idempotency-key': key };
    const first = await student.post<Grade>(
      '/api/text-quiz-grades',
      { quizId: quiz.id, userAnswers: [1, 0, 2] },
      { headers },
    );
    const retries = await Promise.all(
      Array.from({ length: 5 }, () =>
        student.post<Grade>(
          '/api/text-quiz-grades',
          { quizId: quiz.id, userAnswers: [1, 0, 2] },
          { headers: { 'idempotency-key': key.toUpperCase() } },
        ),
      ),
    );
    expect(first.status).toBe(201);
    for (const r of retries) expect([r.status, r.body.id]).toEqual([200, first.body.id]);
    const [{ n }] = await app.dataSource.query(
      `SELECT count(*)::int AS n FROM grades WHERE quiz_id = $1 AND user_id = $2`,
      [quiz.id, person.id],
    );
    expect(n).toBe(1);
    // A new key is a new attempt; a malformed one is refused.
    expect(
      (
        await student.post(
          '/api/text-quiz-grades',
          { quizId: quiz.id, userAnswers: [1, 0, 2] },
          { headers: { 'idempotency-key': randomUUID() } },
        )
      ).status,
    ).toBe(201);
    const bad = await student.post(
      '/api/text-quiz-grades',
      { quizId: quiz.id, userAnswers: [1, 0, 2] },
      { headers: { 'idempotency-key': 'again' } },
    );
    expect([bad.status, (bad.body as { message: string }).message]).toEqual([400, M.idempotencyKeyInvalid]);

    // /metrics counts what happened: stored attempts and replayed retries apart.
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    const value = (outcome: string) =>
      Number(
        new RegExp(
          `^assessment_submissions_total\\{[^}]*kind="text"[^}]*outcome="${outcome}"[^}]*\\} (\\d+)`,
          'm',
        ).exec(metrics)?.[1] ?? -1,
      );
    expect(value('replayed')).toBeGreaterThanOrEqual(5);
    expect(value('stored')).toBeGreaterThanOrEqual(2);
  });
});

describe('one key raced on two quizzes', () => {
  it('stores one result: the other submission is answered with it', async () => {
    const [first, second] = [await textQuiz(-1), await textQuiz(-1)];
    const { client: student, person } = await app.signIn('student');
    for (let round = 0; round < 5; round++) {
      const headers = { 'idempotency-key': randomUUID() };
      const answers = await Promise.all(
        [first, second].map((quiz) =>
          student.post<Grade>(
            '/api/text-quiz-grades',
            { quizId: quiz.id, userAnswers: [1, 0, 2] },
            { headers },
          ),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
      expect(answers[0].body.id).toBe(answers[1].body.id);
      const [{ n }] = await app.dataSource.query(
        `SELECT count(*)::int AS n FROM grades WHERE user_id = $1 AND idempotency_key = $2`,
        [person.id, headers['idempotency-key']],
      );
      expect(n).toBe(1);
    }
  });
});

describe('grade lists', () => {
  it('show teachers every result (with filters) and a student only their own, whatever userId they pass', async () => {
    const quiz = await textQuiz(-1);
    const a = await app.signIn('student');
    const b = await app.signIn('student');
    await a.client.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1, 0, 2] });
    await b.client.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [0, 0, 0] });
    const all = await teacher.get<Grade[]>(`/api/text-quiz-grades?quizId=${quiz.id}`);
    expect(all.body.map((g) => g.userId).sort()).toEqual([a.person.id, b.person.id].sort());
    expect(
      (
        await teacher.get<Grade[]>(
          `/api/text-quiz-grades?quizId=${quiz.id}&userId=${b.person.id.toUpperCase()}`,
        )
      ).body.map((g) => g.userId),
    ).toEqual([b.person.id]);
    const own = await a.client.get<Grade[]>(`/api/text-quiz-grades?userId=${b.person.id}`);
    expect(own.status).toBe(200);
    expect(new Set(own.body.map((g) => g.userId))).toEqual(new Set([a.person.id]));
    expect((await a.client.get('/api/text-quiz-grades?userId=nope')).status).toBe(400);
    const anonymous = await app.client().get('/api/quiz-grades');
    expect([anonymous.status, (anonymous.body as { message: string }).message]).toEqual([
      401,
      M.gradesLoginRequired,
    ]);
    expect((await a.client.delete(`/api/text-quiz-grades/${all.body[0].id}`)).status).toBe(403);
  });
});

describe('a replica marking against the quiz it read before (submit_grade)', () => {
  it('marks against the quiz as it is now after an edit, a change of length or a deletion', async () => {
    const quiz = await textQuiz(-1);
    const { client: first } = await app.signIn('student');
    // This replica reads the quiz and keeps it.
    expect(
      (await first.post<Grade>('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1, 0, 2] })).body,
    ).toMatchObject({ score: 100, quizVersion: 1 });

    // A new key: version 2. The next result is marked and stored against it, not the kept version 1.
    const newKey = [
      { ...textQuestions[0], correctAnswer: 3 },
      { ...textQuestions[1], correctAnswer: 3 },
      { ...textQuestions[2], correctAnswer: 3 },
    ];
    expect(
      (
        await teacher.put(`/api/text-quizzes/${quiz.id}`, {
          title: quiz.title,
          maxAttempts: -1,
          questions: newKey,
        })
      ).status,
    ).toBe(200);
    const { client: second } = await app.signIn('student');
    const marked = await second.post<Grade>('/api/text-quiz-grades', {
      quizId: quiz.id,
      userAnswers: [3, 3, 3],
    });
    expect(marked.status).toBe(201);
    expect(marked.body).toMatchObject({ score: 100, correctAnswers: 3, quizVersion: 2 });
    expect(marked.body.questions).toEqual(newKey);

    // Two questions now: two answers fit (the kept quiz had three), three do not.
    await teacher.put(`/api/text-quizzes/${quiz.id}`, {
      title: quiz.title,
      maxAttempts: -1,
      questions: newKey.slice(0, 2),
    });
    const { client: third } = await app.signIn('student');
    expect(
      (await third.post<Grade>('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [3, 0] })).body,
    ).toMatchObject({
      score: 50,
      totalQuestions: 2,
      quizVersion: 3,
    });
    const tooMany = await third.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [3, 3, 3] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ message: M.answersWrongCount(2) });

    // Deleted: no result, whatever this replica kept.
    expect((await teacher.delete(`/api/text-quizzes/${quiz.id}`)).status).toBe(204);
    const gone = await third.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [3, 3] });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ message: M.quizNotFound });
  });

  it('publishes the stored result’s assessment.grade.recorded, once, without the answers', async () => {
    const events: BusMessage[] = [];
    const subscription = await app.runtime.bus.subscribe(
      Subjects.assessmentGradeRecorded,
      async (m) => void events.push(m),
      {
        durable: `grades-spec-${randomUUID().slice(0, 8)}`,
      },
    );
    try {
      const quiz = await textQuiz(1);
      const { client: student, person } = await app.signIn('student');
      const headers = { 'idempotency-key': randomUUID() };
      const stored = await student.post<Grade>(
        '/api/text-quiz-grades',
        { quizId: quiz.id, userAnswers: [1, 0, 0] },
        { headers },
      );
      expect(
        (
          await student.post(
            '/api/text-quiz-grades',
            { quizId: quiz.id, userAnswers: [1, 0, 0] },
            { headers },
          )
        ).status,
      ).toBe(200);
      const mine = () => events.filter((e) => (e.data as GradeRecordedEvent).grade.id === stored.body.id);
      await waitFor(() => mine().length > 0, 'the result’s event');
      expect(mine().map((e) => e.data)).toEqual([
        {
          grade: {
            id: stored.body.id,
            kind: 'text',
            quizId: quiz.id,
            userId: person.id,
            score: 67,
            passed: false,
            correctAnswers: 2,
            totalQuestions: 3,
            createdAt: stored.body.createdAt,
          },
        },
      ]);
    } finally {
      await subscription.unsubscribe();
    }
  });

  it('answers a retried attempt with its result even after the quiz changed length', async () => {
    const quiz = await textQuiz(1);
    const { client: student } = await app.signIn('student');
    const headers = { 'idempotency-key': randomUUID() };
    const first = await student.post<Grade>(
      '/api/text-quiz-grades',
      { quizId: quiz.id, userAnswers: [1, 0, 2] },
      { headers },
    );
    expect(first.status).toBe(201);
    await teacher.put(`/api/text-quizzes/${quiz.id}`, {
      title: quiz.title,
      maxAttempts: 1,
      questions: textQuestions.slice(0, 2),
    });
    const retried = await student.post<Grade>(
      '/api/text-quiz-grades',
      { quizId: quiz.id, userAnswers: [1, 0, 2] },
      { headers },
    );
    expect(retried.status).toBe(200);
    expect(retried.body.id).toBe(first.body.id);
  });

  it('gives up with a 409 when the quiz changes under every try, storing nothing', async () => {
    const quiz = await textQuiz(-1);
    const { client: student, person } = await app.signIn('student');
    const repository = app.service.app.get(GradesRepository);
    const real = repository.submit.bind(repository);
    // The quiz is edited between each marking and its storing: submit_grade answers 'stale' every time.
    const submit = jest
      .spyOn(repository, 'submit')
      .mockImplementation((manager, s) => real(manager, { ...s, version: s.version + 100 }));
    try {
      const res = await student.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1, 0, 2] });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ message: M.quizChanging });
      expect(submit).toHaveBeenCalledTimes(4);
    } finally {
      submit.mockRestore();
    }
    const [{ n }] = await app.dataSource.query(`SELECT count(*)::int AS n FROM grades WHERE user_id = $1`, [
      person.id,
    ]);
    expect(n).toBe(0);
  });

  it('holds the limit by the same rule as the start of an attempt (SQL and TypeScript agree)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            max: fc.constantFrom(...MAX_ATTEMPTS_OPTIONS),
            extra: fc.integer({ min: 0, max: EXTRA_ATTEMPTS_MAX }),
            taken: fc.integer({ min: 0, max: 40 }),
          }),
          { minLength: 1, maxLength: 200 },
        ),
        async (cases) => {
          const rows: { allowed: number; may: boolean }[] = await app.dataSource.query(
            `SELECT attempts_allowed(c.max, c.extra) AS allowed, may_attempt(c.taken, attempts_allowed(c.max, c.extra)) AS may
             FROM unnest($1::int[], $2::int[], $3::int[]) WITH ORDINALITY AS c(max, extra, taken, i) ORDER BY c.i`,
            [cases.map((c) => c.max), cases.map((c) => c.extra), cases.map((c) => c.taken)],
          );
          expect(rows).toEqual(
            cases.map((c) => {
              const allowed = attemptsAllowed(c.max, c.extra);
              return { allowed, may: mayAttempt(c.taken, allowed) };
            }),
          );
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('item analysis', () => {
  it('reads the results on the quiz’s current version, for teachers only', async () => {
    const quiz = await textQuiz(-1);
    for (const answers of [
      [1, 0, 2],
      [1, 0, 2],
      [1, 1, 1],
      [0, 3, 2],
    ]) {
      const { client } = await app.signIn('student');
      await client.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: answers });
    }
    const analysis = await teacher.get<ItemAnalysis>(`/api/text-quizzes/${quiz.id}/analysis`);
    expect(analysis.status).toBe(200);
    expect(analysis.body).toMatchObject({ quizId: quiz.id, version: 1, results: 4, olderResults: 0 });
    expect(analysis.body.questions.map((q) => [q.facility, q.optionCounts])).toEqual([
      [0.75, [1, 3, 0, 0]],
      [0.5, [2, 1, 0, 1]],
      [0.75, [0, 1, 3, 0]],
    ]);
    // An edit starts a new version: the old results are counted apart.
    await teacher.put(`/api/text-quizzes/${quiz.id}`, {
      title: quiz.title,
      maxAttempts: -1,
      questions: textQuestions,
    });
    expect((await teacher.get<ItemAnalysis>(`/api/text-quizzes/${quiz.id}/analysis`)).body).toMatchObject({
      version: 2,
      results: 0,
      olderResults: 4,
    });
    const { client: student } = await app.signIn('student');
    expect((await student.get(`/api/text-quizzes/${quiz.id}/analysis`)).status).toBe(403);
  });
});

describe('identity’s events', () => {
  it('keep names on results current and remove a deleted person’s results', async () => {
    const quiz = await textQuiz(-1);
    const { client: student, person } = await app.signIn('student');
    await student.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1, 0, 2] });
    await app.runtime.bus.publish(Subjects.identityUserUpdated, {
      user: {
        id: person.id,
        name: 'Renamed Student',
        username: 'r',
        email: 'r@school.test',
        role: 'student',
        approved: true,
        isAdmin: false,
        profileImage: null,
        createdAt: new Date().toISOString(),
      },
      tokenVersion: 2,
      changed: ['name'],
    });
    const names = async () =>
      (await teacher.get<Grade[]>(`/api/text-quiz-grades?userId=${person.id}`)).body.map((g) => g.userName);
    for (let i = 0; i < 50 && (await names())[0] !== 'Renamed Student'; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await names()).toEqual(['Renamed Student']);
    await app.runtime.bus.publish(Subjects.identityUserDeleted, { userId: person.id });
    for (let i = 0; i < 50 && (await names()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await names()).toEqual([]);
  });
});
