import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClassroomMessages, INSTRUCTION_TYPES, type LessonPlan } from '@district/contracts/classroom';
import type { User } from '@district/contracts/identity';
import type { FetchStub } from '@/testing/fetch-stub';
import { makeUser, personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeLessonPlan } from '../classroom.fixtures.testing';

configure({ asyncUtilTimeout: 4000 });
afterEach(() => vi.restoreAllMocks());

const PHASES = [
  'Warm-Up/Hook (Engage)',
  'Explore - Activating Strategy',
  'Explain - Lecture/Builder',
  'Elaborate - Instructional Activities',
  'Evaluate - Closing/Wrap-Up',
];

async function open(user: User, plans: LessonPlan[], setup?: (f: FetchStub) => void) {
  const view = await renderApp('/lesson-plans', {
    user,
    setup: (f) => {
      f.on('GET', '/api/lesson-plans', () => ({ json: plans }));
      setup?.(f);
    },
  });
  await screen.findByRole('heading', { level: 1, name: 'Lesson Plans' });
  return view;
}

const phase = (name: string) => within(screen.getByRole('group', { name }));
const banner = () =>
  screen.getAllByRole('alert').find((el) => el.querySelector('button[aria-label="Dismiss error"]'));

describe('/lesson-plans (spec §2, §4, §5, §6, §8)', { timeout: 30_000 }, () => {
  it.each([
    ['a student', personas.student()],
    ['a pending teacher', makeUser({ role: 'teacher', approved: false })],
  ])("%s sees 'Access Restricted…' and the plans are not fetched", async (_label, user) => {
    const { fetch } = await open(user, [makeLessonPlan()]);
    expect(screen.getByText(ClassroomMessages.lessonPlansRestricted)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create New Lesson Plan' })).not.toBeInTheDocument();
    expect(fetch.calls('GET', '/api/lesson-plans')).toHaveLength(0);
  });

  it("a teacher the server refuses (403) sees 'Access Restricted…' too", async () => {
    await open(personas.teacher(), [], (f) =>
      f.on('GET', '/api/lesson-plans', { status: 403, json: { message: ClassroomMessages.staffOnly } }),
    );
    expect(await screen.findByText(ClassroomMessages.lessonPlansRestricted)).toBeInTheDocument();
  });

  it('shows the empty state, and a fetch failure in a dismissible red banner with Try Again', async () => {
    const { user, fetch } = await open(personas.teacher(), [], (f) =>
      f.on('GET', '/api/lesson-plans', { status: 500, text: 'oops' }),
    );
    expect(await screen.findByText(ClassroomMessages.fetchLessonPlansFailed)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss error' }));
    expect(screen.queryByText(ClassroomMessages.fetchLessonPlansFailed)).not.toBeInTheDocument();
    fetch.on('GET', '/api/lesson-plans', { json: [] });
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'No lesson plans yet' })).toBeInTheDocument();
    expect(screen.getByText('Create your first lesson plan to get started')).toBeInTheDocument();
  });

  it('cards show title, subject, topic, date, total time, creator and creation date; Edit/Delete only where allowed', async () => {
    await open(personas.teacher(), [
      makeLessonPlan(),
      makeLessonPlan({ title: 'Colores', canEdit: false, creatorName: 'Otto Other' }),
    ]);
    const card = within((await screen.findByRole('heading', { level: 2, name: 'Greetings' })).closest('li')!);
    for (const text of [
      'Spanish',
      'Unit 1: Saludos',
      'March 5, 2025',
      '90 mins',
      'Created by Tia Teacher on March 6, 2025',
    ])
      expect(card.getByText(text)).toBeInTheDocument();
    for (const name of ['Edit Greetings', 'Print Greetings', 'Duplicate Greetings', 'Delete Greetings'])
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print Colores' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Duplicate Colores' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Colores' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Colores' })).not.toBeInTheDocument();
  });

  it('the form has every field, the five phases, the checklists and the text-area sizes; title required; the whole plan is sent', async () => {
    const plans: LessonPlan[] = [];
    const teacher = personas.teacher();
    const { user, fetch } = await open(teacher, plans, (f) =>
      f.on('POST', '/api/lesson-plans', (req) => {
        const plan = makeLessonPlan({ ...(req.body as object) });
        plans.push(plan);
        return { status: 201, json: plan };
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Create New Lesson Plan' }));
    const form = within(screen.getByRole('form', { name: 'Create lesson plan' }));
    expect(form.getByLabelText('Teacher')).toHaveValue(teacher.name);
    expect(form.getByLabelText('Total Time')).toHaveValue('90 mins');
    expect(form.getByLabelText('Date')).toHaveAttribute('type', 'date');
    for (const label of [
      'Standards',
      'I Can Statements',
      'Academic Vocabulary',
      'Higher-Order/DOK Questions',
      'Evaluation (Check for Understanding)',
      'Reflection',
    ])
      expect(form.getByLabelText(label)).toHaveAttribute('rows', '3');
    expect(
      screen
        .getAllByRole('group')
        .map((g) => g.getAttribute('aria-label') ?? g.querySelector('legend')?.textContent),
    ).toEqual(expect.arrayContaining(PHASES));
    for (const [i, name] of PHASES.entries()) {
      const p = phase(name);
      expect(p.getByLabelText('Time Allotted')).toHaveAttribute('placeholder', '15 mins');
      expect(p.getByLabelText('Teacher Will')).toHaveAttribute('rows', '4');
      expect(p.getByLabelText('Students Will')).toHaveAttribute('rows', '4');
      const boxes = p.queryAllByRole('checkbox');
      expect(boxes.map((b) => b.closest('label')?.textContent)).toEqual(i < 4 ? [...INSTRUCTION_TYPES] : []);
    }

    await user.click(form.getByRole('button', { name: 'Create Plan' }));
    expect(banner()).toHaveTextContent('Title is required');
    expect(form.getByLabelText('Lesson Title')).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.calls('POST', '/api/lesson-plans')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Dismiss error' }));
    expect(banner()).toBeUndefined();

    await user.type(form.getByLabelText('Lesson Title'), 'Los números');
    await user.type(form.getByLabelText('Date'), '2025-04-01');
    await user.type(form.getByLabelText('Subject'), 'Spanish');
    await user.type(form.getByLabelText('Topic/Unit'), 'Unit 2');
    await user.type(form.getByLabelText('Standards'), 'S1');
    await user.type(form.getByLabelText('I Can Statements'), 'I can count');
    await user.type(form.getByLabelText('Academic Vocabulary'), 'uno, dos');
    await user.type(form.getByLabelText('Higher-Order/DOK Questions'), 'Why?');
    for (const [i, name] of PHASES.entries()) {
      await user.type(phase(name).getByLabelText('Time Allotted'), `${i + 1}0 mins`);
      await user.type(phase(name).getByLabelText('Teacher Will'), `T${i}`);
      await user.type(phase(name).getByLabelText('Students Will'), `S${i}`);
    }
    await user.click(phase(PHASES[0]!).getByLabelText('Student Discourse'));
    await user.click(phase(PHASES[0]!).getByLabelText('Guided Practice'));
    await user.click(phase(PHASES[2]!).getByLabelText('Collaborative learning'));
    await user.click(phase(PHASES[2]!).getByLabelText('Collaborative learning'));
    await user.click(phase(PHASES[3]!).getByLabelText('Independent Practice/Learning Tasks'));
    await user.clear(form.getByLabelText('Total Time'));
    await user.type(form.getByLabelText('Evaluation (Check for Understanding)'), 'Exit ticket');
    await user.type(form.getByLabelText('Reflection'), 'Next time: slower');
    await user.click(form.getByRole('button', { name: 'Create Plan' }));

    expect(await screen.findByText('Lesson plan created successfully')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/lesson-plans')[0]?.body).toEqual({
      title: 'Los números',
      teacher: teacher.name,
      date: '2025-04-01',
      subject: 'Spanish',
      topic: 'Unit 2',
      standards: 'S1',
      iCanStatements: 'I can count',
      academicVocabulary: 'uno, dos',
      dokQuestions: 'Why?',
      warmUp: {
        timeAllotted: '10 mins',
        teacherWill: 'T0',
        studentsWill: 'S0',
        instructionTypes: ['Guided Practice', 'Student Discourse'],
      },
      explore: { timeAllotted: '20 mins', teacherWill: 'T1', studentsWill: 'S1', instructionTypes: [] },
      explain: { timeAllotted: '30 mins', teacherWill: 'T2', studentsWill: 'S2', instructionTypes: [] },
      elaborate: {
        timeAllotted: '40 mins',
        teacherWill: 'T3',
        studentsWill: 'S3',
        instructionTypes: ['Independent Practice/Learning Tasks'],
      },
      evaluate: { timeAllotted: '50 mins', teacherWill: 'T4', studentsWill: 'S4' },
      // A blank total time is the spec's default.
      totalTime: '90 mins',
      evaluation: 'Exit ticket',
      reflection: 'Next time: slower',
    });
    // The list is reloaded and the form closed.
    expect(await screen.findByRole('heading', { level: 2, name: 'Los números' })).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(fetch.calls('GET', '/api/lesson-plans').length).toBeGreaterThanOrEqual(2);
  });

  it("edit prefills and sends PUT ('Update Plan'); the server's message, else 'Failed to save lesson plan', in the banner; Cancel closes", async () => {
    const plan = makeLessonPlan();
    const { user, fetch } = await open(personas.teacher(), [plan]);
    await user.click(await screen.findByRole('button', { name: 'Edit Greetings' }));
    const form = within(screen.getByRole('form', { name: 'Edit lesson plan' }));
    expect(form.getByLabelText('Lesson Title')).toHaveValue('Greetings');
    expect(phase(PHASES[1]!).getByLabelText('Guided Practice')).toBeChecked();
    expect(phase(PHASES[1]!).getByLabelText('Collaborative learning')).toBeChecked();
    expect(phase(PHASES[1]!).getByLabelText('Student Discourse')).not.toBeChecked();
    expect(phase(PHASES[4]!).getByLabelText('Teacher Will')).toHaveValue('Evaluate: teacher');

    fetch.on('PUT', `/api/lesson-plans/${plan.id}`, {
      status: 400,
      json: { message: ClassroomMessages.lessonPlanDateInvalid },
    });
    await user.click(form.getByRole('button', { name: 'Update Plan' }));
    await waitFor(() => expect(banner()).toHaveTextContent(ClassroomMessages.lessonPlanDateInvalid));
    fetch.on('PUT', `/api/lesson-plans/${plan.id}`, { status: 502, text: '<html>' });
    await user.click(form.getByRole('button', { name: 'Update Plan' }));
    await waitFor(() => expect(banner()).toHaveTextContent(ClassroomMessages.saveLessonPlanFailed));

    fetch.on('PUT', `/api/lesson-plans/${plan.id}`, (req) => ({
      json: { ...plan, ...(req.body as object) },
    }));
    await user.type(form.getByLabelText('Reflection'), '!');
    await user.click(form.getByRole('button', { name: 'Update Plan' }));
    expect(await screen.findByText('Lesson plan updated successfully')).toBeInTheDocument();
    const {
      creatorId: _c,
      creatorName: _n,
      createdAt: _a,
      updatedAt: _u,
      canEdit: _e,
      id: _i,
      ...fields
    } = plan;
    expect(fetch.calls('PUT', `/api/lesson-plans/${plan.id}`).at(-1)?.body).toEqual({
      ...fields,
      reflection: 'Went well!',
    });

    await user.click(await screen.findByRole('button', { name: 'Edit Greetings' }));
    await user.type(screen.getByLabelText('Lesson Title'), ' changed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(fetch.calls('PUT', `/api/lesson-plans/${plan.id}`)).toHaveLength(3);
    await user.click(await screen.findByRole('button', { name: 'Edit Greetings' }));
    expect(screen.getByLabelText('Lesson Title')).toHaveValue('Greetings');
  });

  it("delete asks 'Are you sure you want to delete this lesson plan?'; a failure shows 'Failed to delete lesson plan'", async () => {
    const plan = makeLessonPlan();
    const plans = [plan];
    const { user, fetch } = await open(personas.teacher(), plans);
    await user.click(await screen.findByRole('button', { name: 'Delete Greetings' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText('Are you sure you want to delete this lesson plan?')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(fetch.calls('DELETE', `/api/lesson-plans/${plan.id}`)).toHaveLength(0);

    fetch.on('DELETE', `/api/lesson-plans/${plan.id}`, { status: 500, text: 'x' });
    await user.click(screen.getByRole('button', { name: 'Delete Greetings' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(banner()).toHaveTextContent(ClassroomMessages.deleteLessonPlanFailed));
    await user.click(screen.getByRole('button', { name: 'Dismiss error' }));

    fetch.on('DELETE', `/api/lesson-plans/${plan.id}`, () => {
      plans.pop();
      return { status: 204 };
    });
    await user.click(screen.getByRole('button', { name: 'Delete Greetings' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Lesson plan deleted successfully')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No lesson plans yet' })).toBeInTheDocument();
  });

  it('prints a plan as a printable page with every field (and print styles), then closes it', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const { user } = await open(personas.teacher(), [makeLessonPlan({ canEdit: false })]);
    await user.click(await screen.findByRole('button', { name: 'Print Greetings' }));
    const page = screen.getByRole('dialog', { name: 'Greetings' });
    expect(print).toHaveBeenCalledTimes(1);
    const printable = within(page);
    for (const text of [
      'Tia Teacher',
      'March 5, 2025',
      'Spanish',
      'Unit 1: Saludos',
      '90 mins',
      'ACTFL 1.1',
      'I can greet a classmate',
      'hola, adiós',
      'When would you use usted?',
      'Exit ticket',
      'Went well',
    ])
      expect(printable.getAllByText(text).length).toBeGreaterThan(0);
    for (const name of PHASES) expect(printable.getByRole('region', { name })).toBeInTheDocument();
    expect(
      within(printable.getByRole('region', { name: PHASES[1]! })).getByText(
        'Guided Practice, Collaborative learning',
      ),
    ).toBeInTheDocument();
    expect(
      within(printable.getByRole('region', { name: PHASES[4]! })).queryByText(/Instruction Types/),
    ).not.toBeInTheDocument();
    expect(page.querySelector('style')?.textContent).toContain('@media print');
    expect(page.parentElement).toBe(document.body);
    await user.click(printable.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(2);
    await user.click(printable.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("duplicates a plan: the create form prefilled as 'Copy of …', sent with POST", async () => {
    const plan = makeLessonPlan({ canEdit: false, creatorName: 'Otto Other' });
    const { user, fetch } = await open(personas.teacher(), [plan], (f) =>
      f.on('POST', '/api/lesson-plans', (req) => ({ status: 201, json: makeLessonPlan(req.body as object) })),
    );
    await user.click(await screen.findByRole('button', { name: 'Duplicate Greetings' }));
    const form = within(screen.getByRole('form', { name: 'Create lesson plan' }));
    expect(form.getByLabelText('Lesson Title')).toHaveValue('Copy of Greetings');
    expect(phase(PHASES[3]!).getByLabelText('Student Discourse')).toBeChecked();
    await user.click(form.getByRole('button', { name: 'Create Plan' }));
    expect(await screen.findByText('Lesson plan created successfully')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/lesson-plans')[0]?.body).toMatchObject({
      title: 'Copy of Greetings',
      teacher: 'Tia Teacher',
      warmUp: plan.warmUp,
      evaluate: plan.evaluate,
    });
    expect(fetch.calls('PUT', /lesson-plans/)).toHaveLength(0);
  });
});
