import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AssessmentMessages, type Quiz } from '@district/contracts/assessment';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { installFakeAudio } from '@/testing/fake-audio';
import { authored, makeQuiz } from '../quizzes.fixtures.testing';

configure({ asyncUtilTimeout: 4000 });

afterEach(() => vi.restoreAllMocks());

async function openForm(kind: 'audio' | 'text', quizzes: Quiz[] = [], edit?: string) {
  const view = await renderApp(`/${kind}-quizzes`, {
    user: personas.teacher(),
    setup: (f: FetchStub) =>
      f.on('GET', `/api/${kind}-quizzes`, () => ({ json: quizzes.map((q) => authored(q)) })),
  });
  await view.user.click(await screen.findByRole('button', { name: edit ? `Edit ${edit}` : 'Create Quiz' }));
  await screen.findByRole('heading', {
    level: 2,
    name: edit ? `Edit Quiz: ${edit}` : `Create ${kind === 'audio' ? 'Audio' : 'Text'} Quiz`,
  });
  return view;
}

const group = (n: number) => within(screen.getByRole('group', { name: `Question ${n}` }));

describe('quiz create and edit (spec §4 "Quiz edit", §5, §8)', { timeout: 20_000 }, () => {
  it('audio: Save is enabled only with a title and an audio URL and question text on every question; the body sent', async () => {
    const quizzes: Quiz[] = [];
    const { user, fetch } = await openForm('audio', quizzes);
    fetch.on('POST', '/api/audio-quizzes', (req) => {
      const quiz = makeQuiz({ kind: 'audio', ...(req.body as object) });
      quizzes.push(quiz);
      return { status: 201, json: quiz };
    });
    const save = screen.getByRole('button', { name: 'Save Quiz' });
    expect(save).toBeDisabled();

    await user.type(screen.getByLabelText('Title'), '  Saludos ');
    expect(save).toBeDisabled();
    await user.type(group(1).getByLabelText('Question'), 'What do you hear?');
    expect(save).toBeDisabled();
    await user.type(group(1).getByLabelText('Audio URL'), 'https://cdn.example.test/hola.mp3');
    expect(save).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Add Question' }));
    expect(save).toBeDisabled();
    await user.type(group(2).getByLabelText('Audio URL'), 'https://cdn.example.test/adios.mp3');
    expect(save).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Remove Question 2' }));
    expect(save).toBeEnabled();
    await user.clear(screen.getByLabelText('Title'));
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText('Title'), 'Saludos');

    const attempts = screen.getByLabelText('Max Attempts');
    expect(attempts).toHaveValue('1');
    expect(
      within(attempts)
        .getAllByRole('option')
        .map((o) => [o.getAttribute('value'), o.textContent]),
    ).toEqual([
      ['1', '1 attempt'],
      ['2', '2 attempts'],
      ['3', '3 attempts'],
      ['5', '5 attempts'],
      ['10', '10 attempts'],
      ['-1', 'Unlimited'],
    ]);
    await user.selectOptions(attempts, 'Unlimited');
    expect(screen.getByLabelText('Audio Play Limit')).toHaveValue('');
    await user.selectOptions(screen.getByLabelText('Audio Play Limit'), '2 plays');
    for (const [i, word] of ['hola', 'adiós', 'gracias', 'por favor'].entries())
      await user.type(group(1).getByLabelText(`Option ${i + 1}`), word);
    await user.selectOptions(group(1).getByLabelText('Correct Answer'), 'Option 1');
    // The review setting (ADR 0033): a labelled choice, 'After every attempt' (the spec's review) by default.
    const reveal = screen.getByLabelText('Show Correct Answers');
    expect(reveal).toHaveValue('always');
    expect(reveal).toHaveAccessibleDescription(/When students see the correct answers/);
    expect(
      within(reveal)
        .getAllByRole('option')
        .map((o) => [o.getAttribute('value'), o.textContent]),
    ).toEqual([
      ['always', 'After every attempt'],
      ['afterLastAttempt', 'After the last attempt'],
      ['never', 'Never'],
    ]);
    await user.selectOptions(reveal, 'After the last attempt');

    await user.click(save);
    expect(await screen.findByText('Quiz created successfully')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/audio-quizzes')[0]?.body).toEqual({
      title: 'Saludos',
      description: '',
      maxAttempts: -1,
      audioPlayLimit: 2,
      revealAnswers: 'afterLastAttempt',
      questions: [
        {
          audioUrl: 'https://cdn.example.test/hola.mp3',
          question: 'What do you hear?',
          options: ['hola', 'adiós', 'gracias', 'por favor'],
          correctAnswer: 0,
        },
      ],
    });
    // Back on the list, which is fetched again and shows the new quiz.
    expect(await screen.findByRole('button', { name: 'Start Quiz: Saludos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Quiz' })).toBeInTheDocument();
  });

  it("shows the server's 400 as 'Error creating/updating quiz: {message}', else 'Unknown error'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, fetch } = await openForm('audio');
    fetch.on('POST', '/api/audio-quizzes', {
      status: 400,
      json: { statusCode: 400, message: AssessmentMessages.fourOptions(1) },
    });
    await user.type(screen.getByLabelText('Title'), 'Saludos');
    await user.type(group(1).getByLabelText('Question'), 'What do you hear?');
    await user.type(group(1).getByLabelText('Audio URL'), 'https://cdn.example.test/hola.mp3');
    await user.click(screen.getByRole('button', { name: 'Save Quiz' }));
    expect(
      await screen.findByText('Error creating/updating quiz: Question 1 needs exactly 4 non-empty options.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Create Audio Quiz' })).toBeInTheDocument();

    fetch.on('POST', '/api/audio-quizzes', { status: 502, text: '<html>Bad gateway</html>' });
    await user.click(screen.getByRole('button', { name: 'Save Quiz' }));
    expect(await screen.findByText('Error creating/updating quiz: Unknown error')).toBeInTheDocument();
  });

  it("text: Save stops at 'Quiz title is required.' and 'At least one question is required.'", async () => {
    const { user, fetch } = await openForm('text');
    expect(screen.queryByLabelText('Audio URL')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Audio Play Limit')).not.toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save Quiz' });
    expect(save).toBeEnabled();
    await user.click(save);
    expect(await screen.findByText(AssessmentMessages.titleRequired)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Title'), 'Lectura');
    await user.click(screen.getByRole('button', { name: 'Remove Question 1' }));
    await user.click(save);
    expect(await screen.findByText(AssessmentMessages.questionRequired)).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/text-quizzes')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Create Quiz' })).toBeInTheDocument();
  });

  it('edit: prefilled from the quiz, sent whole with PUT', async () => {
    const quiz = makeQuiz({
      title: 'Saludos',
      description: 'Greetings',
      maxAttempts: 3,
      revealAnswers: 'never',
    });
    const { user, fetch } = await openForm('text', [quiz], 'Saludos');
    fetch.on('PUT', `/api/text-quizzes/${quiz.id}`, (req) => ({
      json: { ...quiz, ...(req.body as object), version: 2 },
    }));
    expect(screen.getByLabelText('Title')).toHaveValue('Saludos');
    expect(screen.getByLabelText('Description')).toHaveValue('Greetings');
    expect(screen.getByLabelText('Max Attempts')).toHaveValue('3');
    expect(screen.getByLabelText('Show Correct Answers')).toHaveValue('never');
    expect(group(2).getByLabelText('Question')).toHaveValue('What is dos?');
    expect(group(2).getByLabelText('Option 4')).toHaveValue('dos-D');
    expect(group(2).getByLabelText('Correct Answer')).toHaveValue('1');

    await user.type(screen.getByLabelText('Title'), ' 2');
    await user.selectOptions(group(3).getByLabelText('Correct Answer'), 'Option 4');
    await user.click(screen.getByRole('button', { name: 'Update Quiz' }));
    expect(await screen.findByText('Quiz updated successfully')).toBeInTheDocument();
    expect(fetch.calls('PUT', `/api/text-quizzes/${quiz.id}`)[0]?.body).toEqual({
      title: 'Saludos 2',
      description: 'Greetings',
      maxAttempts: 3,
      audioPlayLimit: null,
      // Kept as it was: an edit never resets the review setting.
      revealAnswers: 'never',
      questions: quiz.questions.map((q, i) => ({
        question: q.question,
        options: q.options,
        correctAnswer: i === 2 ? 3 : q.correctAnswer,
      })),
    });
  });

  it("audio: 'Test' of a URL says 'URL Failed' or 'Audio Ready' (previewed at 0.6)", async () => {
    const audiosFor = installFakeAudio();
    const { user } = await openForm('audio');
    const test = group(1).getByRole('button', { name: 'Test audio URL for question 1' });
    expect(test).toBeDisabled();
    await user.type(group(1).getByLabelText('Audio URL'), 'https://cdn.example.test/missing.mp3');
    await user.click(test);
    expect(group(1).getByText('Testing…')).toBeInTheDocument();
    act(() => audiosFor('https://cdn.example.test/missing.mp3').at(-1)!.fire('error'));
    expect(await group(1).findByText('URL Failed')).toBeInTheDocument();

    await user.clear(group(1).getByLabelText('Audio URL'));
    await user.type(group(1).getByLabelText('Audio URL'), 'https://cdn.example.test/hola.mp3');
    expect(group(1).queryByText('URL Failed')).not.toBeInTheDocument();
    await user.click(test);
    const audio = audiosFor('https://cdn.example.test/hola.mp3').at(-1)!;
    expect(audio.volume).toBe(0.6);
    act(() => audio.fire('canplay'));
    expect(await group(1).findByText('Audio Ready')).toBeInTheDocument();
    expect(audio.play).toHaveBeenCalled();
  });
});

describe('assigning a quiz to classes (issue #36, ADR 0042)', { timeout: 20_000 }, () => {
  const period1 = {
    id: '00000000-0000-4000-8000-c10000000001',
    title: 'Spanish 1 - Period 1',
    schoolId: '00000000-0000-4000-8000-5c0000000001',
    schoolName: 'Lincoln Elementary',
    term: 'Fall 2026',
    courseCode: 'SPA1',
    active: true,
    teacherCount: 1,
    studentCount: 20,
  };
  const period2 = { ...period1, id: '00000000-0000-4000-8000-c10000000002', title: 'Spanish 1 - Period 2' };

  async function openWithClasses(quizzes: Quiz[], edit?: string) {
    const view = await renderApp('/text-quizzes', {
      user: personas.teacher(),
      setup: (f: FetchStub) => {
        f.on('GET', '/api/text-quizzes', () => ({ json: quizzes.map((q) => authored(q)) }));
        f.on('GET', '/api/classes', { json: [period1, period2] });
      },
    });
    await view.user.click(await screen.findByRole('button', { name: edit ? `Edit ${edit}` : 'Create Quiz' }));
    await screen.findByRole('group', { name: 'Classes' });
    return view;
  }

  it("offers the teacher's classes as checkboxes and sends the checked ones", async () => {
    const quizzes: Quiz[] = [];
    const { user, fetch } = await openWithClasses(quizzes);
    fetch.on('POST', '/api/text-quizzes', (req) => {
      const quiz = makeQuiz({ ...(req.body as object) });
      quizzes.push(quiz);
      return { status: 201, json: quiz };
    });
    const classes = within(screen.getByRole('group', { name: 'Classes' }));
    expect(screen.getByRole('group', { name: 'Classes' })).toHaveAccessibleDescription(
      /None checked: every student/,
    );
    expect(classes.getByRole('checkbox', { name: /Spanish 1 - Period 1/ })).not.toBeChecked();
    await user.click(classes.getByRole('checkbox', { name: /Spanish 1 - Period 2/ }));
    await user.type(screen.getByLabelText('Title'), 'Lectura');
    await user.click(screen.getByRole('button', { name: 'Save Quiz' }));
    expect(await screen.findByText('Quiz created successfully')).toBeInTheDocument();
    expect((fetch.calls('POST', '/api/text-quizzes')[0]?.body as { classIds?: string[] }).classIds).toEqual([
      period2.id,
    ]);
  });

  it('none checked sends no classIds (every student); an edit sends them only when changed', async () => {
    const quiz = makeQuiz({ title: 'Saludos', classIds: [period1.id] });
    const { user, fetch } = await openWithClasses([quiz], 'Saludos');
    fetch.on('PUT', `/api/text-quizzes/${quiz.id}`, (req) => ({
      json: { ...quiz, ...(req.body as object) },
    }));
    const classes = within(screen.getByRole('group', { name: 'Classes' }));
    expect(classes.getByRole('checkbox', { name: /Spanish 1 - Period 1/ })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Update Quiz' }));
    expect(await screen.findByText('Quiz updated successfully')).toBeInTheDocument();
    expect(fetch.calls('PUT', `/api/text-quizzes/${quiz.id}`)[0]?.body).not.toHaveProperty('classIds');

    await user.click(await screen.findByRole('button', { name: 'Edit Saludos' }));
    await user.click(
      within(await screen.findByRole('group', { name: 'Classes' })).getByRole('checkbox', {
        name: /Spanish 1 - Period 1/,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Update Quiz' }));
    await screen.findByRole('button', { name: 'Create Quiz' });
    expect(fetch.calls('PUT', `/api/text-quizzes/${quiz.id}`)[1]?.body).toHaveProperty('classIds', []);
  });

  it("shows the server's refusal of a class that is not the author's", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, fetch } = await openWithClasses([]);
    fetch.on('POST', '/api/text-quizzes', {
      status: 400,
      json: { statusCode: 400, message: AssessmentMessages.classNotYours },
    });
    await user.click(screen.getByRole('checkbox', { name: /Spanish 1 - Period 1/ }));
    await user.type(screen.getByLabelText('Title'), 'Lectura');
    await user.click(screen.getByRole('button', { name: 'Save Quiz' }));
    expect(
      await screen.findByText(`Error creating/updating quiz: ${AssessmentMessages.classNotYours}`),
    ).toBeInTheDocument();
  });

  it('a teacher without classes gets the form as before, without Classes', async () => {
    const view = await renderApp('/text-quizzes', {
      user: personas.teacher(),
      setup: (f: FetchStub) => {
        f.on('GET', '/api/text-quizzes', { json: [] });
        f.on('GET', '/api/classes', { json: [] });
      },
    });
    await view.user.click(await screen.findByRole('button', { name: 'Create Quiz' }));
    await screen.findByRole('heading', { level: 2, name: 'Create Text Quiz' });
    await waitFor(() => expect(view.fetch.calls('GET', '/api/classes')).toHaveLength(1));
    expect(screen.queryByRole('group', { name: 'Classes' })).not.toBeInTheDocument();
  });
});
