import { randomUUID } from 'node:crypto';
import { AssessmentMessages as M, Subjects, type Quiz, type QuizForTaking } from '@district/contracts';
import type { BusMessage } from '@district/nest-common';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

let app: AssessmentTestApp;
let teacher: HttpClient;
const events: BusMessage[] = [];

beforeAll(async () => {
  app = await startAssessment();
  teacher = (await app.signIn('teacher', { name: 'Ms. Ruiz' })).client;
  await app.runtime.bus.subscribe('assessment.>', async (m) => void events.push(m), {
    durable: 'quizzes-spec',
  });
});
afterAll(async () => {
  await app?.close();
});

const audioQuestion = (n: number) => ({
  audioUrl: `https://cdn.example.org/audio/${n}.mp3`,
  question: `Pregunta ${n}`,
  options: ['uno', 'dos', 'tres', 'cuatro'],
  correctAnswer: n % 4,
});

describe('audio quizzes', () => {
  it('are written by teachers with the spec’s defaults and listed to students without the answer key', async () => {
    const created = await teacher.post<Quiz>('/api/audio-quizzes', {
      title: '  Números  ',
      questions: [audioQuestion(1), audioQuestion(2)],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'audio',
      title: 'Números',
      description: '',
      maxAttempts: 1,
      audioPlayLimit: null,
      createdByName: 'Ms. Ruiz',
      version: 1,
      questions: [audioQuestion(1), audioQuestion(2)],
    });
    const { client: student } = await app.signIn('student');
    const listed = (await student.get<QuizForTaking[]>('/api/audio-quizzes')).body.find(
      (q) => q.id === created.body.id,
    );
    expect(listed?.questions).toEqual(
      [1, 2].map((n) => ({
        audioUrl: audioQuestion(n).audioUrl,
        question: `Pregunta ${n}`,
        options: audioQuestion(n).options,
      })),
    );
    expect(JSON.stringify(await student.get(`/api/audio-quizzes/${created.body.id}`))).not.toContain(
      'correctAnswer',
    );
    expect(
      (await teacher.get<Quiz>(`/api/audio-quizzes/${created.body.id.toUpperCase()}`)).body.questions[0]
        .correctAnswer,
    ).toBe(1);

    const updated = await teacher.put<Quiz>(`/api/audio-quizzes/${created.body.id}`, {
      title: 'Números 2',
      description: 'Escucha',
      maxAttempts: -1,
      audioPlayLimit: 2,
      questions: [audioQuestion(3)],
    });
    expect(updated.body).toMatchObject({
      title: 'Números 2',
      maxAttempts: -1,
      audioPlayLimit: 2,
      version: 2,
    });
    expect((await student.delete(`/api/audio-quizzes/${created.body.id}`)).status).toBe(403);
    expect((await teacher.delete(`/api/audio-quizzes/${created.body.id}`)).status).toBe(204);
    expect((await teacher.get(`/api/audio-quizzes/${created.body.id}`)).status).toBe(404);
    // The outbox relays on its own schedule: wait for the three events, then check them.
    const subjectsOf = () =>
      events
        .filter(
          (e) =>
            (e.data as { quiz?: { id: string }; quizId?: string }).quiz?.id === created.body.id ||
            (e.data as { quizId?: string }).quizId === created.body.id,
        )
        .map((e) => e.subject);
    await waitFor(() => subjectsOf().length >= 3, 'the quiz’s three events');
    const subjects = subjectsOf();
    expect(subjects).toEqual([
      Subjects.assessmentQuizCreated,
      Subjects.assessmentQuizUpdated,
      Subjects.assessmentQuizDeleted,
    ]);
    expect(JSON.stringify(events)).not.toContain('correctAnswer');
  });

  it('refuses what the spec’s form would, with its messages', async () => {
    const cases: [unknown, string][] = [
      [{ questions: [audioQuestion(1)] }, M.titleRequired],
      [{ title: '   ', questions: [audioQuestion(1)] }, M.titleRequired],
      [{ title: 'x', questions: [] }, M.questionRequired],
      [{ title: 'x' }, M.questionRequired],
      [{ title: 'x'.repeat(201), questions: [audioQuestion(1)] }, M.titleTooLong],
      [
        { title: 'x', questions: Array.from({ length: 101 }, (_, i) => audioQuestion(i)) },
        M.tooManyQuestions,
      ],
      [
        { title: 'x', questions: [{ ...audioQuestion(1), audioUrl: 'javascript:alert(1)' }] },
        M.audioUrlRequired(1),
      ],
      [
        { title: 'x', questions: [audioQuestion(1), { ...audioQuestion(2), audioUrl: '' }] },
        M.audioUrlRequired(2),
      ],
      [{ title: 'x', questions: [{ ...audioQuestion(1), question: ' ' }] }, M.questionTextRequired(1)],
      [{ title: 'x', questions: [{ ...audioQuestion(1), options: ['a', 'b', 'c'] }] }, M.fourOptions(1)],
      [{ title: 'x', questions: [{ ...audioQuestion(1), options: ['a', 'b', 'c', ' '] }] }, M.fourOptions(1)],
      [{ title: 'x', questions: [{ ...audioQuestion(1), correctAnswer: 4 }] }, M.correctAnswerRange(1)],
      [{ title: 'x', questions: [{ ...audioQuestion(1), correctAnswer: '1' }] }, M.correctAnswerRange(1)],
      [{ title: 'x', maxAttempts: 4, questions: [audioQuestion(1)] }, M.maxAttemptsInvalid],
      [{ title: 'x', audioPlayLimit: 0, questions: [audioQuestion(1)] }, M.playLimitInvalid],
      [[1, 2], M.quizBodyNotObject],
    ];
    for (const [body, message] of cases) {
      const res = await teacher.post('/api/audio-quizzes', body);
      expect([
        JSON.stringify(body).slice(0, 60),
        res.status,
        (res.body as { message: string }).message,
      ]).toEqual([JSON.stringify(body).slice(0, 60), 400, expect.stringContaining(message)]);
    }
  });
});

describe('text quizzes', () => {
  it('need no audio, and say "Please log in to view quizzes." to nobody signed in', async () => {
    const res = await teacher.post<Quiz>('/api/text-quizzes', {
      title: 'Colores',
      maxAttempts: 3,
      questions: [{ question: 'Rojo es…', options: ['red', 'blue', 'green', 'black'], correctAnswer: 0 }],
    });
    expect(res.status).toBe(201);
    expect(res.body.questions[0]).not.toHaveProperty('audioUrl');
    const anonymous = await app.client().get('/api/text-quizzes');
    expect([anonymous.status, (anonymous.body as { message: string }).message]).toEqual([
      401,
      M.quizzesLoginRequired,
    ]);
    // The kinds are apart: a text quiz is not an audio quiz.
    expect((await teacher.get(`/api/audio-quizzes/${res.body.id}`)).status).toBe(404);
    expect(
      (
        await teacher.put(`/api/text-quizzes/${randomUUID()}`, {
          title: 'x',
          questions: [{ question: 'q', options: ['a', 'b', 'c', 'd'], correctAnswer: 0 }],
        })
      ).status,
    ).toBe(404);
    const { client: pendingTeacher } = await app.signIn('teacher', { approved: false });
    expect((await pendingTeacher.post('/api/text-quizzes', { title: 'x' })).status).toBe(403);
  });

  it('stores text with a broken character (a lone surrogate) as U+FFFD instead of failing, in the quiz and the result', async () => {
    const broken = 'Rojo \ud800 es…';
    const res = await teacher.post<Quiz>('/api/text-quizzes', {
      title: 'Surrogates',
      maxAttempts: -1,
      questions: [{ question: broken, options: ['red', 'blue \udc00', 'green', 'black'], correctAnswer: 0 }],
    });
    expect(res.status).toBe(201);
    expect(res.body.questions[0].question).toBe('Rojo \ufffd es…');
    expect(res.body.questions[0].options[1]).toBe('blue \ufffd');
    const { client: student } = await app.signIn('student');
    const graded = await student.post<{ questions: Array<{ question: string }> }>(
      '/api/text-quiz-grades',
      { quizId: res.body.id, userAnswers: [0] },
      { headers: { 'idempotency-key': randomUUID() } },
    );
    expect(graded.status).toBe(201);
    expect(graded.body.questions[0].question).toBe('Rojo \ufffd es…');
  });
});
