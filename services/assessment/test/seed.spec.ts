import { existsSync } from 'node:fs';
import path from 'node:path';
import { demoAccount, type Grade, type Quiz } from '@district/contracts';
import { SeedService } from '../src/seed/seed.service';
import { DEMO_QUIZZES } from '../src/seed/demo-quizzes';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

let app: AssessmentTestApp;

beforeAll(async () => {
  app = await startAssessment({ demo: true });
});
afterAll(async () => {
  await app?.close();
});

describe('demo data', () => {
  it('has an audio quiz playing shipped recordings, a text quiz, and the demo student’s results', async () => {
    const { client: teacher } = await app.signIn('teacher');
    const audio = (await teacher.get<Quiz[]>('/api/audio-quizzes')).body;
    const text = (await teacher.get<Quiz[]>('/api/text-quizzes')).body;
    expect(audio.map((q) => q.id)).toContain(DEMO_QUIZZES[0].id);
    expect(text.map((q) => q.id)).toContain(DEMO_QUIZZES[1].id);
    const demoAudio = audio.find((q) => q.id === DEMO_QUIZZES[0].id) as Quiz;
    expect(demoAudio.createdByName).toBe(demoAccount('teacher').name);
    for (const q of demoAudio.questions) {
      const url = new URL(q.audioUrl as string);
      expect(url.origin).toBe(new URL(app.runtime.publicUrl).origin);
      expect(existsSync(path.join(__dirname, '../../../web/public', url.pathname))).toBe(true);
    }
    const student = demoAccount('student').id;
    const audioGrades = (await teacher.get<Grade[]>(`/api/quiz-grades?userId=${student}`)).body;
    const textGrades = (await teacher.get<Grade[]>(`/api/text-quiz-grades?userId=${student}`)).body;
    expect(audioGrades.map((g) => [g.quizId, g.score, g.passed, g.userName])).toEqual([
      [DEMO_QUIZZES[0].id, 75, true, demoAccount('student').name],
    ]);
    expect(textGrades.map((g) => [g.quizId, g.score, g.passed])).toEqual([[DEMO_QUIZZES[1].id, 50, false]]);
  });

  it('is seeded once, however often the service starts', async () => {
    expect(await app.service.app.get(SeedService).seedDemo()).toEqual({ quizzes: 0, results: 0 });
  });
});
