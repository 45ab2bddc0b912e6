import { randomUUID } from 'node:crypto';
import type { Grade, Quiz } from '@district/contracts';
import { ServiceMetrics } from '@district/nest-common';
import { capturedLogger } from '@district/nest-common/testing';
import { GradesRepository } from '../src/grades/grades.repository';
import { GradesService } from '../src/grades/grades.service';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

let app: AssessmentTestApp;
const { logger, lines: logLines } = capturedLogger();

beforeAll(async () => {
  // Started as the launcher starts a replica of its own: the warm-up runs before it listens.
  app = await startAssessment({ warmUpRounds: 300, runtime: { logger } });
});
afterAll(async () => {
  await app?.close();
});

async function rowsLeft(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['quizzes', 'grades', 'accommodations', 'outbox']) {
    const [row] = (await app.dataSource.query(
      `SELECT count(*)::int AS n FROM "${app.schema}"."${table}"`,
    )) as { n: number }[];
    counts[table] = row.n;
  }
  return counts;
}

describe('the warm-up of a replica (ADR 0019)', () => {
  it('rehearses submissions before the replica listens and leaves no quiz, result or event behind', async () => {
    expect(logLines.find((l) => l.msg === 'warmed up')).toMatchObject({ rounds: 300, asked: 300 });
    expect(logLines.some((l) => l.msg === 'warm-up failed: the replica starts without it')).toBe(false);
    expect(await rowsLeft()).toEqual({ quizzes: 0, grades: 0, accommodations: 0, outbox: 0 });
    // Nothing of it reached the access log or the submission counts.
    expect(logLines.filter((l) => l.msg === 'request')).toEqual([]);
    const metrics = await app.service.app
      .get(ServiceMetrics)
      .registry.getSingleMetricAsString('assessment_submissions_total');
    expect(metrics).not.toMatch(/assessment_submissions_total\{/);
  });

  it('leaves the replica serving real submissions as before', async () => {
    const { client: teacher } = await app.signIn('teacher');
    const quiz = await teacher.post<Quiz>('/api/text-quizzes', {
      title: 'Después del ensayo',
      maxAttempts: 1,
      questions: [{ question: '¿Gato?', options: ['cat', 'dog', 'fish', 'bird'], correctAnswer: 0 }],
    });
    expect(quiz.status).toBe(201);
    const { client: student } = await app.signIn('student');
    const key = randomUUID();
    const first = await student.post<Grade>(
      '/api/text-quiz-grades',
      { quizId: quiz.body.id, userAnswers: [0] },
      { headers: { 'idempotency-key': key } },
    );
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ score: 100, passed: true });
    const again = await student.post<Grade>(
      '/api/text-quiz-grades',
      { quizId: quiz.body.id, userAnswers: [0] },
      { headers: { 'idempotency-key': key } },
    );
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await rowsLeft()).toMatchObject({ quizzes: 1, grades: 1 });
  });

  it('runs the submission path itself: a locked, checked result per round, every tenth retried with its key', async () => {
    const grades = app.service.app.get(GradesService);
    const repository = app.service.app.get(GradesRepository);
    const real = repository.submit.bind(repository);
    // The attempt locks its transaction holds as each submission is sent (PostgreSQL's lock table is shared). They are
    // exclusive; the outbox's enqueue also takes a shared advisory lock (ADR 0037) whenever the relay is not asleep, so
    // counting every advisory lock saw 11 now and then.
    const locksHeld: number[] = [];
    const submit = jest.spyOn(repository, 'submit').mockImplementation(async (manager, s) => {
      const [{ n }] = (await manager.query(
        `SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND mode = 'ExclusiveLock' AND pid = pg_backend_pid()`,
      )) as { n: number }[];
      locksHeld.push(n);
      return real(manager, s);
    });
    try {
      const before = await rowsLeft();
      expect(await grades.rehearse(40, Date.now() + 10_000)).toBe(40);
      // Ten made-up people take turns: ten locks at most, however many rounds.
      expect(Math.max(...locksHeld)).toBe(10);
      const outcomes = await Promise.all(
        submit.mock.results.map((r) => r.value as ReturnType<GradesRepository['submit']>),
      );
      const statuses = outcomes.map((o) => o.status);
      expect(statuses.filter((s) => s === 'created')).toHaveLength(40);
      expect(statuses.filter((s) => s === 'replayed')).toHaveLength(4);
      expect(statuses).toHaveLength(44);
      // Marked by the service from the quiz's key (answer i is (i + round) mod 4; question i's key is i mod 4).
      expect(outcomes[0].grade).toMatchObject({
        correctAnswers: 10,
        score: 100,
        passed: true,
        quizTitle: 'Rehearsal',
      });
      expect(await rowsLeft()).toEqual(before);
      // Past its deadline it does nothing more.
      submit.mockClear();
      expect(await grades.rehearse(40, Date.now() - 1)).toBe(0);
      expect(submit).not.toHaveBeenCalled();
    } finally {
      jest.restoreAllMocks();
    }
  });
});
