import { randomUUID } from 'node:crypto';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import {
  AssessmentMessages as M,
  NEXT_CURSOR_HEADER,
  RosterMessages,
  Subjects,
  TOTAL_COUNT_HEADER,
  type Grade,
  type GradeSummary,
  type ItemAnalysis,
  type Quiz,
  type RosterClassChangedEvent,
  type RosterSchoolChangedEvent,
} from '@district/contracts';
import { waitFor, type HttpClient, type TestResponse } from '@district/nest-common/testing';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

jest.setTimeout(120_000);

/**
 * Results and quizzes scoped by the roster (ADR 0042), on the real projection: class and school snapshots are
 * published on the bus and applied by the platform's consumers, as identity's would be.
 */
let app: AssessmentTestApp;

interface Who {
  client: HttpClient;
  id: string;
}

const schoolA = randomUUID();
const schoolB = randomUUID();
const classA1 = randomUUID();
const classA2 = randomUUID();
const classB1 = randomUUID();
let teacherA1: Who;
let teacherB1: Who;
let schoolAdminA: Who;
let districtAdmin: Who;
/** p1, p2 in A1; p3 in A2; p4 in B1; p5 in no class. */
let pupils: Who[];

let version = 1_000;

async function publishClass(
  classId: string,
  schoolId: string,
  teachers: Who[],
  students: Who[],
  sourced = {},
) {
  version += 1;
  const event: RosterClassChangedEvent = {
    classId,
    schoolId,
    title: `Class ${classId.slice(0, 4)}`,
    active: true,
    version,
    teacherIds: teachers.map((t) => t.id),
    studentIds: students.map((s) => s.id),
    ...sourced,
  };
  await app.runtime.bus.publish(Subjects.identityRosterClassChanged, event);
}

async function publishSchool(schoolId: string, admins: Who[]) {
  version += 1;
  const event: RosterSchoolChangedEvent = {
    schoolId,
    name: `School ${schoolId.slice(0, 4)}`,
    active: true,
    version,
    adminIds: admins.map((a) => a.id),
  };
  await app.runtime.bus.publish(Subjects.identityRosterSchoolChanged, event);
}

async function who(persona: 'teacher' | 'student' | 'admin'): Promise<Who> {
  const { client, person } = await app.signIn(persona);
  return { client, id: person.id };
}

const questions = [
  { question: 'uno', options: ['a', 'b', 'c', 'd'], correctAnswer: 0 },
  { question: 'dos', options: ['a', 'b', 'c', 'd'], correctAnswer: 1 },
];

async function textQuiz(author: Who, classIds?: string[]): Promise<Quiz> {
  const res = await author.client.post<Quiz>('/api/text-quizzes', {
    title: `Scoped ${randomUUID().slice(0, 6)}`,
    maxAttempts: -1,
    questions,
    ...(classIds ? { classIds } : {}),
  });
  if (res.status !== 201) throw new Error(`quiz: ${res.status} ${res.text}`);
  return res.body;
}

async function submit(pupil: Who, quizId: string, answers = [0, 1]) {
  return pupil.client.post<Grade>('/api/text-quiz-grades', { quizId, userAnswers: answers });
}

const ids = (grades: Grade[]) => grades.map((g) => g.userId).sort();
const idsOf = (...people: Who[]) => people.map((p) => p.id).sort();

async function list(viewer: Who, query: string): Promise<Grade[]> {
  const res = await viewer.client.get<Grade[]>(`/api/text-quiz-grades?${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** The zip's entries as text, read with yauzl. */
async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(bytes, { lazyEntries: true }, (error, z) => (error ? reject(error) : resolve(z))),
  );
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

async function download(
  viewer: Who,
  classId: string,
): Promise<{ status: number; type: string; bytes: Buffer }> {
  const url = new URL(`/api/classes/${classId}/results.zip`, viewer.client.baseUrl);
  const res = await fetch(new URL(url.pathname, app.url), {
    headers: { cookie: viewer.client.jar.header(url) ?? '' },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

let quiz: Quiz;
const results = new Map<string, string>();

beforeAll(async () => {
  app = await startAssessment();
  teacherA1 = await who('teacher');
  teacherB1 = await who('teacher');
  schoolAdminA = await who('teacher');
  districtAdmin = await who('admin');
  pupils = [];
  for (let i = 0; i < 5; i++) pupils.push(await who('student'));
  const [p1, p2, p3, p4] = pupils;
  await publishSchool(schoolA, [schoolAdminA]);
  await publishSchool(schoolB, []);
  await publishClass(classA1, schoolA, [teacherA1], [p1, p2], {
    sourcedId: 'cls-a1',
    memberSourcedIds: { [p1.id]: 'stu-1' },
  });
  await publishClass(classA2, schoolA, [], [p3]);
  await publishClass(classB1, schoolB, [teacherB1], [p4]);
  await waitFor(async () => {
    const [row] = await app.dataSource.query(
      `SELECT (SELECT count(*) FROM roster_members)::int AS m, (SELECT count(*) FROM roster_school_admins)::int AS a`,
    );
    return row.m === 6 && row.a === 1;
  }, 'the roster applied');
  // An unassigned quiz of teacher A1's, answered by every pupil (p1 twice).
  quiz = await textQuiz(teacherA1);
  for (const p of pupils) {
    const res = await submit(p, quiz.id);
    expect(res.status).toBe(201);
    results.set(p.id, res.body.id);
  }
  expect((await submit(p1, quiz.id, [1, 1])).status).toBe(201);
});
afterAll(async () => {
  await app?.close();
});

describe('grades scoped by the roster (ADR 0042)', () => {
  it('lists a teacher their classes’ pupils, a school administrator their school’s, a district administrator all, a student their own', async () => {
    const [p1, p2, p3, p4, p5] = pupils;
    const q = `quizId=${quiz.id}`;
    expect(ids(await list(teacherA1, q))).toEqual(idsOf(p1, p1, p2));
    expect(ids(await list(teacherB1, q))).toEqual(idsOf(p4));
    expect(ids(await list(schoolAdminA, q))).toEqual(idsOf(p1, p1, p2, p3));
    expect(ids(await list(districtAdmin, q))).toEqual(idsOf(p1, p1, p2, p3, p4, p5));
    expect(ids(await list(p3, q))).toEqual(idsOf(p3));
    // A student's list is theirs, whatever they ask for.
    expect(ids(await list(p5, `${q}&userId=${p1.id}&classId=${classA1}`))).toEqual(idsOf(p5));
  });

  it('answers ?userId= of a pupil outside the scope with an empty list', async () => {
    const [p1, , , p4] = pupils;
    expect(await list(teacherA1, `userId=${p4.id}`)).toEqual([]);
    expect(ids(await list(teacherA1, `userId=${p1.id.toUpperCase()}`))).toEqual(idsOf(p1, p1));
    expect(await list(schoolAdminA, `userId=${p4.id}`)).toEqual([]);
  });

  it('lists a class’s pupils for whoever manages it, and nothing for anyone else', async () => {
    const [p1, p2, p3, p4] = pupils;
    const q = `quizId=${quiz.id}`;
    expect(ids(await list(teacherA1, `${q}&classId=${classA1}`))).toEqual(idsOf(p1, p1, p2));
    expect(await list(teacherA1, `${q}&classId=${classB1}`)).toEqual([]);
    expect(await list(teacherA1, `${q}&classId=${classA2}`)).toEqual([]);
    expect(await list(teacherB1, `${q}&classId=${classA1}`)).toEqual([]);
    expect(ids(await list(schoolAdminA, `${q}&classId=${classA2}`))).toEqual(idsOf(p3));
    expect(ids(await list(districtAdmin, `${q}&classId=${classB1}`))).toEqual(idsOf(p4));
    // Filters combine: a class and a pupil.
    expect(ids(await list(teacherA1, `${q}&classId=${classA1}&userId=${p2.id}`))).toEqual(idsOf(p2));
    const bad = await teacherA1.client.get<{ message: string }>('/api/text-quiz-grades?classId=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(M.classIdInvalid);
  });

  it('sums the summary over the whole scope in SQL', async () => {
    const get = async (viewer: Who, query = '') => {
      const res = await viewer.client.get<GradeSummary>(
        `/api/text-quiz-grades/summary?quizId=${quiz.id}${query}`,
      );
      expect(res.status).toBe(200);
      return res.body;
    };
    // p1: 100 and 50, p2: 100.
    expect(await get(teacherA1)).toEqual({
      totalAttempts: 3,
      averageScore: 83.3,
      passed: 2,
      passRate: 66.7,
      quizzes: [{ id: quiz.id, title: quiz.title }],
    });
    expect((await get(districtAdmin)).totalAttempts).toBe(6);
    expect((await get(schoolAdminA)).totalAttempts).toBe(4);
    expect((await get(teacherB1, `&classId=${classA1}`)).totalAttempts).toBe(0);
    expect((await get(pupils[4])).totalAttempts).toBe(1);
  });

  it('analyses a quiz over the caller’s scope (and class)', async () => {
    const analysis = async (viewer: Who, query = '') => {
      const res = await viewer.client.get<ItemAnalysis>(`/api/text-quizzes/${quiz.id}/analysis${query}`);
      expect(res.status).toBe(200);
      return res.body.results;
    };
    expect(await analysis(teacherA1)).toBe(3);
    expect(await analysis(teacherB1)).toBe(1);
    expect(await analysis(schoolAdminA)).toBe(4);
    expect(await analysis(districtAdmin)).toBe(6);
    expect(await analysis(schoolAdminA, `?classId=${classA2}`)).toBe(1);
    expect(await analysis(teacherB1, `?classId=${classA1}`)).toBe(0);
  });

  it('deletes a result in the scope only: outside it the result is not found', async () => {
    const [p1, , , p4] = pupils;
    const outside = await teacherA1.client.delete<{ message: string }>(
      `/api/text-quiz-grades/${results.get(p4.id)}`,
    );
    expect(outside.status).toBe(404);
    expect(outside.body.message).toBe(M.gradeNotFound);
    // In teacher B1's scope, but teacher A1's quiz: the owner rule still holds.
    expect((await teacherB1.client.delete(`/api/text-quiz-grades/${results.get(p4.id)}`)).status).toBe(403);
    expect((await teacherA1.client.delete(`/api/text-quiz-grades/${results.get(p1.id)}`)).status).toBe(204);
    expect((await teacherA1.client.delete(`/api/text-quiz-grades/${results.get(p1.id)}`)).status).toBe(404);
  });
});

describe('paging on the server', () => {
  it('walks every row once, newest first, with the total on every page', async () => {
    const q = `quizId=${quiz.id}`;
    const all = await list(districtAdmin, q);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: TestResponse<Grade[]> = await districtAdmin.client.get<Grade[]>(
        `/api/text-quiz-grades?${q}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe(String(all.length));
      expect(res.body.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.map((g) => g.id));
      cursor = res.headers.get(NEXT_CURSOR_HEADER);
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(all.map((g) => g.id));
    expect(new Set(seen).size).toBe(all.length);
    expect(pages).toBe(Math.ceil(all.length / 2));
    const times = all.map((g) => g.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('refuses a malformed cursor and a limit out of range with 400 and a message', async () => {
    const forged = Buffer.from(JSON.stringify(['2024-02-31T00:00:00.000000Z', randomUUID()])).toString(
      'base64url',
    );
    for (const query of ['cursor=!!', 'cursor=e30', `cursor=${forged}`, 'limit=501', 'limit=0', 'limit=x']) {
      const res = await districtAdmin.client.get<{ message: string }>(`/api/text-quiz-grades?${query}`);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });
});

describe('quizzes assigned to classes', () => {
  it('assigns a quiz only to classes the author manages (classNotYours)', async () => {
    const refused = await teacherA1.client.post<{ message: string }>('/api/text-quizzes', {
      title: 'Not mine',
      questions,
      classIds: [classB1],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(M.classNotYours);
    const unknown = await districtAdmin.client.post<{ message: string }>('/api/text-quizzes', {
      title: 'Nowhere',
      questions,
      classIds: [randomUUID()],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(M.classNotYours);
    const school = await textQuiz(schoolAdminA, [classA2.toUpperCase()]);
    expect(school.classIds).toEqual([classA2]);
    const mine = await textQuiz(teacherA1, [classA1]);
    const widened = await teacherA1.client.put<{ message: string }>(`/api/text-quizzes/${mine.id}`, {
      title: mine.title,
      questions,
      classIds: [classA1, classB1],
    });
    expect(widened.status).toBe(400);
    expect(widened.body.message).toBe(M.classNotYours);
    // Absent on PUT: unchanged.
    const kept = await teacherA1.client.put<Quiz>(`/api/text-quizzes/${mine.id}`, {
      title: 'Kept',
      questions,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.classIds).toEqual([classA1]);
  });

  it('is listed, opened and submitted by the students of its classes only', async () => {
    const [p1, , p3, p4] = pupils;
    const assigned = await textQuiz(teacherA1, [classA1]);
    const listed = async (viewer: Who) =>
      ((await viewer.client.get<{ id: string }[]>('/api/text-quizzes')).body ?? []).some(
        (q) => q.id === assigned.id,
      );
    expect(await listed(p1)).toBe(true);
    expect(await listed(p3)).toBe(false);
    expect(await listed(p4)).toBe(false);
    // Staff see every quiz, as today.
    expect(await listed(teacherB1)).toBe(true);
    expect(await listed(districtAdmin)).toBe(true);
    // The unassigned quiz stays everyone's.
    expect(
      ((await p4.client.get<{ id: string }[]>('/api/text-quizzes')).body ?? []).some((q) => q.id === quiz.id),
    ).toBe(true);

    expect((await p1.client.get(`/api/text-quizzes/${assigned.id}`)).status).toBe(200);
    const opened = await p4.client.get<{ message: string }>(`/api/text-quizzes/${assigned.id}`);
    expect(opened.status).toBe(404);
    expect(opened.body.message).toBe(M.quizNotFound);
    expect((await p1.client.post(`/api/text-quizzes/${assigned.id}/attempts`)).status).toBe(200);
    const started = await p4.client.post<{ message: string }>(`/api/text-quizzes/${assigned.id}/attempts`);
    expect(started.status).toBe(404);
    expect(started.body.message).toBe(M.quizNotFound);
    expect((await submit(p1, assigned.id)).status).toBe(201);
    const submitted = await submit(p4, assigned.id);
    expect(submitted.status).toBe(404);
    expect((submitted.body as unknown as { message: string }).message).toBe(M.quizNotFound);
    // Teachers and admins open and take it as today.
    expect((await teacherB1.client.get(`/api/text-quizzes/${assigned.id}`)).status).toBe(200);
  });
});

describe('GET /api/classes/{id}/results.zip', () => {
  it('is a OneRoster 1.2 gradebook for a teacher of the class, its school’s administrator and a district administrator', async () => {
    const [p1, p2] = pupils;
    const res = await download(teacherA1, classA1);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/zip');
    const files = await unzip(res.bytes);
    expect([...files.keys()]).toEqual(['manifest.csv', 'lineItems.csv', 'results.csv']);
    const manifest = files.get('manifest.csv') as string;
    expect(manifest).toContain('oneroster.version,1.2');
    expect(manifest).toContain('file.lineItems,bulk');
    expect(manifest).toContain('file.results,bulk');
    expect(manifest).toContain('file.users,absent');
    const lineItems = (files.get('lineItems.csv') as string).trim().split('\r\n');
    expect(lineItems[0]).toBe(
      'sourcedId,status,dateLastModified,title,description,assignDate,dueDate,classSourcedId,categorySourcedId,gradingPeriodSourcedId,resultValueMin,resultValueMax',
    );
    const item = lineItems.find((l) => l.startsWith(quiz.id)) as string;
    expect(item).toContain(',cls-a1,quiz,,0,100');
    const rows = (files.get('results.csv') as string).trim().split('\r\n');
    expect(rows[0]).toBe(
      'sourcedId,status,dateLastModified,lineItemSourcedId,studentSourcedId,scoreStatus,score,scoreDate,comment',
    );
    const ofQuiz = rows.slice(1).filter((r) => r.split(',')[3] === quiz.id);
    // p1's first result was deleted above: p1's second (50 %) under the SIS id, p2's (100 %) under our id.
    expect(ofQuiz.map((r) => r.split(',').slice(4, 7).join(',')).sort()).toEqual(
      ['stu-1,fully graded,50', `${p2.id},fully graded,100`].sort(),
    );
    expect(ofQuiz.every((r) => r.split(',')[1] === 'active')).toBe(true);
    expect(p1.id).not.toBe('stu-1');

    expect((await download(schoolAdminA, classA1)).status).toBe(200);
    expect((await download(districtAdmin, classA1)).status).toBe(200);
  });

  it('is not found for anyone else', async () => {
    for (const viewer of [teacherB1, pupils[0], schoolAdminA]) {
      const cls = viewer === schoolAdminA ? classB1 : classA1;
      const res = await download(viewer, cls);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.bytes.toString('utf8')).message).toBe(RosterMessages.classNotFound);
    }
    expect((await download(districtAdmin, randomUUID())).status).toBe(404);
    expect((await download(districtAdmin, 'not-a-class')).status).toBe(404);
  });
});

describe('an installation without classes (the spec’s one school)', () => {
  let solo: AssessmentTestApp;
  beforeAll(async () => {
    solo = await startAssessment();
  });
  afterAll(async () => {
    await solo?.close();
  });

  it('keeps the spec’s rights: every teacher sees every result, quizzes are everyone’s, nothing can be assigned', async () => {
    const sign = async (persona: 'teacher' | 'student') => (await solo.signIn(persona)).client;
    const [author, other, s1, s2] = [
      await sign('teacher'),
      await sign('teacher'),
      await sign('student'),
      await sign('student'),
    ];
    const created = await author.post<Quiz>('/api/text-quizzes', {
      title: 'Solo',
      maxAttempts: -1,
      questions,
    });
    expect(created.status).toBe(201);
    expect(created.body.classIds).toEqual([]);
    for (const s of [s1, s2])
      expect(
        (await s.post('/api/text-quiz-grades', { quizId: created.body.id, userAnswers: [0, 1] })).status,
      ).toBe(201);
    const listed = await other.get<Grade[]>(`/api/text-quiz-grades?quizId=${created.body.id}`);
    expect(listed.body).toHaveLength(2);
    expect(listed.headers.get(TOTAL_COUNT_HEADER)).toBe('2');
    expect(listed.headers.get(NEXT_CURSOR_HEADER)).toBeNull();
    expect(
      (await other.get<GradeSummary>(`/api/text-quiz-grades/summary?quizId=${created.body.id}`)).body
        .totalAttempts,
    ).toBe(2);
    expect(
      (await other.get<ItemAnalysis>(`/api/text-quizzes/${created.body.id}/analysis`)).body.results,
    ).toBe(2);
    expect(
      (await s2.get<{ id: string }[]>('/api/text-quizzes')).body.some((q) => q.id === created.body.id),
    ).toBe(true);
    const assigned = await author.post<{ message: string }>('/api/text-quizzes', {
      title: 'Nowhere',
      questions,
      classIds: [randomUUID()],
    });
    expect(assigned.status).toBe(400);
    expect(assigned.body.message).toBe(M.classNotYours);
  });
});
