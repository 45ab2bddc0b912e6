import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import type { Journey } from '../support/harness';
import { TOPOLOGIES } from '../support/stacks';
import { byRole, click, fill, open, waitFor, waitForText, waitForToast } from '../support/ui';
import { STUDENT2, TEACHER, pageFetch, signedIn } from './shell.journey';

/** Issue #12, the quiz screens. Texts from shared/spec/classroom-tools.md §4, §5, §8 and the assessment contracts. */
const QUIZ = {
  created: 'Quiz created successfully',
  limitTitle: 'Attempt Limit Reached',
  limit: (taken: number, max: number) => `You have already taken this quiz ${taken} time(s). Maximum attempts allowed: ${max}.`,
} as const;

interface QuestionSpec {
  question: string;
  options: [string, string, string, string];
  correct: number;
}

/** Picks an option in the question whose text is `question`, wherever the shuffle put it. */
async function answer(page: Page, question: string, option: string): Promise<void> {
  const clicked = await page.$$eval(
    'fieldset[data-question-index]',
    (sets, q, o) => {
      const set = sets.find((s) => s.querySelector('p')?.textContent?.replace(/^Question \d+\.\s*/, '').trim() === q);
      const label = Array.from(set?.querySelectorAll('label') ?? []).find((l) => l.textContent?.trim() === o);
      (label?.querySelector('input') as HTMLInputElement | undefined)?.click();
      return Boolean(label);
    },
    question,
    option,
  );
  assert.ok(clicked, `no option "${option}" under the question "${question}"`);
}

/** The review's rows in the quiz's original order: the question and the badges shown beside each option. */
async function review(page: Page): Promise<Array<{ text: string }>> {
  await waitForText(page, 'Question Review');
  return page.$$eval('[data-review-question]', (items) => items.map((i) => ({ text: (i.textContent ?? '').replace(/\s+/g, ' ') })));
}

const textQuiz: Journey = {
  id: 30,
  title: 'text quiz: a teacher writes a one-attempt quiz in the form, a student takes it (shuffled), sees 50 % with the review, and is refused a second attempt',
  topologies: TOPOLOGIES,
  timeoutMs: 120_000,
  async run(ctx) {
    const title = `Números ${ctx.runId}`;
    const questions: QuestionSpec[] = [
      { question: 'uno', options: ['one', 'two', 'three', 'four'], correct: 0 },
      { question: 'dos', options: ['ten', 'two', 'six', 'nine'], correct: 1 },
    ];

    const teacher = await signedIn(ctx, TEACHER.email);
    await open(teacher, ctx.baseUrl, '/text-quizzes');
    await click(teacher, byRole('button', 'Create Quiz'));
    await fill(teacher, byRole('textbox', 'Title'), title);
    await fill(teacher, byRole('textbox', 'Description'), 'Los números del uno al diez.');
    // The form starts with one question; a second is added.
    await click(teacher, byRole('button', 'Add Question'));
    for (const [index, q] of questions.entries()) {
      const scope = `fieldset[aria-label="Question ${index + 1}"]`;
      await fill(teacher, `${scope} ${byRole('textbox', 'Question')}`, q.question);
      for (const [o, text] of q.options.entries()) await fill(teacher, `${scope} ${byRole('textbox', `Option ${o + 1}`)}`, text);
      await fill(teacher, `${scope} ${byRole('combobox', 'Correct Answer')}`, String(q.correct));
    }
    await ctx.axe.check(teacher, 'quiz form');
    await click(teacher, byRole('button', 'Save Quiz'));
    await waitForToast(teacher, QUIZ.created);
    await waitFor(teacher, byRole('button', `Start Quiz: ${title}`));

    // The student starts it: no answer key reaches their browser before they submit.
    const student = await signedIn(ctx, STUDENT2.email);
    await open(student, ctx.baseUrl, '/text-quizzes');
    await waitFor(student, byRole('button', `Start Quiz: ${title}`));
    const listed = await pageFetch(student, 'GET', '/api/text-quizzes');
    const mine = (listed.body as Array<{ id: string; title: string; questions: Array<Record<string, unknown>> }>).find((q) => q.title === title);
    assert.ok(mine, 'the new quiz is in the student’s list');
    assert.ok(mine.questions.every((q) => !('correctAnswer' in q)), 'the student’s quiz carries no answer key');
    await ctx.axe.check(student, 'text quiz list');

    await click(student, byRole('button', `Start Quiz: ${title}`));
    await waitForText(student, 'Attempt 1 of 1');
    const submit = byRole('button', 'Submit Quiz');
    assert.equal(await student.$eval(submit, (b) => (b as HTMLButtonElement).disabled), true, 'Submit waits for every answer');
    await answer(student, 'uno', 'one');
    await answer(student, 'dos', 'nine');
    await ctx.axe.check(student, 'taking a text quiz');
    await click(student, submit);

    await waitForText(student, `Results: ${title}`);
    await waitForText(student, '50%');
    await waitForText(student, '1 / 2 correct');
    const rows = await review(student);
    assert.equal(rows.length, 2);
    assert.match(rows[0].text, /uno.*Correct.*one.*Correct Answer/);
    assert.match(rows[1].text, /dos.*Incorrect.*two.*Correct Answer.*nine.*Your Answer/);
    await ctx.axe.check(student, 'text quiz results');

    // A second attempt is refused with the counts, on the screen and by the server whoever asks.
    await click(student, byRole('button', 'Back to Quizzes'));
    await click(student, byRole('button', `Start Quiz: ${title}`));
    await waitForText(student, QUIZ.limitTitle);
    await waitForText(student, QUIZ.limit(1, 1));
    const again = await pageFetch(student, 'POST', `/api/text-quizzes/${mine.id}/attempts`, {});
    assert.equal(again.status, 409, `a second start answered ${again.status}`);

    // The grade is the server's: the student's own list holds one result of 50.
    const grades = await pageFetch(student, 'GET', '/api/text-quiz-grades');
    const own = (grades.body as Array<{ quizTitle: string; score: number; passed: boolean }>).filter((g) => g.quizTitle === title);
    assert.deepEqual(
      own.map((g) => [g.score, g.passed]),
      [[50, false]],
    );
    ctx.shared.set('textQuizTitle', title);
  },
};

const audioQuiz: Journey = {
  id: 31,
  title: 'audio quiz: a student plays the demo quiz’s Spanish audio, answers all four, passes with 100 %, and the review plays each recording again',
  topologies: TOPOLOGIES,
  timeoutMs: 120_000,
  async run(ctx) {
    const title = 'Saludos: escucha y elige';
    const student = await signedIn(ctx, STUDENT2.email);
    await open(student, ctx.baseUrl, '/audio-quizzes');
    await click(student, byRole('button', `Start Quiz: ${title}`));
    await waitForText(student, 'of 3');
    // Every question's recording loads (shipped MP3s) and plays to its end.
    const first = 'fieldset[data-question-index="0"]';
    await student.waitForSelector(`${first} ::-p-aria([name="Play"][role="button"])`);
    await click(student, `${first} ::-p-aria([name="Play"][role="button"])`);
    await student.waitForSelector(`${first} ::-p-aria([name="Replay"][role="button"])`, { timeout: 15_000 });

    const key: Record<number, string> = { 0: 'Hello', 1: 'Thank you', 2: 'In the morning', 3: 'How are you?' };
    for (const [index, option] of Object.entries(key)) {
      const picked = await student.$eval(
        `fieldset[data-question-index="${index}"]`,
        (set, o) => {
          const label = Array.from(set.querySelectorAll('label')).find((l) => l.textContent?.trim() === o);
          (label?.querySelector('input') as HTMLInputElement | undefined)?.click();
          return Boolean(label);
        },
        option,
      );
      assert.ok(picked, `option ${option} of question ${index}`);
    }
    await ctx.axe.check(student, 'taking an audio quiz');
    await click(student, byRole('button', 'Submit Quiz'));
    await waitForText(student, `Results: ${title}`);
    await waitForText(student, '100%');
    await waitForText(student, 'Passed');
    const rows = await review(student);
    assert.equal(rows.length, 4);
    const playable = await student.$$eval('[data-review-question] button', (buttons) => buttons.filter((b) => /Play|Loading/.test(b.textContent ?? '')).length);
    assert.equal(playable, 4, 'each reviewed question has its play button');
    await ctx.axe.check(student, 'audio quiz results');
  },
};

export const quizJourneys: readonly Journey[] = [textQuiz, audioQuiz];
