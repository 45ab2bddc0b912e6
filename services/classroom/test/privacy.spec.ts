import { randomUUID } from 'node:crypto';
import { PeopleDataSubjects, userExportReplySchema, type AudioList } from '@district/contracts';
import { startClassroom, type ClassroomTestApp } from './support/classroom-app';

/** classroom's part of ADR 0021: its answer to the right-of-access request. */
let app: ClassroomTestApp;

beforeAll(async () => {
  app = await startClassroom();
});
afterAll(async () => {
  await app?.close();
});

it('answers classroom.user.export.v1 with the audio lists, lesson plans and slides the person created, and no one else’s', async () => {
  const { client: teacher, person } = await app.signIn('teacher');
  const { client: colleague } = await app.signIn('teacher');
  const audioFiles = [{ name: 'Hola', url: '/sounds/quiz/hola.mp3' }];
  const list = (await teacher.post<AudioList>('/api/audio-lists', { title: 'Mis canciones', audioFiles }))
    .body;
  expect((await colleague.post('/api/audio-lists', { title: 'Not mine', audioFiles })).status).toBe(201);
  const phase = {
    timeAllotted: '10 mins',
    teacherWill: 'Model',
    studentsWill: 'Repeat',
    instructionTypes: [],
  };
  const plan = await teacher.post<{ id: string }>('/api/lesson-plans', {
    title: 'Greetings',
    warmUp: phase,
    explore: phase,
    explain: phase,
    elaborate: phase,
    evaluate: { timeAllotted: '5 mins', teacherWill: 'Quiz', studentsWill: 'Exit ticket' },
  });
  expect(plan.status).toBe(201);
  const slide = await teacher.post<{ id: string }>('/api/google-slides', {
    title: 'Los números',
    googleSlidesUrl: 'https://docs.google.com/presentation/d/1AbC-d_9xYz/edit?usp=sharing',
  });
  expect(slide.status).toBe(201);

  const reply = userExportReplySchema.parse(
    await app.runtime.bus.request(PeopleDataSubjects.userExport('classroom'), {
      userId: person.id.toUpperCase(),
    }),
  );
  expect(reply.service).toBe('classroom');
  expect(reply.sections.audioLists).toEqual([
    expect.objectContaining({
      id: list.id,
      title: 'Mis canciones',
      audioFiles: [expect.objectContaining({ name: 'Hola' })],
    }),
  ]);
  expect(reply.sections.lessonPlans).toEqual([
    expect.objectContaining({ id: plan.body.id, title: 'Greetings' }),
  ]);
  expect(reply.sections.slides).toEqual([
    expect.objectContaining({ id: slide.body.id, title: 'Los números' }),
  ]);
  expect(JSON.stringify(reply)).not.toContain('Not mine');
  const nobody = userExportReplySchema.parse(
    await app.runtime.bus.request(PeopleDataSubjects.userExport('classroom'), { userId: randomUUID() }),
  );
  expect(nobody.sections).toEqual({ audioLists: [], lessonPlans: [], slides: [] });
});
