import { IdentityMessages, NEXT_CURSOR_HEADER, TOTAL_COUNT_HEADER, type User } from '@district/contracts';
import type { OpenApiDocument } from '@district/nest-common';
import type { HttpClient } from '@district/nest-common/testing';
import { DistrictRows } from './support/district-rows';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN, ADMIN_ENV, registerPerson, signInAdmin } from './support/people';

/** GET /api/users searched and paged on the server (ADR 0042), and a school administrator's view of it. */
let app: IdentityTestApp;
let rows: DistrictRows;
let admin: HttpClient;
const clients = {} as Record<'schoolAdminA' | 'teacherA1' | 'studentA1' | 'loner' | 'pending', HttpClient>;
const people = {} as Record<keyof typeof clients, User>;
const schools = {} as Record<'a' | 'b', string>;
/** Accounts written for the search, by name. */
const searchIds = new Map<string, string>();

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV });
  admin = await signInAdmin(app);
  rows = new DistrictRows(app.dataSource);
  for (const [persona, as] of [
    ['schoolAdminA', 'teacher'],
    ['teacherA1', 'teacher'],
    ['studentA1', 'student'],
    ['loner', 'student'],
    ['pending', 'pending'],
  ] as const) {
    const { client, user } = await registerPerson(app, admin, as);
    clients[persona] = client;
    people[persona] = user;
  }
  schools.a = await rows.school('Alder Primary');
  schools.b = await rows.school('Birch High');
  const a1 = await rows.class(schools.a, 'Maths 1');
  const ended = await rows.class(schools.a, 'Ended', { active: false });
  const b1 = await rows.class(schools.b, 'Science');
  await rows.role(people.schoolAdminA.id, schools.a);
  await rows.enrol(a1, people.teacherA1.id, 'teacher');
  await rows.enrol(a1, people.studentA1.id, 'student');
  await rows.enrol(b1, people.studentA1.id, 'student');

  const written = [
    { name: 'Zora Quill', username: 'zquill', email: 'zora.q@north.test' },
    { name: '100% Pure', username: 'purely', email: 'pure@north.test' },
    { name: 'Half Way', username: 'under_score', email: 'half@north.test' },
    { name: 'Back Slash', username: 'back\\slash', email: 'slash@north.test' },
    { name: 'Bram Olsen', username: 'bolsen', email: 'bram@b.test', role: 'teacher' },
    { name: 'Old Pupil', username: 'oldpupil', email: 'old@a.test' },
    { name: 'Ended Class Pupil', username: 'endedpupil', email: 'ended@a.test' },
  ];
  const writtenIds = await rows.users(written);
  written.forEach((w, i) => searchIds.set(w.name, writtenIds[i]));
  await rows.enrol(b1, searchIds.get('Bram Olsen') as string, 'teacher');
  await rows.enrol(a1, searchIds.get('Old Pupil') as string, 'student', { active: false });
  await rows.enrol(ended, searchIds.get('Ended Class Pupil') as string, 'student');
});
afterAll(async () => {
  await app?.close();
});

const idsOf = (res: { body: unknown }) => (res.body as User[]).map((u) => u.id);

describe('who may list', () => {
  it('lets district administrators list everyone and school administrators their schools; 403 for anyone else', async () => {
    const all = await admin.get<User[]>('/api/users');
    expect(all.status).toBe(200);
    const everyone: { id: string }[] = await app.dataSource.query(`SELECT id FROM users`);
    expect(all.body).toHaveLength(everyone.length);
    expect(all.headers.get(TOTAL_COUNT_HEADER)).toBe(String(everyone.length));

    const scoped = await clients.schoolAdminA.get<User[]>('/api/users');
    expect(scoped.status).toBe(200);
    expect(new Set(idsOf(scoped))).toEqual(
      new Set([people.schoolAdminA.id, people.teacherA1.id, people.studentA1.id]),
    );
    expect(scoped.headers.get(TOTAL_COUNT_HEADER)).toBe('3');

    for (const persona of ['teacherA1', 'studentA1', 'loner'] as const) {
      const res = await clients[persona].get('/api/users');
      expect({ persona, status: res.status, body: res.body }).toEqual({
        persona,
        status: 403,
        body: expect.objectContaining({ message: IdentityMessages.adminRequired }),
      });
    }
    expect((await clients.pending.get('/api/users')).status).toBe(403);
    const anonymous = await app.client().get('/api/users');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ message: IdentityMessages.authenticationRequired });
  });

  it("refuses a school administrator another school's people (403) and their own with schoolId", async () => {
    const other = await clients.schoolAdminA.get(`/api/users?schoolId=${schools.b}`);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ message: IdentityMessages.adminRequired });
    const own = await clients.schoolAdminA.get(`/api/users?schoolId=${schools.a.toUpperCase()}`);
    expect(own.status).toBe(200);
    expect(own.headers.get(TOTAL_COUNT_HEADER)).toBe('3');
  });

  it('stops answering a school administrator whose role ended', async () => {
    const { client, user } = await registerPerson(app, admin, 'teacher');
    await rows.role(user.id, schools.b, 'administrator', { active: false });
    expect((await client.get('/api/users')).status).toBe(403);
    await rows.role(user.id, schools.b);
    const now = await client.get<User[]>('/api/users');
    expect(now.status).toBe(200);
    expect(idsOf(now)).toEqual(expect.arrayContaining([user.id, searchIds.get('Bram Olsen')]));
  });
});

describe('filters', () => {
  const search = async (query: string) => {
    const res = await admin.get<User[]>(`/api/users?${query}`);
    expect(res.status).toBe(200);
    return { ids: idsOf(res), total: res.headers.get(TOTAL_COUNT_HEADER) };
  };
  const named = (...names: string[]) => names.map((n) => searchIds.get(n));

  it('finds q anywhere in name, username or email, ignoring case', async () => {
    expect(await search('q=ORA%20q')).toEqual({ ids: named('Zora Quill'), total: '1' });
    expect(await search('q=QUIL')).toEqual({ ids: named('Zora Quill'), total: '1' });
    expect(await search('q=a.q%40NORTH')).toEqual({ ids: named('Zora Quill'), total: '1' });
    expect((await search('q=north.test')).total).toBe('4');
    // Blank after trimming: no filter.
    expect((await search('q=%20%20')).ids.length).toBeGreaterThan(4);
  });

  it("treats LIKE's % and _ (and the escape character) as themselves", async () => {
    expect(await search('q=%25%20p')).toEqual({ ids: named('100% Pure'), total: '1' });
    expect(await search('q=0%25%20p')).toEqual({ ids: named('100% Pure'), total: '1' });
    expect(await search('q=r_s')).toEqual({ ids: named('Half Way'), total: '1' });
    // As a wildcard, _ would match the space of "Half Way".
    expect(await search('q=f_w')).toEqual({ ids: [], total: '0' });
    expect(await search('q=k%5Cs')).toEqual({ ids: named('Back Slash'), total: '1' });
    expect(await search('q=nobody%25here')).toEqual({ ids: [], total: '0' });
  });

  it('finds one or two characters at the start of a word of the name, of the username or of the email', async () => {
    const found = async (q: string) => {
      const { ids, total } = await search(`q=${encodeURIComponent(q)}`);
      expect(total).toBe(String(ids.length));
      return new Set(ids);
    };
    // The name's first word, its last, the username, the email; any case.
    expect(await found('Z')).toEqual(new Set(named('Zora Quill')));
    expect(await found('qU')).toEqual(new Set(named('Zora Quill')));
    expect(await found('zq')).toEqual(new Set(named('Zora Quill')));
    expect(await found('un')).toEqual(new Set(named('Half Way')));
    expect(await found('br')).toEqual(new Set(named('Bram Olsen')));
    expect(await found('ol')).toEqual(new Set(named('Bram Olsen', 'Old Pupil')));
    expect(await found('10')).toEqual(new Set(named('100% Pure')));
    // Not inside a word: "Quill", "bolsen", every "school.test" address; nor inside the email after its start.
    expect(await found('ui')).toEqual(new Set());
    expect(await found('ch')).toEqual(new Set());
    expect(await found('no')).toEqual(new Set());
    // No wildcards: % and _ are characters a word may start with, and none here does.
    expect(await found('%')).toEqual(new Set());
    expect(await found('_')).toEqual(new Set());
    // With the other filters, and paged like any search.
    expect(await search('q=ol&role=teacher')).toEqual({ ids: named('Bram Olsen'), total: '1' });
    const first = await admin.get<User[]>('/api/users?q=ol&limit=1');
    expect(first.headers.get(TOTAL_COUNT_HEADER)).toBe('2');
    const cursor = first.headers.get(NEXT_CURSOR_HEADER) as string;
    const second = await admin.get<User[]>(`/api/users?q=ol&limit=1&cursor=${cursor}`);
    expect(new Set([...idsOf(first), ...idsOf(second)])).toEqual(new Set(named('Bram Olsen', 'Old Pupil')));
    expect(second.headers.get(NEXT_CURSOR_HEADER)).toBeNull();
  });

  it("filters by school: active roles and active enrolments in the school's active classes", async () => {
    const a = await search(`schoolId=${schools.a}`);
    expect(new Set(a.ids)).toEqual(
      new Set([people.schoolAdminA.id, people.teacherA1.id, people.studentA1.id]),
    );
    const b = await search(`schoolId=${schools.b}`);
    expect(b.ids).toEqual(expect.arrayContaining([people.studentA1.id, searchIds.get('Bram Olsen')]));
    expect(b.ids).not.toContain(people.teacherA1.id);
  });

  it('filters by role: the account role, or administrator (district or school)', async () => {
    const admins = await search('role=administrator');
    const adminRow: { id: string }[] = await app.dataSource.query(`SELECT id FROM users WHERE email = $1`, [
      ADMIN.email,
    ]);
    expect(admins.ids).toEqual(expect.arrayContaining([adminRow[0].id, people.schoolAdminA.id]));
    expect(admins.ids).not.toContain(people.teacherA1.id);
    const teachersAtA = await search(`role=teacher&schoolId=${schools.a}`);
    expect(new Set(teachersAtA.ids)).toEqual(new Set([people.schoolAdminA.id, people.teacherA1.id]));
    const adminsAtA = await search(`role=administrator&schoolId=${schools.a}`);
    expect(adminsAtA).toEqual({ ids: [people.schoolAdminA.id], total: '1' });
    const students = await search('role=student&q=north');
    expect(students.total).toBe('4');
  });

  it('filters by approval, so the dashboard counts the pending accounts of a whole district', async () => {
    const all = await search('limit=1');
    const waiting = await search('approved=false');
    const approved = await search('approved=true&limit=1');
    expect(waiting.ids).toContain(people.pending.id);
    expect(waiting.ids).not.toContain(people.teacherA1.id);
    expect(Number(waiting.total) + Number(approved.total)).toBe(Number(all.total));
    const res = await admin.get('/api/users?approved=maybe');
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toContain('approved must be true or false');
  });

  it('refuses a bad query with 400 and a message', async () => {
    const foreign = Buffer.from(JSON.stringify(['2024-02-31T00:00:00.000000Z', people.loner.id])).toString(
      'base64url',
    );
    const millis = Buffer.from(JSON.stringify(['2024-02-01T00:00:00.000Z', people.loner.id])).toString(
      'base64url',
    );
    for (const [query, message] of [
      ['limit=501', 'limit must be at most 500'],
      ['limit=0', 'limit must be at least 1'],
      ['limit=1.5', 'limit must be a whole number'],
      ['role=janitor', 'role must be one of student, teacher, administrator'],
      ['schoolId=alder', 'schoolId must be a school id'],
      ['cursor=not-base64-json', 'cursor is not valid'],
      ['cursor=!!', 'cursor is not valid'],
      [`cursor=${foreign}`, 'cursor is not valid'],
      [`cursor=${millis}`, 'cursor is not valid'],
      [`q=${'x'.repeat(201)}`, ''],
    ]) {
      const res = await admin.get(`/api/users?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect((res.body as { message: string }).message).toContain(message);
    }
  });
});

describe('paging', () => {
  it('answers the newest 100 without parameters, with the total and the next cursor', async () => {
    await rows.users(
      Array.from({ length: 105 }, (_, i) => ({
        name: `Bulk Pupil ${i}`,
        username: `bulk${i}`,
        email: `bulk${i}@bulk.test`,
      })),
    );
    const res = await admin.get<User[]>('/api/users');
    expect(res.body).toHaveLength(100);
    const total: { n: number }[] = await app.dataSource.query(`SELECT count(*)::int AS n FROM users`);
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe(String(total[0].n));
    expect(res.headers.get(NEXT_CURSOR_HEADER)).toBeTruthy();
    expect(res.text).not.toMatch(/password/i);
  });

  it('walks every row exactly once, newest first, also across rows created in the same microsecond', async () => {
    const tied = '2026-01-01T08:00:00.123456Z';
    const written = await rows.users([
      ...Array.from({ length: 9 }, (_, i) => ({
        name: `Walker tied ${i}`,
        username: `walktied${i}`,
        email: `walktied${i}@walk.test`,
        createdAt: tied,
      })),
      ...Array.from({ length: 12 }, (_, i) => ({
        name: `Walker ${i}`,
        username: `walk${i}`,
        email: `walk${i}@walk.test`,
        // Microseconds apart: a millisecond cursor would skip or repeat them.
        createdAt: `2026-01-01T08:00:00.1234${String(60 + i)}Z`,
      })),
    ]);
    const seen: User[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: User[]; headers: Headers } = await admin.get<User[]>(
        `/api/users?q=walk&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe('21');
      seen.push(...res.body);
      cursor = res.headers.get(NEXT_CURSOR_HEADER);
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBe(6);
    expect(seen.map((u) => u.id).sort()).toEqual([...written].sort());
    const expected: { id: string }[] = await app.dataSource.query(
      `SELECT id FROM users WHERE email LIKE '%@walk.test' ORDER BY created_at DESC, id DESC`,
    );
    expect(seen.map((u) => u.id)).toEqual(expected.map((r) => r.id));
  });

  it('documents the query in the OpenAPI document', async () => {
    const doc = (await app.client().get<OpenApiDocument>('/openapi.json')).body;
    const operation = doc.paths['/api/users']?.get;
    expect(operation?.parameters?.map((p) => p.name).sort()).toEqual([
      'approved',
      'cursor',
      'limit',
      'q',
      'role',
      'schoolId',
    ]);
    expect(operation?.['x-access']).toBe('admin or school administrator');
  });
});
