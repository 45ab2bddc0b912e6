import { randomUUID } from 'node:crypto';
import {
  IdentityMessages,
  NEXT_CURSOR_HEADER,
  RosterMessages,
  TOTAL_COUNT_HEADER,
  type ClassDetail,
  type ClassSummary,
  type School,
  type User,
} from '@district/contracts';
import type { HttpClient } from '@district/nest-common/testing';
import { DistrictRows } from './support/district-rows';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN_ENV, registerPerson, signInAdmin } from './support/people';

/**
 * The district's reads (ADR 0042) for each persona: who sees which schools and classes, and whose emails. The
 * roster is written straight into the tables (support/district-rows.ts), not imported.
 */
type Persona =
  | 'anonymous'
  | 'pending'
  | 'districtAdmin'
  | 'schoolAdminA'
  | 'teacherA1'
  | 'teacherB'
  | 'studentA1'
  | 'loner';
const PERSONAS: Persona[] = [
  'anonymous',
  'pending',
  'districtAdmin',
  'schoolAdminA',
  'teacherA1',
  'teacherB',
  'studentA1',
  'loner',
];

let app: IdentityTestApp;
const clients = {} as Record<Persona, HttpClient>;
const people = {} as Record<Exclude<Persona, 'anonymous'>, User>;
const ids = {} as Record<'schoolA' | 'schoolB' | 'schoolC' | 'a1' | 'a2' | 'a3' | 'b1', string>;
let formerStudent: User;
let studentB: User;

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV });
  const admin = await signInAdmin(app);
  clients.anonymous = app.client();
  clients.districtAdmin = admin;
  people.districtAdmin = (await admin.get<User>('/api/auth/me')).body;
  const as = {
    pending: 'pending',
    schoolAdminA: 'teacher',
    teacherA1: 'teacher',
    teacherB: 'teacher',
  } as const;
  for (const persona of ['pending', 'schoolAdminA', 'teacherA1', 'teacherB', 'studentA1', 'loner'] as const) {
    const { client, user } = await registerPerson(app, admin, as[persona as keyof typeof as] ?? 'student');
    clients[persona] = client;
    people[persona] = user;
  }
  formerStudent = (await registerPerson(app, admin, 'student')).user;
  studentB = (await registerPerson(app, admin, 'student')).user;

  const rows = new DistrictRows(app.dataSource);
  ids.schoolA = await rows.school('Alder Primary', { identifier: 'ALD' });
  ids.schoolB = await rows.school('Birch High');
  ids.schoolC = await rows.school('Cedar Academy', { active: false });
  ids.a1 = await rows.class(ids.schoolA, 'Maths 1', { term: 'Autumn 2026', courseCode: 'MA1' });
  ids.a2 = await rows.class(ids.schoolA, 'Reading');
  ids.a3 = await rows.class(ids.schoolA, 'Old class', { active: false });
  ids.b1 = await rows.class(ids.schoolB, 'Science');
  await rows.role(people.schoolAdminA.id, ids.schoolA);
  // A role that ended, and a role that is not an administrator's: neither makes a school administrator.
  await rows.role(people.teacherB.id, ids.schoolA, 'administrator', { active: false });
  await rows.role(people.teacherA1.id, ids.schoolA, 'teacher');
  await rows.enrol(ids.a1, people.teacherA1.id, 'teacher');
  await rows.enrol(ids.a1, people.studentA1.id, 'student');
  await rows.enrol(ids.a1, formerStudent.id, 'student', { active: false });
  await rows.enrol(ids.a2, people.studentA1.id, 'student');
  await rows.enrol(ids.a3, people.studentA1.id, 'student');
  await rows.enrol(ids.b1, people.teacherB.id, 'teacher');
  await rows.enrol(ids.b1, studentB.id, 'student');
  await rows.enrol(ids.b1, people.studentA1.id, 'student');
});
afterAll(async () => {
  await app?.close();
});

/** Each persona's answer to one request: status, and body when 200. */
async function answers(path: string): Promise<Record<Persona, { status: number; body: unknown }>> {
  const out = {} as Record<Persona, { status: number; body: unknown }>;
  for (const persona of PERSONAS) {
    const res = await clients[persona].get(path);
    out[persona] = { status: res.status, body: res.body };
  }
  return out;
}

const school = (key: 'schoolA' | 'schoolB' | 'schoolC', canManage: boolean): School => ({
  id: ids[key],
  name: { schoolA: 'Alder Primary', schoolB: 'Birch High', schoolC: 'Cedar Academy' }[key],
  identifier: key === 'schoolA' ? 'ALD' : null,
  active: key !== 'schoolC',
  classCount: { schoolA: 2, schoolB: 1, schoolC: 0 }[key],
  canManage,
});

const summary = (key: 'a1' | 'a2' | 'a3' | 'b1'): ClassSummary => {
  const table = {
    a1: ['Maths 1', 'schoolA', 'Alder Primary', 'Autumn 2026', 'MA1', true, 1, 1],
    a2: ['Reading', 'schoolA', 'Alder Primary', null, null, true, 0, 1],
    a3: ['Old class', 'schoolA', 'Alder Primary', null, null, false, 0, 1],
    b1: ['Science', 'schoolB', 'Birch High', null, null, true, 1, 2],
  } as const;
  const [title, schoolKey, schoolName, term, courseCode, active, teacherCount, studentCount] = table[key];
  return {
    id: ids[key],
    title,
    schoolId: ids[schoolKey],
    schoolName,
    term,
    courseCode,
    active,
    teacherCount,
    studentCount,
  };
};

const signedOutAndPending = {
  anonymous: {
    status: 401,
    body: expect.objectContaining({ message: IdentityMessages.authenticationRequired }),
  },
  pending: {
    status: 403,
    body: expect.objectContaining({ message: IdentityMessages.accountPendingApproval }),
  },
};
const forbidden = { status: 403, body: expect.objectContaining({ message: IdentityMessages.adminRequired }) };
const classNotFound = {
  status: 404,
  body: expect.objectContaining({ message: RosterMessages.classNotFound }),
};

describe('GET /api/schools', () => {
  it('answers each persona the schools they administer or have a class in; a district administrator all of them', async () => {
    expect(await answers('/api/schools')).toEqual({
      ...signedOutAndPending,
      districtAdmin: {
        status: 200,
        body: [school('schoolA', true), school('schoolB', true), school('schoolC', true)],
      },
      schoolAdminA: { status: 200, body: [school('schoolA', true)] },
      teacherA1: { status: 200, body: [school('schoolA', false)] },
      teacherB: { status: 200, body: [school('schoolB', false)] },
      studentA1: { status: 200, body: [school('schoolA', false), school('schoolB', false)] },
      loner: { status: 200, body: [] },
    });
  });
});

describe('GET /api/classes', () => {
  it("answers each persona their own active classes, by school then title, with the list's count", async () => {
    expect(await answers('/api/classes')).toEqual({
      ...signedOutAndPending,
      districtAdmin: { status: 200, body: [] },
      schoolAdminA: { status: 200, body: [] },
      teacherA1: { status: 200, body: [summary('a1')] },
      teacherB: { status: 200, body: [summary('b1')] },
      studentA1: { status: 200, body: [summary('a1'), summary('a2'), summary('b1')] },
      loner: { status: 200, body: [] },
    });
    const res = await clients.studentA1.get('/api/classes');
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe('3');
    expect(res.headers.get(NEXT_CURSOR_HEADER)).toBeNull();
  });

  it("answers a school's active classes to its administrators and district administrators only (403 otherwise)", async () => {
    expect(await answers(`/api/classes?schoolId=${ids.schoolA}`)).toEqual({
      ...signedOutAndPending,
      districtAdmin: { status: 200, body: [summary('a1'), summary('a2')] },
      schoolAdminA: { status: 200, body: [summary('a1'), summary('a2')] },
      teacherA1: forbidden,
      teacherB: forbidden,
      studentA1: forbidden,
      loner: forbidden,
    });
    expect(await answers(`/api/classes?schoolId=${ids.schoolB.toUpperCase()}`)).toEqual({
      ...signedOutAndPending,
      districtAdmin: { status: 200, body: [summary('b1')] },
      schoolAdminA: forbidden,
      teacherA1: forbidden,
      teacherB: forbidden,
      studentA1: forbidden,
      loner: forbidden,
    });
  });

  it('answers an unknown school 404 to a district administrator and 403 to a school administrator', async () => {
    const unknown = randomUUID();
    const asAdmin = await clients.districtAdmin.get(`/api/classes?schoolId=${unknown}`);
    expect(asAdmin.status).toBe(404);
    expect(asAdmin.body).toMatchObject({ message: RosterMessages.schoolNotFound });
    expect((await clients.schoolAdminA.get(`/api/classes?schoolId=${unknown}`)).status).toBe(403);
  });

  it('refuses a bad query with 400 and a message', async () => {
    for (const [query, message] of [
      ['schoolId=nope', 'schoolId must be a school id'],
      ['limit=501', 'limit must be at most 500'],
      ['limit=0', 'limit must be at least 1'],
      ['limit=ten', 'limit must be a number'],
      ['cursor=bm9wZQ', 'cursor is not valid'],
      ['cursor=%25%25', 'cursor is not valid'],
    ]) {
      const res = await clients.teacherA1.get(`/api/classes?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect((res.body as { message: string }).message).toContain(message);
    }
  });

  it("pages a school's classes: every class once across the pages, the total on each", async () => {
    const rows = new DistrictRows(app.dataSource);
    const schoolId = await rows.school('Juniper School');
    const titles = ['Art', 'Art', 'Biology', 'Chemistry', 'Drama', 'English', 'French'];
    const classIds = [];
    for (const title of titles) classIds.push(await rows.class(schoolId, title));
    await rows.class(schoolId, 'Ended', { active: false });

    const seen: ClassSummary[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: ClassSummary[]; headers: Headers } = await clients.districtAdmin.get<
        ClassSummary[]
      >(`/api/classes?schoolId=${schoolId}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe('7');
      expect(res.body.length).toBeLessThanOrEqual(3);
      seen.push(...res.body);
      cursor = res.headers.get(NEXT_CURSOR_HEADER);
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((c) => c.title)).toEqual(titles);
    expect(new Set(seen.map((c) => c.id))).toEqual(new Set(classIds));
  });
  it('pages classes whose school names and titles are as long as a roster allows (the cursor stays short)', async () => {
    const rows = new DistrictRows(app.dataSource);
    const schoolId = await rows.school(`${'Ł'.repeat(150)} ${'"'.repeat(49)}`);
    for (let i = 0; i < 5; i++) await rows.class(schoolId, `${i} ${'ü\\'.repeat(99)}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: ClassSummary[]; headers: Headers } = await clients.districtAdmin.get<
        ClassSummary[]
      >(`/api/classes?schoolId=${schoolId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.map((c) => c.title[0]));
      cursor = res.headers.get(NEXT_CURSOR_HEADER);
    } while (cursor && seen.length < 10);
    expect(seen).toEqual(['0', '1', '2', '3', '4']);
  });
});

describe('GET /api/classes/{id}', () => {
  const member = (user: User, withEmail: boolean) =>
    withEmail ? { id: user.id, name: user.name, email: user.email } : { id: user.id, name: user.name };
  const detail = (withEmail: boolean): ClassDetail => ({
    ...summary('a1'),
    teachers: [member(people.teacherA1, withEmail)],
    students: [member(people.studentA1, withEmail)],
  });

  it("shows a class to its teachers, students, its school's administrators and district administrators; emails not to students", async () => {
    expect(await answers(`/api/classes/${ids.a1}`)).toEqual({
      ...signedOutAndPending,
      districtAdmin: { status: 200, body: detail(true) },
      schoolAdminA: { status: 200, body: detail(true) },
      teacherA1: { status: 200, body: detail(true) },
      studentA1: { status: 200, body: detail(false) },
      teacherB: classNotFound,
      loner: classNotFound,
    });
  });

  it("keeps another school's class from a school administrator, as if it did not exist", async () => {
    const res = await clients.schoolAdminA.get(`/api/classes/${ids.b1}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(expect.objectContaining({ message: RosterMessages.classNotFound }));
    const b1 = await clients.teacherB.get<ClassDetail>(`/api/classes/${ids.b1}`);
    expect(b1.body.students.map((s) => s.id).sort()).toEqual([people.studentA1.id, studentB.id].sort());
  });

  it('answers an unknown or malformed id 404, and reads any letter case of a real one', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', `${ids.a1}x`]) {
      const res = await clients.districtAdmin.get(`/api/classes/${id}`);
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      expect(res.body).toMatchObject({ message: RosterMessages.classNotFound });
    }
    const upper = await clients.teacherA1.get<ClassDetail>(`/api/classes/${ids.a1.toUpperCase()}`);
    expect(upper.status).toBe(200);
    expect(upper.body.id).toBe(ids.a1);
  });

  it('shows an ended class (active: false) to administrators', async () => {
    const ended = await clients.districtAdmin.get<ClassDetail>(`/api/classes/${ids.a3}`);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ active: false, teachers: [] });
    const asSchoolAdmin = await clients.schoolAdminA.get<ClassDetail>(`/api/classes/${ids.a3}`);
    expect(asSchoolAdmin.status).toBe(200);
  });
});
