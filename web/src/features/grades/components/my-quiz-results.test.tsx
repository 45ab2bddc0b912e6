import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Grade } from '@district/contracts/assessment';
import type { User } from '@district/contracts/identity';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { installFakeAudio } from '@/testing/fake-audio';
import { renderApp } from '@/testing/render-app';
import { makeGrade, uuid } from '../grades.fixtures.testing';

configure({ asyncUtilTimeout: 4000 });

let audiosFor: ReturnType<typeof installFakeAudio>;

function open(user: User, audio: Grade[] | ((f: FetchStub) => void), text: Grade[] = []) {
  // jsdom loads no media: every source says it can play at once.
  audiosFor = installFakeAudio({ autoReady: true });
  return renderApp('/profile', {
    user,
    setup: (f) => {
      if (typeof audio === 'function') audio(f);
      else f.on('GET', '/api/quiz-grades', { json: audio });
      f.on('GET', '/api/text-quiz-grades', { json: text });
    },
  });
}

const results = () => screen.findByRole('heading', { level: 2, name: 'My Quiz Results' });

describe("profile 'My Quiz Results' (classroom-tools §2, §4, §6)", { timeout: 20_000 }, () => {
  it('asks for the own results only and shows the two tabs with their counts (tablist, arrow keys)', async () => {
    const me = personas.student();
    const other = uuid(99, 'beef');
    const view = await open(
      me,
      [
        makeGrade({ userId: me.id, quizTitle: 'Colores' }),
        makeGrade({ userId: me.id, quizTitle: 'Números' }),
        makeGrade({ userId: other, quizTitle: 'Not mine' }),
      ],
      [makeGrade({ kind: 'text', userId: me.id, quizTitle: 'Verbos' })],
    );
    await results();
    const tablist = screen.getByRole('tablist', { name: 'My Quiz Results' });
    const audioTab = await within(tablist).findByRole('tab', { name: 'Audio Quizzes (2)' });
    const textTab = await within(tablist).findByRole('tab', { name: 'Text Quizzes (1)' });
    expect(audioTab).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Colores');
    expect(screen.queryByText('Not mine')).not.toBeInTheDocument();
    expect(view.fetch.calls('GET', '/api/quiz-grades')[0]?.path).toBe(
      `/api/quiz-grades?userId=${me.id}&limit=500`,
    );
    expect(view.fetch.calls('GET', '/api/text-quiz-grades')[0]?.path).toBe(
      `/api/text-quiz-grades?userId=${me.id}&limit=500`,
    );

    audioTab.focus();
    await view.user.keyboard('{ArrowRight}');
    expect(textTab).toHaveAttribute('aria-selected', 'true');
    expect(textTab).toHaveFocus();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Verbos');
    await view.user.keyboard('{ArrowLeft}');
    expect(audioTab).toHaveAttribute('aria-selected', 'true');
  });

  it('shows each result with title, date and time and score badge; one Question Review open at a time', async () => {
    const me = personas.student();
    const at = '2025-03-07T15:45:00.000Z';
    const view = await open(me, [
      makeGrade({ userId: me.id, quizTitle: 'Colores', score: 67, createdAt: at }),
      makeGrade({
        userId: me.id,
        quizTitle: 'Números',
        score: 100,
        userAnswers: [0, 1, 2],
        correctAnswers: 3,
        passed: true,
      }),
    ]);
    await results();
    const row = (title: string) => screen.getByText(title, { selector: 'p' }).closest('li') as HTMLElement;
    await screen.findByText('Colores', { selector: 'p' });
    const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(
      new Date(at),
    );
    expect(within(row('Colores')).getByText(`March 7, 2025 at ${time}`)).toBeInTheDocument();
    expect(within(row('Colores')).getByText('67%')).toBeInTheDocument();
    expect(within(row('Números')).getByText('100%')).toBeInTheDocument();

    const details = (title: string) => within(row(title)).getByRole('button', { name: /Details/ });
    expect(details('Colores')).toHaveTextContent('View Details');
    expect(details('Colores')).toHaveAttribute('aria-expanded', 'false');
    await view.user.click(details('Colores'));
    expect(details('Colores')).toHaveTextContent('Hide Details');
    expect(details('Colores')).toHaveAttribute('aria-expanded', 'true');
    const review = screen.getByRole('region', { name: 'Question Review for Colores' });
    expect(within(review).getByRole('heading', { name: 'Question Review' })).toBeInTheDocument();
    const questions = within(review)
      .getAllByRole('listitem')
      .filter((li) => li.hasAttribute('data-review-question'));
    expect(questions).toHaveLength(3);
    const third = within(questions[2]!);
    expect(third.getByText('3. What is tres?')).toBeInTheDocument();
    // Audio review: the play button and the correct option only (the student picked D, the key is C).
    expect(await third.findByRole('button', { name: 'Play' })).toBeInTheDocument();
    expect(third.getByText('tres-C').closest('li')).toHaveTextContent('Correct Answer');
    expect(third.queryByText('Your Answer')).not.toBeInTheDocument();
    expect(third.queryByText('Incorrect')).not.toBeInTheDocument();
    await view.user.click(third.getByRole('button', { name: 'Play' }));
    expect(await third.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(audiosFor('https://cdn.example.test/tres.mp3')[0]?.play).toHaveBeenCalledTimes(1);

    await view.user.click(details('Números'));
    expect(screen.queryByRole('region', { name: 'Question Review for Colores' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Question Review for Números' })).toBeInTheDocument();
    expect(details('Colores')).toHaveTextContent('View Details');
    await view.user.click(details('Números'));
    expect(screen.queryByRole('region', { name: /Question Review/ })).not.toBeInTheDocument();
  });

  it('audio review: a cloud-storage link plays through the audio proxy', async () => {
    const me = personas.student();
    const dropbox = 'https://www.dropbox.com/s/abc/uno.mp3?dl=0';
    const grade = makeGrade({ userId: me.id, quizTitle: 'Nube' });
    grade.questions[0] = { ...grade.questions[0]!, audioUrl: dropbox };
    const view = await open(me, [grade]);
    await results();
    await view.user.click(await screen.findByRole('button', { name: 'View Details' }));
    const review = screen.getByRole('region', { name: 'Question Review for Nube' });
    const first = within(
      within(review)
        .getAllByRole('listitem')
        .find((li) => li.getAttribute('data-review-question') === '0')!,
    );
    await view.user.click(await first.findByRole('button', { name: 'Play' }));
    expect(await first.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(audiosFor(`/api/audio-proxy?url=${encodeURIComponent(dropbox)}`)).toHaveLength(1);
    expect(audiosFor(dropbox)).toHaveLength(0);
  });

  it("text review: Correct/Incorrect per question, 'Correct Answer' and the wrong pick as 'Your Answer'", async () => {
    const me = personas.teacher();
    const view = await open(
      me,
      [],
      [makeGrade({ kind: 'text', userId: me.id, quizTitle: 'Verbos', userAnswers: [0, 1, 3] })],
    );
    await results();
    await view.user.click(await screen.findByRole('tab', { name: 'Text Quizzes (1)' }));
    await view.user.click(screen.getByRole('button', { name: 'View Details' }));
    const review = screen.getByRole('region', { name: 'Question Review for Verbos' });
    const questions = within(review)
      .getAllByRole('listitem')
      .filter((li) => li.hasAttribute('data-review-question'));
    expect(within(questions[0]!).getByText('Correct')).toBeInTheDocument();
    expect(within(questions[0]!).queryByText('Your Answer')).not.toBeInTheDocument();
    const third = within(questions[2]!);
    expect(third.getByText('Incorrect')).toBeInTheDocument();
    expect(third.getByText('tres-C').closest('li')).toHaveTextContent('Correct Answer');
    expect(third.getByText('tres-D').closest('li')).toHaveTextContent('Your Answer');
    expect(third.queryByRole('button', { name: /Play|Loading/ })).not.toBeInTheDocument();
  });

  it('review without the key (the quiz shows it after the last attempt): the answers, which were right, and why', async () => {
    const me = personas.student();
    const grade = makeGrade({ kind: 'text', userId: me.id, quizTitle: 'Verbos', userAnswers: [0, 1, 3] });
    const withheld = {
      ...grade,
      answerKey: 'afterLastAttempt' as const,
      questions: grade.questions.map(({ correctAnswer: _key, ...q }) => q),
    };
    const view = await open(me, [], [withheld]);
    await results();
    await view.user.click(await screen.findByRole('tab', { name: 'Text Quizzes (1)' }));
    await view.user.click(screen.getByRole('button', { name: 'View Details' }));
    const review = screen.getByRole('region', { name: 'Question Review for Verbos' });
    expect(
      within(review).getByText(
        'The correct answers will be shown once you have used all your attempts on this quiz.',
      ),
    ).toBeInTheDocument();
    expect(within(review).queryByText('Correct Answer')).not.toBeInTheDocument();
    const questions = within(review)
      .getAllByRole('listitem')
      .filter((li) => li.hasAttribute('data-review-question'));
    expect(within(questions[0]!).getByText('Correct')).toBeInTheDocument();
    expect(within(questions[0]!).getByText('uno-A').closest('li')).toHaveTextContent('Your Answer');
    expect(within(questions[2]!).getByText('Incorrect')).toBeInTheDocument();
    expect(within(questions[2]!).getByText('tres-D').closest('li')).toHaveTextContent('Your Answer');
    expect(within(questions[2]!).getByText('tres-C').closest('li')).not.toHaveTextContent('Answer');
  });

  it('shows the empty states of both tabs', async () => {
    const view = await open(personas.student(), []);
    await results();
    expect(await screen.findByText("You haven't taken any audio quizzes yet.")).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Audio Quizzes (0)' })).toBeInTheDocument();
    await view.user.click(screen.getByRole('tab', { name: 'Text Quizzes (0)' }));
    expect(await screen.findByText("You haven't taken any text quizzes yet.")).toBeInTheDocument();
  });

  it('shows a failed fetch in the error panel with Try Again', async () => {
    let failing = true;
    const view = await open(personas.student(), (f) =>
      f.on('GET', '/api/quiz-grades', () =>
        failing ? { status: 401, json: { statusCode: 401, message: 'Unauthorized' } } : { json: [] },
      ),
    );
    await results();
    const panel = (await screen.findByText('Please log in to view quiz grades.', { selector: 'p' })).closest(
      '[role="alert"]',
    ) as HTMLElement;
    failing = false;
    await view.user.click(within(panel).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText("You haven't taken any audio quizzes yet.")).toBeInTheDocument();
  });
});
