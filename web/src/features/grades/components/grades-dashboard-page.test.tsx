import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AssessmentMessages, type Grade } from '@district/contracts/assessment';
import { IdentityMessages } from '@district/contracts/identity';
import type { User } from '@district/contracts/identity';
import { deferred, type FetchStub, type Reply } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeAnalysis, makeGrade, serveGrades, summaryOf, uuid } from '../grades.fixtures.testing';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

const AUDIO = '/admin/quiz-grades-dashboard';
const TEXT = '/admin/text-quiz-grades-dashboard';

const colores = uuid(1);
const numeros = uuid(2);
const ana = uuid(1, 'beef');
const beto = uuid(2, 'beef');

function sample(kind: 'audio' | 'text' = 'audio'): Grade[] {
  return [
    makeGrade({
      kind,
      quizId: colores,
      quizTitle: 'Colores',
      userId: ana,
      userName: 'Ana Alumna',
      score: 100,
      correctAnswers: 3,
      totalQuestions: 3,
      passed: true,
      createdAt: '2025-03-07T15:45:00.000Z',
    }),
    makeGrade({
      kind,
      quizId: numeros,
      quizTitle: 'Números',
      userId: beto,
      userName: 'Beto Bravo',
      score: 67,
      correctAnswers: 2,
      totalQuestions: 3,
      passed: false,
    }),
    makeGrade({
      kind,
      quizId: colores,
      quizTitle: 'Colores',
      userId: beto,
      userName: 'Beto Bravo',
      score: 33,
      correctAnswers: 1,
      totalQuestions: 3,
      passed: false,
    }),
  ];
}

function open(
  path: string,
  grades: Grade[] | ((f: FetchStub) => void) = sample(),
  user: User = personas.teacher(),
) {
  const kind = path.startsWith(TEXT) ? 'text' : 'audio';
  return renderApp(path, {
    user,
    setup: (f) => (typeof grades === 'function' ? grades(f) : serveGrades(f, kind, grades)),
  });
}

/** The error panel (an alert) whose title is this message. */
const errorPanel = async (message: string) =>
  (await screen.findByText(message, { selector: 'p' })).closest('[role="alert"]') as HTMLElement;
const card = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
const rows = () =>
  within(screen.getByRole('table', { name: /results/ }))
    .getAllByRole('row')
    .slice(1);
const rowOf = (student: string, quiz: string) =>
  rows().find((r) => within(r).queryByText(student) && within(r).queryByText(quiz)) as HTMLElement;

/** Captures what downloadBytes saves: the Blob and file name of each programmatic link click. */
function captureDownloads() {
  const files: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    writable: true,
    value: (b: Blob) => (blobs.set(`blob:t/${n}`, b), `blob:t/${n++}`),
  });
  Object.defineProperty(URL, 'revokeObjectURL', {
    configurable: true,
    writable: true,
    value: () => undefined,
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) files.push({ name: this.download, blob });
  });
  return files;
}

describe('quiz grade dashboards (classroom-tools §2, §6, §8, §9)', { timeout: 20_000 }, () => {
  it('shows Loading quiz grades... then the summary cards and the results table', async () => {
    const answer = deferred<{ json: Grade[] }>();
    await open(AUDIO, (f) => {
      f.on('GET', '/api/quiz-grades/summary', { json: summaryOf(sample()) });
      f.on('GET', '/api/quiz-grades', () => answer.promise);
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Quiz Grades Dashboard' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Loading quiz grades...')).toHaveAttribute('role', 'status');
    answer.resolve({ json: sample() });
    await screen.findByRole('table', { name: /results/ });
    expect(card('Total Attempts')).toHaveTextContent('3');
    expect(card('Average Score')).toHaveTextContent('67%');
    expect(card('Passed (>=70%)')).toHaveTextContent('1');
    expect(card('Pass Rate')).toHaveTextContent('33%');
    const headers = within(screen.getByRole('table', { name: /results/ }))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Student Name',
      'Quiz Title',
      'Score',
      'Correct/Total',
      'Date Completed',
      'Actions',
    ]);
    const first = within(rows()[0]!);
    expect(first.getByText('Ana Alumna')).toBeInTheDocument();
    expect(first.getByText('100%')).toBeInTheDocument();
    expect(first.getByText('3/3')).toBeInTheDocument();
    expect(first.getByText('March 7, 2025')).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Delete result of Ana Alumna on Colores' })).toBeInTheDocument();
  });

  it.each([
    [
      '401',
      { status: 401, json: { statusCode: 401, message: 'Unauthorized' } },
      AssessmentMessages.gradesLoginRequired,
    ],
    ['403', { status: 403, json: { statusCode: 403, message: 'Forbidden' } }, AssessmentMessages.staffOnly],
    [
      '500 with a message',
      { status: 500, json: { statusCode: 500, message: 'Database unavailable' } },
      'Database unavailable',
    ],
    [
      '502 without one',
      { status: 502, text: '<html>Bad gateway</html>' },
      AssessmentMessages.fetchGradesFailed,
    ],
  ])('shows the %s error in the error panel, and Try Again asks again', async (_label, reply, message) => {
    // A server error is retried once by itself (a 4xx is not); the panel shows once that fails too.
    let failing = true;
    const view = await open(AUDIO, (f) =>
      f.on('GET', '/api/quiz-grades', () => (failing ? reply : { json: sample() })),
    );
    expect(await errorPanel(message)).toContainElement(screen.getByRole('button', { name: 'Try Again' }));
    const before = view.fetch.calls('GET', '/api/quiz-grades').length;
    failing = false;
    await view.user.click(screen.getByRole('button', { name: 'Try Again' }));
    await screen.findByRole('table', { name: /results/ });
    expect(view.fetch.calls('GET', '/api/quiz-grades')).toHaveLength(before + 1);
  });

  it('shows the network error in the error panel', async () => {
    await open(AUDIO, (f) =>
      f.on('GET', '/api/quiz-grades', () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await errorPanel('Error fetching quiz grades. Please try again.')).toContainElement(
      screen.getByRole('button', { name: 'Try Again' }),
    );
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('shows the empty states of both dashboards', async () => {
    const view = await open(AUDIO, []);
    expect(await screen.findByText('No quiz results found.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    view.unmount();
    await open(TEXT, []);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Text Quiz Grades Dashboard' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('No text quiz results found.')).toBeInTheDocument();
  });

  it('text dashboard: All Text Quizzes and the completion time under the date', async () => {
    await open(TEXT, sample('text'));
    await screen.findByRole('table', { name: /results/ });
    expect(screen.getByRole('option', { name: 'All Text Quizzes' })).toBeInTheDocument();
    const when = rowOf('Ana Alumna', 'Colores').querySelector('time') as HTMLElement;
    expect(when).toHaveTextContent('March 7, 2025');
    const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(
      new Date('2025-03-07T15:45:00.000Z'),
    );
    expect(when.nextElementSibling).toHaveTextContent(time);
  });

  it('filters by quiz: rows and summary follow, with the item analysis and accommodations of that quiz', async () => {
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', sample());
      f.on('GET', `/api/audio-quizzes/${colores}/analysis`, { json: makeAnalysis({ quizId: colores }) });
    });
    await screen.findByRole('table', { name: /results/ });
    expect(screen.queryByRole('heading', { name: 'Item Analysis' })).not.toBeInTheDocument();
    const filter = screen.getByLabelText('Filter by Quiz');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Quizzes', 'Colores', 'Números']);
    await view.user.selectOptions(filter, 'Colores');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.queryByText('Números', { selector: 'td' })).not.toBeInTheDocument();
    await waitFor(() => expect(card('Total Attempts')).toHaveTextContent('2'));
    expect(card('Average Score')).toHaveTextContent('67%');
    expect(card('Pass Rate')).toHaveTextContent('50%');

    expect(await screen.findByRole('heading', { name: 'Item Analysis' })).toBeInTheDocument();
    const analysis = await screen.findByRole('table', { name: 'Item analysis of Colores' });
    expect(
      within(analysis)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Question', '% Correct', 'Discrimination', 'Option Picks', 'Flags']);
    const [q1, q2] = within(analysis).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(q1).toHaveTextContent('1. What is uno?');
    expect(q1).toHaveTextContent('75%');
    expect(q1).toHaveTextContent('0.50');
    expect(q1).toHaveTextContent('A: 3 (75%)');
    expect(within(q1).getByText('None')).toBeInTheDocument();
    expect(within(q2).getByText('Hard')).toBeInTheDocument();
    expect(within(q2).getByText('Confusing')).toBeInTheDocument();
    expect(q2).toHaveTextContent('-0.50');
    expect(screen.getByTestId('analysis-summary')).toHaveTextContent(
      '4 results on the current version (version 2); 1 on earlier versions left out',
    );

    await view.user.selectOptions(filter, 'All Quizzes');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.queryByRole('heading', { name: 'Item Analysis' })).not.toBeInTheDocument();
  });

  it('shows the item analysis failure with Try Again', async () => {
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', sample());
      f.on('GET', `/api/audio-quizzes/${colores}/analysis`, {
        status: 404,
        json: { statusCode: 404, message: AssessmentMessages.quizNotFound },
      });
    });
    await screen.findByRole('table', { name: /results/ });
    await view.user.selectOptions(screen.getByLabelText('Filter by Quiz'), 'Colores');
    const alert = await screen.findByText('The item analysis could not be loaded');
    expect(alert.closest('[role="alert"]')).toHaveTextContent(AssessmentMessages.quizNotFound);
  });

  it('saves an accommodation for a student of the chosen quiz, and reports a refusal', async () => {
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', sample());
      f.on('GET', `/api/audio-quizzes/${colores}/analysis`, { json: makeAnalysis({ quizId: colores }) });
      f.on('PUT', `/api/audio-quizzes/${colores}/accommodations/${beto}`, { status: 204 });
    });
    await screen.findByRole('table', { name: /results/ });
    await view.user.selectOptions(screen.getByLabelText('Filter by Quiz'), 'Colores');
    const student = await screen.findByLabelText('Student');
    expect(
      within(student)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a student', 'Ana Alumna', 'Beto Bravo']);

    await view.user.click(screen.getByRole('button', { name: 'Save Extra Attempts' }));
    expect(screen.getByText('Choose a student.')).toBeInTheDocument();

    await view.user.selectOptions(student, 'Beto Bravo');
    const extra = screen.getByLabelText('Extra attempts');
    await view.user.clear(extra);
    await view.user.type(extra, '21');
    await view.user.click(screen.getByRole('button', { name: 'Save Extra Attempts' }));
    expect(screen.getByText(AssessmentMessages.extraAttemptsInvalid)).toBeInTheDocument();
    expect(view.fetch.calls('PUT', `/api/audio-quizzes/${colores}/accommodations/${beto}`)).toHaveLength(0);

    await view.user.clear(extra);
    await view.user.type(extra, '2');
    await view.user.click(screen.getByRole('button', { name: 'Save Extra Attempts' }));
    expect(await screen.findByText('Beto Bravo now has 2 extra attempts on this quiz.')).toBeInTheDocument();
    expect(view.fetch.calls('PUT', `/api/audio-quizzes/${colores}/accommodations/${beto}`)[0]?.body).toEqual({
      extraAttempts: 2,
    });

    view.fetch.on('PUT', `/api/audio-quizzes/${colores}/accommodations/${beto}`, {
      status: 403,
      json: { statusCode: 403, message: AssessmentMessages.staffOnly },
    });
    await view.user.click(screen.getByRole('button', { name: 'Save Extra Attempts' }));
    expect(
      await screen.findByText(`Error: Failed to save extra attempts: ${AssessmentMessages.staffOnly}`),
    ).toBeInTheDocument();
  });

  it('deletes a result after the confirmation, removes the row and says so', async () => {
    const grades = sample();
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', () => grades);
      f.on('DELETE', `/api/quiz-grades/${grades[1]!.id}`, () => {
        grades.splice(1, 1);
        return { status: 204 };
      });
    });
    await screen.findByRole('table', { name: /results/ });
    const del = () => within(rowOf('Beto Bravo', 'Números')).getByRole('button', { name: /Delete/ });

    await view.user.click(del());
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(AssessmentMessages.deleteGradeConfirm);
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(view.fetch.calls('DELETE', /\/api\/quiz-grades\//)).toHaveLength(0);

    await view.user.click(del());
    dialog = await screen.findByRole('alertdialog');
    await view.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Success: Quiz result deleted successfully.')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.queryByText('Números', { selector: 'td' })).not.toBeInTheDocument();
    await waitFor(() => expect(card('Total Attempts')).toHaveTextContent('2'));
  });

  it('refreshes the item analysis when a result of the chosen quiz is deleted, without a reload', async () => {
    const grades = sample();
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', () => grades);
      // The server's count follows the stored results of the quiz.
      f.on('GET', `/api/audio-quizzes/${colores}/analysis`, () => ({
        json: makeAnalysis({
          quizId: colores,
          results: grades.filter((g) => g.quizId === colores).length,
          olderResults: 0,
        }),
      }));
      f.on('DELETE', `/api/quiz-grades/${grades[2]!.id}`, () => {
        grades.splice(2, 1);
        return { status: 204 };
      });
    });
    await screen.findByRole('table', { name: /results/ });
    await view.user.selectOptions(screen.getByLabelText('Filter by Quiz'), 'Colores');
    await waitFor(() =>
      expect(screen.getByTestId('analysis-summary')).toHaveTextContent(/^2 results on the current version/),
    );
    const asked = view.fetch.calls('GET', `/api/audio-quizzes/${colores}/analysis`).length;

    await view.user.click(within(rowOf('Beto Bravo', 'Colores')).getByRole('button', { name: /Delete/ }));
    await view.user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Success: Quiz result deleted successfully.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('analysis-summary')).toHaveTextContent(/^1 result on the current version/),
    );
    expect(view.fetch.calls('GET', `/api/audio-quizzes/${colores}/analysis`).length).toBeGreaterThan(asked);
    expect(rows()).toHaveLength(1);
  });

  it('shows the delete failure toasts: the server message, and the network error', async () => {
    const grades = sample();
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', grades);
      f.on('DELETE', `/api/quiz-grades/${grades[0]!.id}`, {
        status: 404,
        json: { statusCode: 404, message: AssessmentMessages.gradeNotFound },
      });
      f.on('DELETE', `/api/quiz-grades/${grades[1]!.id}`, () =>
        Promise.reject(new TypeError('Failed to fetch')),
      );
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await screen.findByRole('table', { name: /results/ });
    await view.user.click(within(rowOf('Ana Alumna', 'Colores')).getByRole('button', { name: /Delete/ }));
    await view.user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(
      await screen.findByText(`Error: Failed to delete quiz result: ${AssessmentMessages.gradeNotFound}`),
    ).toBeInTheDocument();
    expect(rows()).toHaveLength(3);

    await view.user.click(within(rowOf('Beto Bravo', 'Números')).getByRole('button', { name: /Delete/ }));
    await view.user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Error deleting quiz result. Please try again.')).toBeInTheDocument();
    expect(rows()).toHaveLength(3);
  });

  it('exports the shown rows as CSV (BOM, CRLF, formula-safe), filtered by the chosen quiz', async () => {
    const files = captureDownloads();
    const grades = [
      ...sample(),
      makeGrade({
        quizId: colores,
        quizTitle: 'Colores',
        userId: uuid(3, 'beef'),
        userName: '=HYPERLINK("x")',
        score: 0,
        correctAnswers: 0,
        totalQuestions: 3,
        passed: false,
      }),
    ];
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', grades);
      f.on('GET', `/api/audio-quizzes/${colores}/analysis`, { json: makeAnalysis() });
    });
    await screen.findByRole('table', { name: /results/ });
    await view.user.selectOptions(screen.getByLabelText('Filter by Quiz'), 'Colores');
    await waitFor(() => expect(rows()).toHaveLength(3));
    await view.user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(files).toHaveLength(1);
    expect(files[0]!.name).toMatch(/^quiz-grades-colores-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(files[0]!.blob.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await files[0]!.blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.split('\r\n')).toEqual([
      '"Student Name","Quiz Title","Score (%)","Correct Answers","Total Questions","Passed","Date Completed"',
      '"Ana Alumna","Colores",100,3,3,"Yes","2025-03-07T15:45:00.000Z"',
      '"Beto Bravo","Colores",33,1,3,"No","2025-03-06T12:30:00.000Z"',
      `"'=HYPERLINK(""x"")","Colores",0,0,3,"No","2025-03-06T12:30:00.000Z"`,
      '',
    ]);
  });

  it.each([
    ['Quiz Grades', 'Quiz Grades Dashboard', '/api/quiz-grades'],
    ['Text Quiz Grades', 'Text Quiz Grades Dashboard', '/api/text-quiz-grades'],
  ])('the admin dashboard card %s leads to the real screen', async (card, heading, api) => {
    const view = await renderApp('/admin', {
      user: personas.admin(),
      setup: (f) => {
        f.on('GET', '/api/users', { json: [] });
        f.on('GET', api, { json: [] });
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
    await view.user.click(screen.getByRole('link', { name: new RegExp(`^${card}`) }));
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
    await screen.findByRole('table', { name: /results/ });
  });

  describe('who may open them (§6: admin or role teacher)', () => {
    it.each([
      ['an admin', personas.admin],
      ['a teacher', personas.teacher],
    ])('%s sees the dashboards', async (_label, make) => {
      const view = await open(AUDIO, sample(), make());
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Quiz Grades Dashboard' }),
      ).toBeInTheDocument();
      view.unmount();
      await open(TEXT, sample('text'), make());
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Text Quiz Grades Dashboard' }),
      ).toBeInTheDocument();
    });

    it("a student sees the spec's Access Denied text and no grades are asked for", async () => {
      const view = await open(AUDIO, sample(), personas.student());
      expect(
        await screen.findByRole('heading', { level: 1, name: IdentityMessages.accessDenied }),
      ).toBeInTheDocument();
      expect(screen.getByText(AssessmentMessages.dashboardAccessDenied)).toBeInTheDocument();
      expect(view.fetch.calls('GET', '/api/quiz-grades')).toHaveLength(0);
    });

    it('a visitor sees Authentication Required; a teacher awaiting approval sees Account Pending Approval', async () => {
      const view = await renderApp(TEXT, { user: null });
      expect(
        await screen.findByRole('heading', { level: 1, name: IdentityMessages.authenticationRequired }),
      ).toBeInTheDocument();
      view.unmount();
      await open(TEXT, sample('text'), { ...personas.teacher(), approved: false });
      expect(
        await screen.findByRole('heading', { level: 1, name: IdentityMessages.accountPendingApproval }),
      ).toBeInTheDocument();
    });
  });
});

describe('the dashboards in a district (issue #36, ADR 0042)', { timeout: 20_000 }, () => {
  const period2 = {
    id: '00000000-0000-4000-8000-c10000000002',
    title: 'Spanish 1 - Period 2',
    schoolId: '00000000-0000-4000-8000-5c0000000001',
    schoolName: 'Lincoln Elementary',
    term: 'Fall 2026',
    courseCode: 'SPA1',
    active: true,
    teacherCount: 1,
    studentCount: 24,
  };
  const paramsOf = (path: string) => Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? ''));

  it('the cards are the server’s summary of the whole scope; the table pages on the server', async () => {
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', sample(), 2);
      f.on('GET', '/api/quiz-grades/summary', {
        json: {
          totalAttempts: 250,
          averageScore: 71.4,
          passed: 180,
          passRate: 72.0,
          quizzes: [
            { id: colores, title: 'Colores' },
            { id: numeros, title: 'Números' },
            { id: uuid(9), title: 'Animales (no results on this page)' },
          ],
        },
      });
    });
    await screen.findByRole('table', { name: /results/ });
    expect(card('Total Attempts')).toHaveTextContent('250');
    expect(card('Average Score')).toHaveTextContent('71%');
    expect(card('Passed (>=70%)')).toHaveTextContent('180');
    expect(card('Pass Rate')).toHaveTextContent('72%');
    expect(
      within(screen.getByLabelText('Filter by Quiz'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Quizzes', 'Colores', 'Números', 'Animales (no results on this page)']);
    expect(rows()).toHaveLength(2);
    expect(screen.getByText('Showing 2 of 3')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Load more results' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(paramsOf(view.fetch.calls('GET', '/api/quiz-grades').at(-1)!.path)).toEqual({ cursor: '2' });
    expect(screen.queryByRole('button', { name: 'Load more results' })).not.toBeInTheDocument();
  });

  it("filters by one of the teacher's classes on the server: list, summary and item analysis", async () => {
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', sample());
      f.on('GET', '/api/classes', { json: [period2] });
      f.on('GET', `/api/audio-quizzes/${colores}/analysis`, { json: makeAnalysis({ quizId: colores }) });
    });
    await screen.findByRole('table', { name: /results/ });
    const filter = await screen.findByLabelText('Filter by Class');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All my students', 'Spanish 1 - Period 2']);
    await view.user.selectOptions(filter, 'Spanish 1 - Period 2');
    await waitFor(() =>
      expect(paramsOf(view.fetch.calls('GET', '/api/quiz-grades').at(-1)!.path)).toEqual({
        classId: period2.id,
      }),
    );
    expect(view.router.state.location.search).toBe(`?classId=${period2.id}`);
    await waitFor(() =>
      expect(
        view.fetch.calls('GET', '/api/quiz-grades/summary').map((r) => paramsOf(r.path).classId),
      ).toContain(period2.id),
    );
    await view.user.selectOptions(screen.getByLabelText('Filter by Quiz'), 'Colores');
    await screen.findByRole('heading', { name: 'Item Analysis' });
    await waitFor(() =>
      expect(
        paramsOf(view.fetch.calls('GET', `/api/audio-quizzes/${colores}/analysis`).at(-1)!.path),
      ).toEqual({ classId: period2.id }),
    );
    expect(paramsOf(view.fetch.calls('GET', '/api/quiz-grades').at(-1)!.path)).toEqual({
      classId: period2.id,
      quizId: colores,
    });
  });

  it('opened from a class page (?classId=) it shows that class’s results, even outside the caller’s own', async () => {
    const view = await open(`${TEXT}?classId=${period2.id.toUpperCase()}`, (f) => {
      serveGrades(f, 'text', sample('text'));
      f.on('GET', '/api/classes', { json: [] });
    });
    await screen.findByRole('table', { name: /results/ });
    expect(screen.getByLabelText('Filter by Class')).toHaveValue(period2.id);
    expect(paramsOf(view.fetch.calls('GET', '/api/text-quiz-grades')[0]!.path)).toEqual({
      classId: period2.id,
    });
  });

  it('without classes there is no class filter: the spec’s screen', async () => {
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', sample());
      f.on('GET', '/api/classes', { json: [] });
    });
    await screen.findByRole('table', { name: /results/ });
    await waitFor(() => expect(view.fetch.calls('GET', '/api/classes')).toHaveLength(1));
    expect(screen.queryByLabelText('Filter by Class')).not.toBeInTheDocument();
  });

  it('while a chosen quiz’s first page loads, the previous rows are marked busy and not counted as its results', async () => {
    const page = deferred<Awaited<Reply>>();
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', sample());
      // The quiz's page is held back; the unfiltered list (and the summaries) answer at once.
      f.on('GET', /^\/api\/quiz-grades$/, (req) => {
        if (paramsOf(req.path).quizId) return page.promise;
        const all = sample();
        return { json: all, headers: { 'X-Total-Count': String(all.length) } };
      });
    });
    const table = await screen.findByRole('table', { name: /results/ });
    expect(await screen.findByText('Showing 3 of 3')).toBeInTheDocument();
    expect(table).not.toHaveAttribute('aria-busy');

    await view.user.selectOptions(screen.getByLabelText('Filter by Quiz'), 'Colores');
    await waitFor(() =>
      expect(screen.getByRole('table', { name: /results/ })).toHaveAttribute('aria-busy', 'true'),
    );
    const busy = screen.getByRole('table', { name: /results/ });
    expect(busy.parentElement).toHaveClass('opacity-50');
    expect(rows()).toHaveLength(3);
    expect(screen.getByText('Loading results…')).toBeInTheDocument();
    expect(screen.queryByText(/^Showing /)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();

    const colores1 = sample().filter((g) => g.quizId === colores);
    page.resolve({ json: colores1, headers: { 'X-Total-Count': String(colores1.length) } });
    expect(await screen.findByText('Showing 2 of 2')).toBeInTheDocument();
    const done = screen.getByRole('table', { name: /results/ });
    expect(done).not.toHaveAttribute('aria-busy');
    expect(done.parentElement).not.toHaveClass('opacity-50');
    expect(rows()).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('while a chosen quiz’s summary loads, the previous figures are marked busy', async () => {
    const summary = deferred<Awaited<Reply>>();
    const view = await open(AUDIO, (f) => {
      serveGrades(f, 'audio', sample());
      f.on('GET', /^\/api\/quiz-grades\/summary$/, (req) =>
        paramsOf(req.path).quizId ? summary.promise : { json: summaryOf(sample()) },
      );
    });
    await screen.findByRole('table', { name: /results/ });
    const cards = await screen.findByLabelText('Summary');
    expect(cards).not.toHaveAttribute('aria-busy');

    await view.user.selectOptions(screen.getByLabelText('Filter by Quiz'), 'Colores');
    await waitFor(() => expect(screen.getByLabelText('Summary')).toHaveAttribute('aria-busy', 'true'));
    expect(screen.getByLabelText('Summary')).toHaveClass('opacity-50');

    summary.resolve({ json: summaryOf(sample().filter((g) => g.quizId === colores)) });
    await waitFor(() => expect(screen.getByLabelText('Summary')).not.toHaveAttribute('aria-busy'));
    expect(screen.getByLabelText('Summary')).not.toHaveClass('opacity-50');
  });

  it('an empty previous list shows Loading quiz grades... in the table, not the empty text, for the new filter', async () => {
    const page = deferred<Awaited<Reply>>();
    const view = await open(`${AUDIO}?classId=${period2.id}`, (f) => {
      serveGrades(f, 'audio', []);
      f.on('GET', '/api/classes', { json: [period2] });
      f.on('GET', /^\/api\/quiz-grades$/, (req) =>
        paramsOf(req.path).classId ? { json: [], headers: { 'X-Total-Count': '0' } } : page.promise,
      );
    });
    expect(await screen.findByText('No quiz results found.')).toBeInTheDocument();
    await view.user.selectOptions(await screen.findByLabelText('Filter by Class'), 'All my students');
    await waitFor(() =>
      expect(screen.getByRole('table', { name: /results/ })).toHaveAttribute('aria-busy', 'true'),
    );
    expect(screen.queryByText('No quiz results found.')).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: /results/ })).getByText('Loading quiz grades...'),
    ).toBeInTheDocument();
    page.resolve({ json: sample(), headers: { 'X-Total-Count': '3' } });
    expect(await screen.findByText('Showing 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: /results/ })).not.toHaveAttribute('aria-busy');
  });
});
