import {
  ClassroomMessages as M,
  INSTRUCTION_TYPES,
  LESSON_PLAN_SHORT_MAX,
  LESSON_PLAN_TEXT_MAX,
  Subjects,
  type LessonPlan,
} from '@district/contracts';
import type { BusMessage } from '@district/nest-common';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { eventSubjectsFor, startClassroomSpec, type ClassroomTestApp } from './support/classroom-app';

let app: ClassroomTestApp;
let teacher: HttpClient;
let otherTeacher: HttpClient;
let admin: HttpClient;
let events: BusMessage[];

beforeAll(async () => {
  const spec = await startClassroomSpec('classroom.lessonplan.>', 'lesson-plans-spec');
  ({ app, events } = spec);
  ({ teacher, otherTeacher, admin } = spec.people);
});
afterAll(async () => {
  await app?.close();
});

const phase = (n: string, types: string[] = []) => ({
  timeAllotted: `${n} mins`,
  teacherWill: `Teacher ${n}`,
  studentsWill: `Students ${n}`,
  instructionTypes: types,
});

const fullPlan = {
  title: 'Greetings',
  teacher: 'Ms. Ruiz',
  date: '2026-09-14',
  subject: 'Spanish I',
  topic: 'Unit 1',
  standards: 'ACTFL 1.1',
  iCanStatements: 'I can greet someone.',
  academicVocabulary: 'hola, adiós',
  dokQuestions: 'When do you say buenos días?',
  // Sent out of order and repeated: stored once each, in the checklist's order.
  warmUp: phase('10', ['Guided Practice', 'Teacher Directed Instruction', 'Guided Practice']),
  explore: phase('15', ['Collaborative learning']),
  explain: phase('20', [...INSTRUCTION_TYPES]),
  elaborate: phase('30', ['Student Discourse']),
  evaluate: { timeAllotted: '15 mins', teacherWill: 'Quiz', studentsWill: 'Exit ticket' },
  totalTime: '90 mins',
  evaluation: 'Exit ticket',
  reflection: 'Went well',
};

describe('lesson plans', () => {
  it('keep every field and 5E phase, are shared between teachers, and changed only by their creator or an admin', async () => {
    const created = await teacher.post<LessonPlan>('/api/lesson-plans', fullPlan);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      ...fullPlan,
      warmUp: phase('10', ['Teacher Directed Instruction', 'Guided Practice']),
      creatorName: 'Ms. Ruiz',
      canEdit: true,
    });
    expect(created.body.evaluate).toEqual(fullPlan.evaluate);
    const id = created.body.id;
    const seenBy = async (client: HttpClient) =>
      (await client.get<LessonPlan[]>('/api/lesson-plans')).body.find((p) => p.id === id);
    expect(await seenBy(otherTeacher)).toMatchObject({ title: 'Greetings', canEdit: false });
    expect(await seenBy(admin)).toMatchObject({ canEdit: true });

    const refused = await otherTeacher.put(`/api/lesson-plans/${id}`, { title: 'Mine' });
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([
      403,
      M.lessonPlanOwnerOnly,
    ]);
    expect((await otherTeacher.delete(`/api/lesson-plans/${id}`)).status).toBe(403);

    const updated = await teacher.put<LessonPlan>(`/api/lesson-plans/${id}`, {
      ...fullPlan,
      title: 'Greetings 2',
      reflection: '',
    });
    expect(updated.body).toMatchObject({ title: 'Greetings 2', reflection: '' });
    const byAdmin = await admin.put<LessonPlan>(`/api/lesson-plans/${id}`, {
      ...fullPlan,
      title: 'Greetings 3',
    });
    expect([byAdmin.status, byAdmin.body.creatorName]).toEqual([200, 'Ms. Ruiz']);
    expect((await teacher.delete(`/api/lesson-plans/${id}`)).status).toBe(204);
    expect(await seenBy(teacher)).toBeUndefined();

    const subjectsOf = () => eventSubjectsFor(events, 'lessonPlan', id);
    await waitFor(() => subjectsOf().length >= 4, 'the plan’s four events');
    expect(subjectsOf()).toEqual([
      Subjects.classroomLessonPlanCreated,
      Subjects.classroomLessonPlanUpdated,
      Subjects.classroomLessonPlanUpdated,
      Subjects.classroomLessonPlanDeleted,
    ]);
    // The events carry the heading, not the plan's text.
    expect(JSON.stringify(events)).not.toContain('Exit ticket');
  });

  it('fills the spec’s defaults: totalTime 90 mins, empty phases', async () => {
    const res = await teacher.post<LessonPlan>('/api/lesson-plans', {
      title: 'Only a title',
      totalTime: '  ',
    });
    expect(res.status).toBe(201);
    const empty = { timeAllotted: '', teacherWill: '', studentsWill: '' };
    expect(res.body).toMatchObject({
      title: 'Only a title',
      teacher: '',
      date: '',
      totalTime: '90 mins',
      warmUp: { ...empty, instructionTypes: [] },
      elaborate: { ...empty, instructionTypes: [] },
      evaluate: empty,
    });
  });

  it('refuses students, pending accounts and suspended admins with the spec’s text', async () => {
    for (const [persona, overrides] of [
      ['student', {}],
      ['teacher', { approved: false }],
      ['admin', { approved: false }],
    ] as const) {
      const { client } = await app.signIn(persona, overrides);
      for (const res of [
        await client.get('/api/lesson-plans'),
        await client.post('/api/lesson-plans', fullPlan),
      ])
        expect([res.status, (res.body as { message: string }).message]).toEqual([
          403,
          M.lessonPlansRestricted,
        ]);
    }
  });

  it.each([
    ['no title', { ...fullPlan, title: undefined }, M.lessonPlanTitleRequired],
    ['a blank title', { ...fullPlan, title: ' ' }, M.lessonPlanTitleRequired],
    ['a title too long', { ...fullPlan, title: 't'.repeat(201) }, M.lessonPlanTitleTooLong],
    [
      'a subject too long',
      { ...fullPlan, subject: 's'.repeat(LESSON_PLAN_SHORT_MAX + 1) },
      M.lessonPlanFieldTooLong('Subject', LESSON_PLAN_SHORT_MAX),
    ],
    [
      'standards too long',
      { ...fullPlan, standards: 's'.repeat(LESSON_PLAN_TEXT_MAX + 1) },
      M.lessonPlanFieldTooLong('Standards', LESSON_PLAN_TEXT_MAX),
    ],
    [
      'a phase text too long',
      { ...fullPlan, explore: { ...fullPlan.explore, teacherWill: 'x'.repeat(LESSON_PLAN_TEXT_MAX + 1) } },
      M.lessonPlanFieldTooLong('Explore - Activating Strategy: teacher will', LESSON_PLAN_TEXT_MAX),
    ],
    ['a field that is not text', { ...fullPlan, topic: 42 }, M.lessonPlanFieldNotText('Topic/Unit')],
    [
      'an unknown instruction type',
      { ...fullPlan, warmUp: phase('1', ['Lecture']) },
      M.instructionTypeInvalid('Warm-Up/Hook (Engage)'),
    ],
    ['a date that is not one', { ...fullPlan, date: '2026-02-30' }, M.lessonPlanDateInvalid],
    ['not an object', ['plan'], M.bodyNotObject],
  ])('refuses %s with a 400 and stores nothing', async (_, body, message) => {
    const before = (await teacher.get<LessonPlan[]>('/api/lesson-plans')).body.length;
    const res = await teacher.post('/api/lesson-plans', body);
    expect([res.status, (res.body as { message: string }).message]).toEqual([400, message]);
    expect((await teacher.get<LessonPlan[]>('/api/lesson-plans')).body.length).toBe(before);
  });
});
