import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AssessmentMessages, type Quiz } from '@district/contracts/assessment';
import { IdentityMessages } from '@district/contracts/identity';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { attemptOf, authored, gradeFor, listedForTaking, makeQuiz } from '../quizzes.fixtures.testing';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

afterEach(() => vi.restoreAllMocks());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Persona = keyof typeof personas;

/** Lists `quizzes` (stripped of the key for non-staff) and starts attempts on them. */
function serve(quizzes: Quiz[], persona: Persona, kind: 'audio' | 'text' = 'text') {
  return (f: FetchStub) => {
    const staff = persona === 'teacher' || persona === 'admin';
    f.on('GET', `/api/${kind}-quizzes`, () => ({
      json: staff ? quizzes.map((q) => authored(q)) : quizzes.map((q) => listedForTaking(q)),
    }));
    for (const quiz of quizzes)
      f.on('POST', `/api/${kind}-quizzes/${quiz.id}/attempts`, () => ({ json: attemptOf(quiz) }));
  };
}

async function open(quizzes: Quiz[], persona: Persona = 'student', kind: 'audio' | 'text' = 'text') {
  const view = await renderApp(`/${kind}-quizzes`, {
    user: personas[persona](),
    setup: serve(quizzes, persona, kind),
  });
  await screen.findByRole('heading', { level: 1, name: kind === 'audio' ? 'Audio Quizzes' : 'Text Quizzes' });
  return view;
}

const card = (title: string) => screen.getByRole('listitem', { name: title });
const question = (text: string) => screen.getByRole('group', { name: new RegExp(text.replace('?', '\\?')) });

describe('quiz lists (/audio-quizzes, /text-quizzes; spec §2, §6)', { timeout: 20_000 }, () => {
  it('a student sees title, description, question count and attempts allowed, and may only start', async () => {
    await open([
      makeQuiz({ title: 'Saludos', description: 'Greetings', maxAttempts: 3 }),
      makeQuiz({ title: 'Números', maxAttempts: -1 }),
    ]);
    await screen.findByRole('heading', { name: 'Saludos' });
    const first = within(card('Saludos'));
    expect(first.getByText('Greetings')).toBeInTheDocument();
    expect(first.getByText('3 questions')).toBeInTheDocument();
    expect(first.getByText('Attempts allowed:').nextSibling).toHaveTextContent('3');
    expect(within(card('Números')).getByText('Unlimited')).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Start Quiz: Saludos' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Create Quiz' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete / })).not.toBeInTheDocument();
  });

  it('says how many attempts the student used, and disables Start with the reason at the limit (issue #34)', async () => {
    const saludos = makeQuiz({ title: 'Saludos', maxAttempts: 3 });
    const numeros = makeQuiz({ title: 'Números', maxAttempts: 3 });
    const libre = makeQuiz({ title: 'Libre', maxAttempts: -1 });
    const { fetch } = await renderApp('/text-quizzes', {
      user: personas.student(),
      setup: (f) =>
        f.on('GET', '/api/text-quizzes', {
          json: [
            listedForTaking(saludos, { attemptsUsed: 2 }),
            listedForTaking(numeros, { attemptsUsed: 3 }),
            listedForTaking(libre, { attemptsUsed: 4, attemptsAllowed: -1 }),
          ],
        }),
    });
    await screen.findByRole('heading', { name: 'Saludos' });
    // The spec's card text stays; the count is the caller's own.
    expect(within(card('Saludos')).getByText('Attempts allowed:').nextSibling).toHaveTextContent('3');
    expect(within(card('Saludos')).getByText('2 of 3 attempts used')).toBeInTheDocument();
    expect(within(card('Saludos')).getByRole('button', { name: 'Start Quiz: Saludos' })).toBeEnabled();

    expect(within(card('Números')).getByText('3 of 3 attempts used')).toBeInTheDocument();
    const start = within(card('Números')).getByRole('button', { name: 'Start Quiz: Números' });
    expect(start).toBeDisabled();
    const reason = `${AssessmentMessages.attemptLimitTitle}: ${AssessmentMessages.attemptLimit(3, 3)}`;
    expect(start).toHaveAccessibleDescription(reason);
    expect(within(card('Números')).getByText(AssessmentMessages.attemptLimit(3, 3))).toBeVisible();

    expect(within(card('Libre')).getByText('4 attempts used')).toBeInTheDocument();
    expect(within(card('Libre')).getByRole('button', { name: 'Start Quiz: Libre' })).toBeEnabled();
    expect(fetch.calls('POST', /\/attempts$/)).toHaveLength(0);
  });

  it('counts the attempt just submitted once back on the list', async () => {
    const quiz = makeQuiz({ title: 'Saludos', maxAttempts: 1 });
    let used = 0;
    const { user, fetch } = await renderApp('/text-quizzes', {
      user: personas.student(),
      setup: (f) => {
        f.on('GET', '/api/text-quizzes', () => ({ json: [listedForTaking(quiz, { attemptsUsed: used })] }));
        f.on('POST', `/api/text-quizzes/${quiz.id}/attempts`, () => ({ json: attemptOf(quiz) }));
        f.on('POST', '/api/text-quiz-grades', () => {
          used = 1;
          return { status: 201, json: gradeFor(quiz, [0, 1, 2]) };
        });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Start Quiz: Saludos' }));
    await screen.findByRole('button', { name: 'Submit Quiz' });
    for (const word of ['uno', 'dos', 'tres'])
      await user.click(within(question(`What is ${word}?`)).getByRole('radio', { name: `${word}-A` }));
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    await screen.findByText('Question Review');
    await user.click(screen.getAllByRole('button', { name: 'Back to Quizzes' })[0]!);
    expect(
      await within(await screen.findByRole('listitem', { name: 'Saludos' })).findByText(
        '1 of 1 attempt used',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Quiz: Saludos' })).toBeDisabled();
    expect(fetch.calls('POST', `/api/text-quizzes/${quiz.id}/attempts`)).toHaveLength(1);
  });

  it('shows a teacher Edit and Delete only on quizzes the server says they may change', async () => {
    const mine = makeQuiz({ title: 'Mine' });
    const theirs = makeQuiz({ title: 'Theirs' });
    await renderApp('/text-quizzes', {
      user: personas.teacher(),
      setup: (f) =>
        f.on('GET', '/api/text-quizzes', { json: [authored(mine), authored(theirs, { canEdit: false })] }),
    });
    await screen.findByRole('heading', { name: 'Theirs' });
    expect(screen.getByRole('button', { name: 'Edit Mine' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Mine' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Theirs' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Theirs' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Quiz: Theirs' })).toBeEnabled();
  });

  it('a teacher also gets Create Quiz, Edit and Delete', async () => {
    await open([makeQuiz({ title: 'Saludos' })], 'teacher', 'audio');
    await screen.findByRole('heading', { name: 'Saludos' });
    expect(screen.getByRole('button', { name: 'Create Quiz' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Saludos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Saludos' })).toBeInTheDocument();
  });

  it("a visitor gets the login prompt from the route guard; an expired session gets the server's prompt", async () => {
    const view = await renderApp('/audio-quizzes', { user: null });
    expect(
      await screen.findByRole('heading', { level: 1, name: IdentityMessages.authenticationRequired }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/api/auth/google');
    view.unmount();

    await renderApp('/text-quizzes', {
      user: personas.student(),
      setup: (f) =>
        f.on('GET', '/api/text-quizzes', {
          status: 401,
          json: { statusCode: 401, message: AssessmentMessages.quizzesLoginRequired },
        }),
    });
    expect(await screen.findByText(AssessmentMessages.quizzesLoginRequired)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/api/auth/google');
  });

  it("without a sign-in provider, an expired session's Login opens the email sign-in dialog instead of a dead end", async () => {
    const { user } = await renderApp('/text-quizzes', {
      user: personas.student(),
      setup: (f) => {
        f.on('GET', '/api/auth/sign-in-methods', { json: { password: true, thirdParty: false } });
        f.on('GET', '/api/text-quizzes', {
          status: 401,
          json: { statusCode: 401, message: AssessmentMessages.quizzesLoginRequired },
        });
      },
    });
    expect(await screen.findByText(AssessmentMessages.quizzesLoginRequired)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('dialog', { name: 'Sign In' })).toBeInTheDocument();
  });

  it.each([
    ['Audio Quizzes', 'audio'],
    ['Text Quizzes', 'text'],
  ] as const)('the tools hub launches %s as the real screen', async (title, kind) => {
    const { user } = await renderApp('/educational-tools', {
      user: personas.student(),
      setup: (f) =>
        f.on('GET', `/api/${kind}-quizzes`, {
          json: [listedForTaking(makeQuiz({ title: 'Saludos', kind }))],
        }),
    });
    await user.click(await screen.findByRole('link', { name: `Launch Tool: ${title}` }));
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Start Quiz: Saludos' })).toBeInTheDocument();
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
  });

  it("shows 'Failed to fetch quizzes' with Try Again on other failures", async () => {
    const { user, fetch } = await renderApp('/text-quizzes', {
      user: personas.student(),
      setup: (f) =>
        f.on('GET', '/api/text-quizzes', {
          status: 500,
          json: { statusCode: 500, message: 'Database unavailable' },
        }),
    });
    expect(await screen.findByText(AssessmentMessages.fetchQuizzesFailed)).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    fetch.on('GET', '/api/text-quizzes', { json: [listedForTaking(makeQuiz({ title: 'Saludos' }))] });
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'Saludos' })).toBeInTheDocument();
  });
});

describe('taking a quiz (spec §4, §5)', { timeout: 20_000 }, () => {
  it("shows 'Attempt Limit Reached' with the server's sentence on 409", async () => {
    const quiz = makeQuiz({ title: 'Saludos' });
    const { user, fetch } = await open([quiz]);
    const sentence = AssessmentMessages.attemptLimit(1, 1);
    fetch.on('POST', `/api/text-quizzes/${quiz.id}/attempts`, {
      status: 409,
      json: {
        statusCode: 409,
        message: sentence,
        details: { title: 'Attempt Limit Reached', attemptsTaken: 1, maxAttempts: 1 },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Start Quiz: Saludos' }));
    expect(await screen.findByText('Attempt Limit Reached')).toBeInTheDocument();
    expect(
      screen.getByText('You have already taken this quiz 1 time(s). Maximum attempts allowed: 1.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Quiz' })).not.toBeInTheDocument();
  });

  it('a 409 on submission (the last attempt used in another tab) shows the notice and is not retried', async () => {
    const quiz = makeQuiz({ title: 'Saludos' });
    const { user, fetch } = await open([quiz]);
    fetch.on('POST', '/api/text-quiz-grades', {
      status: 409,
      json: { statusCode: 409, message: AssessmentMessages.attemptLimit(1, 1) },
    });
    await user.click(await screen.findByRole('button', { name: 'Start Quiz: Saludos' }));
    await screen.findByRole('button', { name: 'Submit Quiz' });
    for (const word of ['uno', 'dos', 'tres'])
      await user.click(within(question(`What is ${word}?`)).getByRole('radio', { name: `${word}-A` }));
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    expect(await screen.findByText(AssessmentMessages.attemptLimit(1, 1))).toBeInTheDocument();
    expect(screen.getByText('Attempt Limit Reached')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit Quiz' })).toBeDisabled();
    expect(fetch.calls('POST', '/api/text-quiz-grades')).toHaveLength(1);
  });

  it('shuffles the questions but sends the answers in the original order', async () => {
    const quiz = makeQuiz({ title: 'Saludos' });
    vi.spyOn(Math, 'random').mockReturnValue(0); // Fisher–Yates with 0 turns [0, 1, 2] into [1, 2, 0]
    const { user, fetch } = await open([quiz]);
    fetch.on('POST', '/api/text-quiz-grades', (req) => ({
      status: 201,
      json: gradeFor(quiz, (req.body as { userAnswers: number[] }).userAnswers),
    }));
    await user.click(await screen.findByRole('button', { name: 'Start Quiz: Saludos' }));
    await screen.findByRole('button', { name: 'Submit Quiz' });
    const shown = screen.getAllByRole('group').map((g) => g.textContent?.match(/What is \w+\?/)?.[0]);
    expect(shown).toEqual(['What is dos?', 'What is tres?', 'What is uno?']);
    expect(within(screen.getAllByRole('group')[0]).getByText('Question 1.')).toBeInTheDocument();

    await user.click(within(question('What is uno?')).getByRole('radio', { name: 'uno-B' }));
    await user.click(within(question('What is dos?')).getByRole('radio', { name: 'dos-D' }));
    await user.click(within(question('What is tres?')).getByRole('radio', { name: 'tres-A' }));
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));

    await screen.findByText('Question Review');
    expect(fetch.calls('POST', '/api/text-quiz-grades')[0]?.body).toEqual({
      quizId: quiz.id,
      userAnswers: [1, 3, 0],
    });
  });

  it('keeps Submit disabled until every question is answered', async () => {
    const quiz = makeQuiz({ title: 'Saludos' });
    const { user, fetch } = await open([quiz]);
    fetch.on('POST', '/api/text-quiz-grades', (req) => ({
      status: 201,
      json: gradeFor(quiz, (req.body as { userAnswers: number[] }).userAnswers),
    }));
    await user.click(await screen.findByRole('button', { name: 'Start Quiz: Saludos' }));
    const submit = await screen.findByRole('button', { name: 'Submit Quiz' });
    expect(submit).toBeDisabled();
    await user.click(within(question('What is uno?')).getByRole('radio', { name: 'uno-A' }));
    await user.click(within(question('What is dos?')).getByRole('radio', { name: 'dos-A' }));
    expect(submit).toBeDisabled();
    expect(screen.getByText(/Answered 2 of 3/)).toHaveTextContent(AssessmentMessages.answersRequired);
    await user.click(submit);
    expect(fetch.calls('POST', '/api/text-quiz-grades')).toHaveLength(0);
    await user.click(within(question('What is tres?')).getByRole('radio', { name: 'tres-A' }));
    expect(submit).toBeEnabled();
    await user.click(submit);
    await screen.findByText('Question Review');
    expect(fetch.calls('POST', '/api/text-quiz-grades')).toHaveLength(1);
  });

  it('moves focus to the quiz, then to the results, then back to the list (keyboard users are not sent to the top)', async () => {
    const quiz = makeQuiz({ title: 'Saludos' });
    const { user, fetch } = await open([quiz]);
    fetch.on('POST', '/api/text-quiz-grades', (req) => ({
      status: 201,
      json: gradeFor(quiz, (req.body as { userAnswers: number[] }).userAnswers),
    }));
    await user.click(await screen.findByRole('button', { name: 'Start Quiz: Saludos' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Saludos' })).toHaveFocus());
    for (const word of ['uno', 'dos', 'tres'])
      await user.click(within(question(`What is ${word}?`)).getByRole('radio', { name: `${word}-A` }));
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2, name: 'Results: Saludos' })).toHaveFocus(),
    );
    await user.click(screen.getAllByRole('button', { name: 'Back to Quizzes' })[0]!);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Quiz: Saludos' })).toHaveFocus());
  });

  async function answerAll(user: Awaited<ReturnType<typeof open>>['user']) {
    for (const word of ['uno', 'dos', 'tres'])
      await user.click(within(question(`What is ${word}?`)).getByRole('radio', { name: `${word}-A` }));
  }

  it('sends a fresh Idempotency-Key per attempt and the same key on every retry of one attempt', async () => {
    const quiz = makeQuiz({ title: 'Saludos', maxAttempts: -1 });
    const { user, fetch } = await open([quiz]);
    let failures = 3; // the submission and its automatic retry fail; the manual resubmission fails once more, its retry gets through
    fetch.on('POST', '/api/text-quiz-grades', (req) => {
      if (failures > 0) {
        failures -= 1;
        throw new TypeError('Failed to fetch');
      }
      return { status: 201, json: gradeFor(quiz, (req.body as { userAnswers: number[] }).userAnswers) };
    });
    await user.click(await screen.findByRole('button', { name: 'Start Quiz: Saludos' }));
    await screen.findByRole('button', { name: 'Submit Quiz' });
    await answerAll(user);
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    expect(await screen.findByText(/Your answers could not be sent/)).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/text-quiz-grades')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    await screen.findByText('Question Review');

    const keys = fetch.calls('POST', '/api/text-quiz-grades').map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);

    await user.click(screen.getAllByRole('button', { name: 'Back to Quizzes' })[0]);
    await user.click(await screen.findByRole('button', { name: 'Start Quiz: Saludos' }));
    await screen.findByRole('button', { name: 'Submit Quiz' });
    await answerAll(user);
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    await screen.findByText('Question Review');
    const second = fetch.calls('POST', '/api/text-quiz-grades').at(-1)?.headers['idempotency-key'];
    expect(second).toMatch(UUID);
    expect(second).not.toBe(keys[0]);
  });
});

describe('results and review (spec §4, §5)', { timeout: 20_000 }, () => {
  async function submitWith(
    gradeOverrides: Parameters<typeof gradeFor>[2],
    answers = [0, 1, 2],
    kind: 'audio' | 'text' = 'text',
  ) {
    const quiz = makeQuiz({ title: 'Saludos', kind });
    if (kind === 'audio') (await import('@/testing/fake-audio')).installFakeAudio();
    const view = await open([quiz], 'student', kind);
    view.fetch.on('POST', kind === 'audio' ? '/api/quiz-grades' : '/api/text-quiz-grades', {
      status: 201,
      json: gradeFor(quiz, answers, gradeOverrides),
    });
    await view.user.click(await screen.findByRole('button', { name: 'Start Quiz: Saludos' }));
    await screen.findByRole('button', { name: 'Submit Quiz' });
    for (const word of ['uno', 'dos', 'tres'])
      await view.user.click(within(question(`What is ${word}?`)).getByRole('radio', { name: `${word}-A` }));
    await view.user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    await screen.findByText('Question Review');
    return view;
  }

  it('shows 70 as a success with score and correct/total', async () => {
    await submitWith({ score: 70, correctAnswers: 7, totalQuestions: 10 });
    expect(screen.getByText('70%').closest('[data-result]')).toHaveAttribute('data-result', 'success');
    expect(screen.getByText('Passed')).toBeInTheDocument();
    expect(screen.getByText('7 / 10 correct')).toBeInTheDocument();
  });

  it('shows 69 as a warning', async () => {
    await submitWith({ score: 69, correctAnswers: 9, totalQuestions: 13, passed: false });
    expect(screen.getByText('69%').closest('[data-result]')).toHaveAttribute('data-result', 'warning');
    expect(screen.queryByText('Passed')).not.toBeInTheDocument();
    expect(screen.getByText('9 / 13 correct')).toBeInTheDocument();
  });

  it("marks the correct option 'Correct Answer', a wrong pick 'Your Answer', and Correct/Incorrect on text quizzes", async () => {
    const { user } = await submitWith({}, [1, 1, 0]); // key: 0, 1, 2
    const review = (n: number) => within(screen.getByRole('listitem', { name: new RegExp(`^${n}\\. `) }));
    const option = (n: number, text: string) => review(n).getByText(text).closest('li') as HTMLElement;

    expect(review(1).getByText('Incorrect')).toBeInTheDocument();
    expect(within(option(1, 'uno-A')).getByText('Correct Answer')).toBeInTheDocument();
    expect(within(option(1, 'uno-B')).getByText('Your Answer')).toBeInTheDocument();
    expect(review(1).getAllByText('Your Answer')).toHaveLength(1);

    expect(review(2).getByText('Correct')).toBeInTheDocument();
    expect(within(option(2, 'dos-B')).getByText('Correct Answer')).toBeInTheDocument();
    expect(review(2).queryByText('Your Answer')).not.toBeInTheDocument();

    expect(review(3).getByText('Incorrect')).toBeInTheDocument();
    expect(within(option(3, 'tres-C')).getByText('Correct Answer')).toBeInTheDocument();
    expect(within(option(3, 'tres-A')).getByText('Your Answer')).toBeInTheDocument();

    await user.click(screen.getAllByRole('button', { name: 'Back to Quizzes' })[0]);
    expect(await screen.findByRole('button', { name: 'Start Quiz: Saludos' })).toBeInTheDocument();
  });

  it.each([
    [
      'afterLastAttempt',
      'The correct answers will be shown once you have used all your attempts on this quiz.',
    ],
    ['never', 'Your teacher has chosen not to show the correct answers for this quiz.'],
  ] as const)(
    'without the key (%s): the answers given and whether each was right, and why no key',
    async (answerKey, note) => {
      const quiz = makeQuiz({ title: 'Saludos', kind: 'audio' });
      const withheld = {
        answerKey,
        questions: quiz.questions.map(({ correctAnswer: _key, ...q }) => q),
        answersCorrect: [false, true, false],
      };
      await submitWith(withheld, [1, 1, 0], 'audio');
      const review = (n: number) => within(screen.getByRole('listitem', { name: new RegExp(`^${n}\\. `) }));
      const option = (n: number, text: string) => review(n).getByText(text).closest('li') as HTMLElement;
      expect(screen.getByTestId('answer-key-withheld')).toHaveTextContent(note);
      expect(screen.queryByText('Correct Answer')).not.toBeInTheDocument();
      expect(review(1).getByText('Incorrect')).toBeInTheDocument();
      expect(within(option(1, 'uno-B')).getByText('Your Answer')).toBeInTheDocument();
      expect(review(2).getByText('Correct')).toBeInTheDocument();
      expect(within(option(2, 'dos-B')).getByText('Your Answer')).toBeInTheDocument();
      expect(review(3).getByText('Incorrect')).toBeInTheDocument();
      expect(screen.getAllByText('Your Answer')).toHaveLength(3);
    },
  );

  it('audio reviews have no Correct/Incorrect badges but a play button per question', async () => {
    await submitWith({}, [1, 1, 0], 'audio');
    expect(screen.queryByText('Incorrect')).not.toBeInTheDocument();
    expect(screen.getAllByText('Correct Answer')).toHaveLength(3);
    expect(screen.getAllByText('Your Answer')).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: 'Loading' })).toHaveLength(3);
  });
});

describe('the audio play limit (spec §4 via the quiz setting)', { timeout: 20_000 }, () => {
  it('shows plays left per question and refuses a new play when none are left', async () => {
    const { installFakeAudio } = await import('@/testing/fake-audio');
    const audiosFor = installFakeAudio();
    const quiz = makeQuiz({ title: 'Escucha', kind: 'audio', audioPlayLimit: 1 });
    const { user } = await open([quiz], 'student', 'audio');
    await user.click(await screen.findByRole('button', { name: 'Start Quiz: Escucha' }));
    await screen.findByRole('button', { name: 'Submit Quiz' });
    const uno = within(question('What is uno?'));
    const dos = within(question('What is dos?'));
    expect(uno.getByText('Plays left: 1')).toBeInTheDocument();

    const audio = audiosFor('https://cdn.example.test/uno.mp3').at(-1)!;
    act(() => audio.fire('canplay'));
    await user.click(await uno.findByRole('button', { name: 'Play' }));
    expect(await uno.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(uno.getByText('No plays left')).toBeInTheDocument();

    // Pausing and resuming is the same play.
    await user.click(uno.getByRole('button', { name: 'Pause' }));
    expect(uno.getByRole('button', { name: 'Play' })).toBeEnabled();
    await user.click(uno.getByRole('button', { name: 'Play' }));
    expect(await uno.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(audio.play).toHaveBeenCalledTimes(2);

    act(() => audio.fire('ended'));
    expect(await uno.findByRole('button', { name: 'Replay' })).toBeDisabled();
    await user.click(uno.getByRole('button', { name: 'Replay' }));
    expect(audio.play).toHaveBeenCalledTimes(2);
    expect(dos.getByText('Plays left: 1')).toBeInTheDocument();
  });
});

describe('deleting a quiz (spec §6, §8)', { timeout: 20_000 }, () => {
  it('asks first, deletes on confirm, and reports a failure as "Failed to delete quiz: {message}"', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const quizzes = [makeQuiz({ title: 'Saludos' }), makeQuiz({ title: 'Números' })];
    const { user, fetch } = await open(quizzes, 'teacher');
    const [saludos, numeros] = quizzes;
    fetch.on('DELETE', `/api/text-quizzes/${saludos.id}`, () => {
      quizzes.splice(quizzes.indexOf(saludos), 1);
      return { status: 204 };
    });
    fetch.on('DELETE', `/api/text-quizzes/${numeros.id}`, {
      status: 500,
      json: { statusCode: 500, message: 'Database unavailable' },
    });

    await user.click(await screen.findByRole('button', { name: 'Delete Saludos' }));
    let dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText(/Are you sure you want to delete the quiz "Saludos"\?/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(fetch.calls('DELETE', `/api/text-quizzes/${saludos.id}`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Saludos' }));
    dialog = within(await screen.findByRole('alertdialog'));
    await user.click(dialog.getByRole('button', { name: 'Delete Quiz' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Saludos' })).not.toBeInTheDocument());
    expect(fetch.calls('DELETE', `/api/text-quizzes/${saludos.id}`)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Delete Números' }));
    dialog = within(await screen.findByRole('alertdialog'));
    await user.click(dialog.getByRole('button', { name: 'Delete Quiz' }));
    expect(await screen.findByText('Failed to delete quiz: Database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Números' })).toBeInTheDocument();
  });
});
