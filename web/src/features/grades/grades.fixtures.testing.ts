import type { Grade, GradeSummary, ItemAnalysis, QuizKind } from '@district/contracts/assessment';
import type { FetchStub, RecordedRequest } from '@/testing/fetch-stub';
import { quizzesOf } from './grade-stats';

export const uuid = (i: number, block = 'a11a') =>
  `00000000-${block}-4000-8000-${String(i).padStart(12, '0')}`;

let n = 0;

/** A result as GET /api/quiz-grades returns it; three questions, answers 0,1,2 unless overridden. */
export function makeGrade(overrides: Partial<Grade> = {}): Grade {
  n += 1;
  const kind: QuizKind = overrides.kind ?? 'audio';
  const questions = ['uno', 'dos', 'tres'].map((word, i) => ({
    question: `What is ${word}?`,
    options: [`${word}-A`, `${word}-B`, `${word}-C`, `${word}-D`],
    correctAnswer: i,
    ...(kind === 'audio' ? { audioUrl: `https://cdn.example.test/${word}.mp3` } : {}),
  }));
  const userAnswers = overrides.userAnswers ?? [0, 1, 3];
  return {
    answersCorrect: questions.map((q, i) => q.correctAnswer === userAnswers[i]),
    id: uuid(n, 'f00d'),
    kind,
    quizId: uuid(1, 'a11a'),
    userId: uuid(7, 'beef'),
    userName: 'Sam Student',
    quizTitle: 'Colores',
    score: 67,
    correctAnswers: 2,
    totalQuestions: 3,
    passed: false,
    userAnswers: [0, 1, 3],
    questions,
    answerKey: 'shown',
    quizVersion: 1,
    createdAt: '2025-03-06T12:30:00.000Z',
    completedAt: '2025-03-06T12:30:00.000Z',
    ...overrides,
  };
}

export function makeAnalysis(overrides: Partial<ItemAnalysis> = {}): ItemAnalysis {
  return {
    quizId: uuid(1, 'a11a'),
    version: 2,
    results: 4,
    olderResults: 1,
    questions: [
      {
        question: 'What is uno?',
        correctAnswer: 0,
        facility: 0.75,
        discrimination: 0.5,
        optionCounts: [3, 1, 0, 0],
      },
      {
        question: 'What is dos?',
        correctAnswer: 1,
        facility: 0.25,
        discrimination: -0.5,
        optionCounts: [2, 1, 1, 0],
      },
    ],
    ...overrides,
  };
}

/**
 * Scripts the grade list and its summary as the assessment service answers them (ADR 0042): the list filtered by
 * `quizId`/`userId`, newest first as given, `pageSize` rows a page with `X-Total-Count` and `X-Next-Cursor`; the
 * summary over the same filtered results (one decimal, as the server rounds), with the quizzes that have results.
 */
export function serveGrades(
  f: FetchStub,
  kind: QuizKind,
  source: Grade[] | (() => Grade[]),
  pageSize = 100,
): void {
  const path = kind === 'audio' ? '/api/quiz-grades' : '/api/text-quiz-grades';
  const pick = (req: RecordedRequest) => {
    const q = new URLSearchParams(req.path.split('?')[1] ?? '');
    const all = typeof source === 'function' ? source() : source;
    return all.filter(
      (g) =>
        (!q.get('quizId') || g.quizId === q.get('quizId')) &&
        (!q.get('userId') || g.userId === q.get('userId')),
    );
  };
  f.on('GET', path, (req) => {
    const list = pick(req);
    const start = Number(new URLSearchParams(req.path.split('?')[1] ?? '').get('cursor') ?? 0);
    const page = list.slice(start, start + pageSize);
    const next = start + pageSize < list.length ? String(start + pageSize) : null;
    return {
      json: page,
      headers: { 'X-Total-Count': String(list.length), ...(next ? { 'X-Next-Cursor': next } : {}) },
    };
  });
  f.on('GET', `${path}/summary`, (req) => ({ json: summaryOf(pick(req)) }));
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

export function summaryOf(grades: readonly Grade[]): GradeSummary {
  const total = grades.length;
  const passed = grades.filter((g) => g.score >= 70).length;
  return {
    totalAttempts: total,
    averageScore: total ? oneDecimal(grades.reduce((a, g) => a + g.score, 0) / total) : 0,
    passed,
    passRate: total ? oneDecimal((passed / total) * 100) : 0,
    quizzes: quizzesOf(grades),
  };
}
