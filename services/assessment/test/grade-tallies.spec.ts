import { TOTAL_COUNT_HEADER, type Grade, type GradeSummary, type Quiz } from '@district/contracts';
import type { HttpClient } from '@district/nest-common/testing';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

jest.setTimeout(120_000);

/**
 * grade_tallies (migration 1733900000000, ADR 0042 "Unscoped totals"): each quiz's count, score sum and passes kept
 * by triggers on grades, so an unscoped dashboard (a district administrator's, or any in an installation without
 * classes) reads its total and summary without counting every result.
 */
let app: AssessmentTestApp;
let teacher: HttpClient;
let admin: HttpClient;
const pupils: { client: HttpClient; id: string }[] = [];
const quizzes: Quiz[] = [];

const sql = <T>(text: string, params: unknown[] = []) => app.dataSource.query(text, params) as Promise<T[]>;

/** Every quiz's tally as the triggers kept it, and as counted from the results themselves. */
async function talliesAndCounts() {
  const kept = await sql(
    `SELECT kind, quiz_id::text, sum(attempts)::int AS attempts, sum(score_sum)::int AS score_sum,
            sum(passed)::int AS passed
       FROM grade_tallies GROUP BY 1, 2 HAVING sum(attempts) <> 0 OR sum(score_sum) <> 0 ORDER BY 1, 2`,
  );
  const counted = await sql(
    `SELECT kind, quiz_id::text, count(*)::int AS attempts, sum(score)::int AS score_sum,
            count(*) FILTER (WHERE score >= 70)::int AS passed
       FROM grades GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return { kept, counted };
}

async function expectTalliesExact() {
  const { kept, counted } = await talliesAndCounts();
  expect(kept).toEqual(counted);
}

beforeAll(async () => {
  app = await startAssessment();
  teacher = (await app.signIn('teacher')).client;
  admin = (await app.signIn('admin')).client;
  for (let i = 0; i < 6; i++) {
    const { client, person } = await app.signIn('student');
    pupils.push({ client, id: person.id });
  }
  for (const title of ['Tally one', 'Tally two']) {
    const res = await teacher.post<Quiz>('/api/text-quizzes', {
      title,
      maxAttempts: -1,
      questions: [
        { question: 'uno', options: ['a', 'b', 'c', 'd'], correctAnswer: 0 },
        { question: 'dos', options: ['a', 'b', 'c', 'd'], correctAnswer: 1 },
      ],
    });
    expect(res.status).toBe(201);
    quizzes.push(res.body);
  }
});
afterAll(async () => {
  await app?.close();
});

it('keeps each quiz’s tally equal to its results through submissions, deletions, updates, bulk writes and TRUNCATE', async () => {
  // Concurrent submissions of one quiz (they share its few tally rows), scores 100, 50 and 0.
  const answers = [
    [0, 1],
    [0, 0],
    [1, 0],
  ];
  const submitted = await Promise.all(
    pupils.flatMap((p, i) =>
      quizzes.map((q) =>
        p.client.post<Grade>('/api/text-quiz-grades', { quizId: q.id, userAnswers: answers[i % 3] }),
      ),
    ),
  );
  expect(submitted.map((r) => r.status)).toEqual(submitted.map(() => 201));
  await expectTalliesExact();

  expect((await teacher.delete(`/api/text-quiz-grades/${submitted[0].body.id}`)).status).toBe(204);
  await expectTalliesExact();

  // A person's erasure (many rows in one statement), an update of scores, a bulk insert.
  await sql(`DELETE FROM grades WHERE user_id = $1`, [pupils[1].id]);
  await expectTalliesExact();
  await sql(`UPDATE grades SET score = 100 - score WHERE quiz_id = $1`, [quizzes[1].id]);
  await expectTalliesExact();
  await sql(
    `INSERT INTO grades (kind, quiz_id, user_id, user_name, quiz_title, score, correct_answers, total_questions,
                         passed, user_answers, questions, quiz_version)
     SELECT 'text', $1, gen_random_uuid(), 'Bulk ' || n, 'Tally one', n % 101, 0, 2, n % 101 >= 70, '[]', '[]', 1
       FROM generate_series(1, 500) AS n`,
    [quizzes[0].id],
  );
  await expectTalliesExact();

  await sql(`TRUNCATE grades`);
  expect(await sql(`SELECT * FROM grade_tallies`)).toEqual([]);
});

it('answers an unscoped total and summary from the tallies, equal to the results', async () => {
  for (const p of pupils)
    expect(
      (await p.client.post('/api/text-quiz-grades', { quizId: quizzes[0].id, userAnswers: [0, 1] })).status,
    ).toBe(201);
  const page = await admin.get<Grade[]>('/api/text-quiz-grades?limit=2');
  expect(page.status).toBe(200);
  expect(page.headers.get(TOTAL_COUNT_HEADER)).toBe('6');
  const summary = await admin.get<GradeSummary>('/api/text-quiz-grades/summary');
  expect(summary.body).toMatchObject({ totalAttempts: 6, averageScore: 100, passed: 6, passRate: 100 });

  // The figures are the tallies' (not a count of the rows): a tally changed by hand shows.
  await sql(`UPDATE grade_tallies SET attempts = attempts + 1000 WHERE quiz_id = $1 AND attempts > 0`, [
    quizzes[0].id,
  ]);
  try {
    const shards = (
      await sql<{ n: number }>(`SELECT count(*)::int AS n FROM grade_tallies WHERE attempts > 1000`)
    )[0].n;
    const again = await admin.get<Grade[]>(`/api/text-quiz-grades?limit=2&quizId=${quizzes[0].id}`);
    expect(again.headers.get(TOTAL_COUNT_HEADER)).toBe(String(6 + 1000 * shards));
    const total = (await admin.get<GradeSummary>('/api/text-quiz-grades/summary')).body.totalAttempts;
    expect(total).toBe(6 + 1000 * shards);
  } finally {
    await sql(`UPDATE grade_tallies SET attempts = attempts - 1000 WHERE attempts > 1000`);
  }
  // A filter on one person is counted from the results.
  const own = await admin.get<Grade[]>(`/api/text-quiz-grades?userId=${pupils[0].id}`);
  expect(own.headers.get(TOTAL_COUNT_HEADER)).toBe('1');
});
