import type {
  AttemptStart,
  AuthoredQuiz,
  Grade,
  ListedQuizForTaking,
  Quiz,
  QuizAttempts,
  QuizForTaking,
  QuizKind,
} from '@district/contracts/assessment';

let n = 0;
export const uuid = (i: number, block = 'a11a') =>
  `00000000-${block}-4000-8000-${String(i).padStart(12, '0')}`;

/** A quiz as teachers see it (with the key). Questions default to three with distinct options. */
export function makeQuiz(overrides: Partial<Quiz> = {}): Quiz {
  n += 1;
  const kind: QuizKind = overrides.kind ?? 'text';
  return {
    id: uuid(n, 'a11a'),
    kind,
    title: `Quiz ${n}`,
    description: '',
    maxAttempts: 1,
    audioPlayLimit: null,
    revealAnswers: 'always',
    createdById: uuid(1, 'beef'),
    createdByName: 'Tia Teacher',
    createdAt: '2025-03-05T10:00:00.000Z',
    updatedAt: '2025-03-05T10:00:00.000Z',
    version: 1,
    questions: ['uno', 'dos', 'tres'].map((word, i) => ({
      question: `What is ${word}?`,
      options: [`${word}-A`, `${word}-B`, `${word}-C`, `${word}-D`],
      correctAnswer: i % 4,
      ...(kind === 'audio' ? { audioUrl: `https://cdn.example.test/${word}.mp3` } : {}),
    })),
    classIds: [],
    ...overrides,
  };
}

/** The same quiz as a student gets it: no answer key, no author id. */
export function forTaking(quiz: Quiz): QuizForTaking {
  const { createdById: _createdById, classIds: _classIds, questions, ...rest } = quiz;
  return {
    ...rest,
    questions: questions.map(({ question, options, audioUrl }) =>
      audioUrl === undefined ? { question, options } : { question, options, audioUrl },
    ),
  };
}

/** The caller's attempts on a listed quiz: none used of the quiz's own limit unless told. */
const attemptsOn = (quiz: Quiz, attempts: Partial<QuizAttempts>): QuizAttempts => ({
  attemptsUsed: attempts.attemptsUsed ?? 0,
  attemptsAllowed: attempts.attemptsAllowed ?? quiz.maxAttempts,
});

/** The quiz as a teacher or admin lists it: with the key, `canEdit` (their own by default) and their attempts. */
export function authored(
  quiz: Quiz,
  overrides: Partial<QuizAttempts> & { canEdit?: boolean } = {},
): AuthoredQuiz {
  return { ...quiz, canEdit: overrides.canEdit ?? true, ...attemptsOn(quiz, overrides) };
}

/** The quiz as a student lists it: no key, with their attempts. */
export function listedForTaking(quiz: Quiz, attempts: Partial<QuizAttempts> = {}): ListedQuizForTaking {
  return { ...forTaking(quiz), ...attemptsOn(quiz, attempts) };
}

export const attemptOf = (quiz: Quiz, attemptsTaken = 0, maxAttempts = quiz.maxAttempts): AttemptStart => ({
  quiz: forTaking(quiz),
  attemptsTaken,
  maxAttempts,
});

/** The server's marked result for some answers (score rounded, pass at 70). */
export function gradeFor(quiz: Quiz, userAnswers: number[], overrides: Partial<Grade> = {}): Grade {
  const correct = quiz.questions.filter((q, i) => q.correctAnswer === userAnswers[i]).length;
  const score = Math.round((correct / quiz.questions.length) * 100);
  return {
    id: uuid(99, 'f00d'),
    kind: quiz.kind,
    quizId: quiz.id,
    userId: uuid(7, 'beef'),
    userName: 'Sam Student',
    quizTitle: quiz.title,
    score,
    correctAnswers: correct,
    totalQuestions: quiz.questions.length,
    passed: score >= 70,
    userAnswers,
    questions: quiz.questions,
    answersCorrect: quiz.questions.map((q, i) => q.correctAnswer === userAnswers[i]),
    answerKey: 'shown',
    quizVersion: quiz.version,
    createdAt: '2025-03-06T10:00:00.000Z',
    completedAt: '2025-03-06T10:00:00.000Z',
    ...overrides,
  };
}
