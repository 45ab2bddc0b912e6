import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  audioListInputSchema,
  demoAccount,
  googleSlideInputSchema,
  lessonPlanInputSchema,
  type AudioList,
  type GoogleSlide,
  type LessonPlan,
} from '@district/contracts';
import {
  DEMO_AUDIO_LIST,
  DEMO_LESSON_PLAN,
  DEMO_SLIDES,
  PUBLIC_DEMO_DECKS,
} from '../src/seed/demo-classroom';
import { SeedService } from '../src/seed/seed.service';
import { startClassroom, type ClassroomTestApp } from './support/classroom-app';

let app: ClassroomTestApp;

beforeAll(async () => {
  app = await startClassroom({ demo: true });
});
afterAll(async () => {
  await app?.close();
});

describe('demo data', () => {
  it('passes the same checks as a teacher’s input', () => {
    expect(audioListInputSchema.parse(DEMO_AUDIO_LIST.input)).toEqual(DEMO_AUDIO_LIST.input);
    expect(lessonPlanInputSchema.parse(DEMO_LESSON_PLAN.input)).toEqual(DEMO_LESSON_PLAN.input);
    for (const slide of DEMO_SLIDES)
      expect(googleSlideInputSchema.parse(slide.input)).toEqual({ ...slide.input, embedUrl: undefined });
  });

  it('has an audio list of the shipped Spanish audio, as site paths the web serves', async () => {
    const { client: student } = await app.signIn('student');
    const list = (await student.get<AudioList[]>('/api/audio-lists')).body.find(
      (l) => l.id === DEMO_AUDIO_LIST.id,
    );
    expect(list).toMatchObject({
      creatorName: demoAccount('teacher').name,
      creatorId: demoAccount('teacher').id,
    });
    expect(list?.audioFiles.length).toBeGreaterThan(0);
    for (const file of list?.audioFiles ?? []) {
      expect(file.url).toMatch(/^\/sounds\//);
      const onDisk = path.join(__dirname, '../../../web/public', decodeURIComponent(file.url));
      expect([file.url, existsSync(onDisk)]).toEqual([file.url, true]);
    }
  });

  it('has a lesson plan with every 5E phase filled', async () => {
    const { client: teacher } = await app.signIn('teacher');
    const plan = (await teacher.get<LessonPlan[]>('/api/lesson-plans')).body.find(
      (p) => p.id === DEMO_LESSON_PLAN.id,
    );
    expect(plan).toBeDefined();
    for (const key of ['warmUp', 'explore', 'explain', 'elaborate', 'evaluate'] as const) {
      const phase = (plan as LessonPlan)[key];
      expect([key, phase.timeAllotted !== '', phase.teacherWill !== '', phase.studentsWill !== '']).toEqual([
        key,
        true,
        true,
        true,
      ]);
      if ('instructionTypes' in phase) expect(phase.instructionTypes.length).toBeGreaterThan(0);
    }
    for (const field of [
      'teacher',
      'date',
      'subject',
      'topic',
      'standards',
      'iCanStatements',
      'academicVocabulary',
      'dokQuestions',
      'evaluation',
      'reflection',
    ] as const)
      expect([field, (plan as LessonPlan)[field] !== '']).toEqual([field, true]);
  });

  it('has two slides of real public decks, one for students and one for teachers only, both with a preview', async () => {
    const ids = DEMO_SLIDES.map((s) => s.id);
    const { client: teacher } = await app.signIn('teacher');
    const { client: student } = await app.signIn('student');
    const forTeacher = (await teacher.get<GoogleSlide[]>('/api/google-slides')).body.filter((s) =>
      ids.includes(s.id),
    );
    const forStudent = (await student.get<GoogleSlide[]>('/api/google-slides')).body.filter((s) =>
      ids.includes(s.id),
    );
    expect(forTeacher.map((s) => s.isPublic).sort()).toEqual([false, true]);
    expect(forStudent.map((s) => s.id)).toEqual([DEMO_SLIDES[0].id]);
    // Each link and preview names a deck found in Google's documentation or samples, never an invented id.
    const documented: readonly string[] = Object.values(PUBLIC_DEMO_DECKS);
    for (const slide of forTeacher) {
      const id = /^https:\/\/docs\.google\.com\/presentation\/d\/([\w-]+)\/edit\?usp=sharing$/.exec(
        slide.googleSlidesUrl,
      )?.[1];
      expect([slide.title, documented.includes(id ?? '')]).toEqual([slide.title, true]);
      expect(slide.embedUrl).toBe(
        `https://docs.google.com/presentation/d/${id}/embed?start=false&loop=false&delayms=3000`,
      );
    }
  });

  it('replaces the invented decks of earlier demo data, once, and never a deck a teacher chose', async () => {
    const [replaced, chosen] = DEMO_SLIDES;
    // A demo site seeded before issue #34: the first slide still has its invented link; the teacher changed the second.
    await app.dataSource.query(
      `UPDATE google_slides SET google_slides_url = $2, embed_url = '', title = 'Old' WHERE id = $1`,
      [replaced.id, replaced.retiredUrls[0]],
    );
    const theirs = 'https://docs.google.com/presentation/d/1TeachersOwnDeckId_abc/edit';
    await app.dataSource.query(`UPDATE google_slides SET google_slides_url = $2 WHERE id = $1`, [
      chosen.id,
      theirs,
    ]);

    const seed = app.service.app.get(SeedService);
    expect(await seed.seedDemo()).toEqual({ audioLists: 0, lessonPlans: 0, slides: 0, slidesReplaced: 1 });
    expect(await seed.seedDemo()).toEqual({ audioLists: 0, lessonPlans: 0, slides: 0, slidesReplaced: 0 });

    const { client: teacher } = await app.signIn('teacher');
    const slides = (await teacher.get<GoogleSlide[]>('/api/google-slides')).body;
    expect(slides.find((s) => s.id === replaced.id)).toMatchObject({
      title: replaced.input.title,
      googleSlidesUrl: replaced.input.googleSlidesUrl,
      embedUrl: expect.stringContaining(PUBLIC_DEMO_DECKS.slidesApiSample),
    });
    expect(slides.find((s) => s.id === chosen.id)?.googleSlidesUrl).toBe(theirs);
  });

  it('is seeded once, however often the service starts', async () => {
    expect(await app.service.app.get(SeedService).seedDemo()).toEqual({
      audioLists: 0,
      lessonPlans: 0,
      slides: 0,
      slidesReplaced: 0,
    });
  });
});
