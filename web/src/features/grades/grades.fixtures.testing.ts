import type { Grade, ItemAnalysis, QuizKind } from '@district/contracts/assessment';

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
