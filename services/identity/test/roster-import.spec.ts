import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  RosterMessages,
  Subjects,
  rosterClassChangedEventSchema,
  rosterImportSchema,
  rosterImportSummarySchema,
  rosterSchoolChangedEventSchema,
  type RosterClassChangedEvent,
  type RosterImport,
  type RosterSchoolChangedEvent,
} from '@district/contracts';
import type { BusMessage, BusSubscription } from '@district/nest-common';
import type { HttpClient } from '@district/nest-common/testing';
import { RosterImportService } from '../src/roster/roster-import.service';
import { spreadsheetSafe } from '../src/roster/roster-imports.controller';
import { districtFiles, manifest, reordered, zipOf, type RosterFiles } from './fixtures/roster/roster-zips';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN, ADMIN_ENV, signInAdmin } from './support/people';

let app: IdentityTestApp;
let admin: HttpClient;
const events: BusMessage[] = [];
const subscriptions: BusSubscription[] = [];

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV });
  for (const [subject, durable] of [
    ['identity.roster.>', 'roster-test-roster'],
    ['identity.user.>', 'roster-test-users'],
  ])
    subscriptions.push(
      await app.runtime.bus.subscribe(subject, async (m) => void events.push(m), { durable }),
    );
  admin = await signInAdmin(app);
});
afterAll(async () => {
  for (const s of subscriptions) await s.unsubscribe();
  await app?.close();
});

async function upload(client: HttpClient, zip: Buffer, name = 'roster.zip') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), name);
  return client.request<{ id: string; status: string; message?: string }>(
    'POST',
    '/api/admin/roster/imports',
    {
      multipart: form,
    },
  );
}

/** Uploads and waits for the import to end; answers it. */
async function imported(files: RosterFiles): Promise<RosterImport> {
  const res = await upload(admin, await zipOf(files));
  expect(res.status).toBe(202);
  expect(res.body.status).toBe('queued');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await admin.get<RosterImport>(`/api/admin/roster/imports/${res.body.id}`);
    expect(found.status).toBe(200);
    if (found.body.status === 'done' || found.body.status === 'failed')
      return rosterImportSchema.parse(found.body);
    if (Date.now() > deadline) throw new Error(`import still ${found.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sql = <T>(text: string, params: unknown[] = []) => app.dataSource.query(text, params) as Promise<T[]>;
const userId = async (sourcedId: string) =>
  (await sql<{ id: string }>(`SELECT id FROM users WHERE sourced_id = $1`, [sourcedId]))[0].id;
const classId = async (sourcedId: string) =>
  (await sql<{ id: string }>(`SELECT id FROM classes WHERE sourced_id = $1`, [sourcedId]))[0].id;

/**
 * Waits until the outbox has published everything committed and no event has arrived for `settleMs`: a
 * fixed sleep let a previous import's last snapshots land in the next test's window on a busy machine.
 */
async function settled(settleMs = 600): Promise<void> {
  const deadline = Date.now() + 20_000;
  let seen = -1;
  for (;;) {
    const [{ pending }] = await sql<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL`,
    );
    if (pending === 0 && events.length === seen) return;
    if (Date.now() > deadline) throw new Error(`the outbox still holds ${pending} event(s)`);
    seen = pending === 0 ? events.length : -1;
    await new Promise((r) => setTimeout(r, settleMs));
  }
}

/** Waits for the outbox to deliver what is committed, then answers the events since `from`. */
async function eventsSince(from: number, settleMs = 600): Promise<BusMessage[]> {
  await settled(settleMs);
  return events.slice(from);
}
const ofSubject = <T>(list: BusMessage[], subject: string) =>
  list.filter((e) => e.subject === subject).map((e) => e.data as T);

describe('a bulk import of a small district', () => {
  let first: RosterImport;
  let firstEvents: BusMessage[];

  beforeAll(async () => {
    const from = events.length;
    first = await imported(districtFiles());
    firstEvents = await eventsSince(from);
  });

  it('applies every file and counts what it wrote', () => {
    expect(first).toMatchObject({ status: 'done', failure: null, errorCount: 0, errors: [] });
    // orgs: 2 schools (the district row is read, not stored); 1 term, 2 courses, 3 classes, 7 people, 7 roles, 7 enrolments.
    expect(first).toMatchObject({ total: 30, processed: 30, created: 29, updated: 0, deactivated: 0 });
  });

  it('stores the schools, classes and enrolments, and the people approved with the roster role', async () => {
    const classes = await sql<Record<string, unknown>>(
      `SELECT c.sourced_id, c.title, c.term, c.course_code, s.name AS school FROM classes c
         JOIN schools s ON s.id = c.school_id ORDER BY c.sourced_id`,
    );
    expect(classes).toEqual([
      {
        sourced_id: 'k1',
        title: 'Math 7 A',
        term: 'Fall 2026',
        course_code: 'MATH7',
        school: 'North School',
      },
      {
        sourced_id: 'k2',
        title: 'Math 7 B',
        term: 'Fall 2026',
        course_code: 'MATH7',
        school: 'North School',
      },
      {
        sourced_id: 'k3',
        title: 'Science 8',
        term: 'Fall 2026',
        course_code: 'SCI8',
        school: 'South School',
      },
    ]);
    const people = await sql<Record<string, unknown>>(
      `SELECT sourced_id, name, username, email, role, approved, is_admin FROM users WHERE sourced_id IS NOT NULL
        ORDER BY sourced_id`,
    );
    expect(people.map((p) => [p.sourced_id, p.role, p.approved, p.is_admin])).toEqual([
      ['u-a1', 'teacher', true, false],
      ['u-p1', 'student', true, false],
      ['u-p2', 'student', true, false],
      ['u-p3', 'student', true, false],
      ['u-p4', 'student', true, false],
      ['u-t1', 'teacher', true, false],
      ['u-t2', 'teacher', true, false],
    ]);
    expect(people[5]).toMatchObject({
      name: 'Tanya Teach',
      username: 'tanya.t',
      email: 'tanya@district.test',
    });
    const [{ n }] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM enrollments WHERE active`);
    expect(n).toBe(7);
  });

  it('publishes each class and school once, with its members and increasing versions', async () => {
    const classEvents = ofSubject<RosterClassChangedEvent>(firstEvents, Subjects.identityRosterClassChanged);
    const schoolEvents = ofSubject<RosterSchoolChangedEvent>(
      firstEvents,
      Subjects.identityRosterSchoolChanged,
    );
    for (const e of classEvents) rosterClassChangedEventSchema.parse(e);
    for (const e of schoolEvents) rosterSchoolChangedEventSchema.parse(e);
    const k1 = await classId('k1');
    const lastOf = (id: string) => classEvents.filter((e) => e.classId === id).at(-1);
    expect(lastOf(k1)).toMatchObject({
      title: 'Math 7 A',
      active: true,
      teacherIds: [await userId('u-t1')],
      studentIds: [await userId('u-p1'), await userId('u-p2')].sort(),
      sourcedId: 'k1',
      memberSourcedIds: {
        [await userId('u-t1')]: 'u-t1',
        [await userId('u-p1')]: 'u-p1',
        [await userId('u-p2')]: 'u-p2',
      },
    });
    const k3 = await classId('k3');
    expect(lastOf(k3)?.studentIds).toEqual([await userId('u-p4')]);
    const [{ id: north }] = await sql<{ id: string }>(`SELECT id FROM schools WHERE sourced_id = 's1'`);
    expect(schoolEvents.filter((e) => e.schoolId === north).at(-1)).toMatchObject({
      name: 'North School',
      active: true,
      adminIds: [await userId('u-a1')],
    });
    // Once each: classes.csv and enrollments.csv both change every class, and the snapshot waits for both.
    expect(classEvents.map((e) => e.classId).sort()).toEqual(
      [await classId('k1'), await classId('k2'), k3].sort(),
    );
    expect(schoolEvents).toHaveLength(2);
    const versions = [...schoolEvents, ...classEvents].map((e) => e.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect(await sql(`SELECT * FROM roster_snapshots_owed`)).toEqual([]);
    const stored = await sql<{ version: string }>(`SELECT version::text FROM classes WHERE id = $1`, [k1]);
    expect(Number(stored[0].version)).toBe(lastOf(k1)?.version);
    const created = ofSubject<{ user: { id: string } }>(firstEvents, Subjects.identityUserCreated);
    expect(created).toHaveLength(7);
  });

  it('lets a person sign in with the password column', async () => {
    const res = await app
      .client()
      .post('/api/auth/login', { email: 'tanya@district.test', password: 'teach-pass-1' });
    expect(res.status).toBe(200);
    const other = await app
      .client()
      .post('/api/auth/login', { email: 'tom@district.test', password: 'anything-1' });
    expect(other.status).toBe(401);
  });

  it('keeps no fast hash of a password: the row hash stands for it by a digest keyed with identity’s secret', async () => {
    const [row] = (await app.dataSource.query(
      `SELECT name, username, email, row_hash, password_hash FROM users WHERE email = 'tanya@district.test'`,
    )) as { name: string; username: string; email: string; row_hash: string; password_hash: string }[];
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    // What a plain sha-256 of the password would make of the same row: guessable from a copy of the table.
    const plain = (digest: string) =>
      createHash('sha256')
        .update(JSON.stringify([row.name, row.username, row.email, true, digest, true]))
        .digest('hex');
    expect(row.row_hash).not.toBe(plain(createHash('sha256').update('teach-pass-1').digest('hex')));
    expect(row.row_hash).not.toBe(plain(''));
  });

  it('writes nothing when the same zip comes again: no counts, no events, no token bumps', async () => {
    const before = await sql<Record<string, unknown>>(
      `SELECT sourced_id, updated_at::text, token_version FROM users WHERE sourced_id IS NOT NULL ORDER BY 1`,
    );
    const classesBefore = await sql<Record<string, unknown>>(
      `SELECT sourced_id, updated_at::text, version::text FROM classes ORDER BY 1`,
    );
    const from = events.length;
    const again = await imported(districtFiles());
    expect(again).toMatchObject({ status: 'done', processed: 30, created: 0, updated: 0, deactivated: 0 });
    expect(await eventsSince(from)).toEqual([]);
    expect(
      await sql(
        `SELECT sourced_id, updated_at::text, token_version FROM users WHERE sourced_id IS NOT NULL ORDER BY 1`,
      ),
    ).toEqual(before);
    expect(await sql(`SELECT sourced_id, updated_at::text, version::text FROM classes ORDER BY 1`)).toEqual(
      classesBefore,
    );
  });

  it('reads columns by header name: reordered columns and an extra one import the same (nothing to write)', async () => {
    const files = districtFiles();
    const shuffled = Object.fromEntries(
      Object.entries(files).map(([name, text]) => [name, name === 'manifest.csv' ? text : reordered(text)]),
    );
    const from = events.length;
    const again = await imported(shuffled);
    expect(again).toMatchObject({ status: 'done', errorCount: 0, created: 0, updated: 0, deactivated: 0 });
    expect(await eventsSince(from)).toEqual([]);
  });
});

describe('later imports', () => {
  it('a delta adds, changes and ends only the rows given', async () => {
    const files: RosterFiles = {
      'manifest.csv': manifest({ users: 'delta', enrollments: 'delta' }),
      'users.csv': [
        'sourcedId,status,enabledUser,username,givenName,familyName,email',
        'u-p1,active,true,pia.p,Pia,Newname,pia@district.test',
        'u-p5,active,true,pax.p,Pax,Pupil,pax@district.test',
      ].join('\n'),
      'enrollments.csv': [
        'sourcedId,status,classSourcedId,schoolSourcedId,userSourcedId,role',
        'e3,tobedeleted,k1,s1,u-p2,student',
        'e8,active,k1,s1,u-p5,student',
      ].join('\n'),
    };
    const pia = await userId('u-p1');
    const [{ token_version: piaVersion }] = await sql<{ token_version: number }>(
      `SELECT token_version FROM users WHERE id = $1`,
      [pia],
    );
    const [{ version: k1Before }] = await sql<{ version: string }>(
      `SELECT version::text FROM classes WHERE sourced_id = 'k1'`,
    );
    const from = events.length;
    const delta = await imported(files);
    expect(delta).toMatchObject({
      status: 'done',
      total: 4,
      processed: 4,
      created: 2,
      updated: 1,
      deactivated: 1,
    });
    const since = await eventsSince(from);
    const k1 = ofSubject<RosterClassChangedEvent>(since, Subjects.identityRosterClassChanged);
    expect(k1.map((e) => e.classId)).toEqual([await classId('k1')]);
    expect(k1[0].studentIds).toEqual([pia, await userId('u-p5')].sort());
    expect(k1[0].version).toBeGreaterThan(Number(k1Before));
    const updated = ofSubject<{
      user: { id: string; name: string };
      changed: string[];
      tokenVersion: number;
    }>(since, Subjects.identityUserUpdated);
    expect(updated).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ id: pia, name: 'Pia Newname' }),
        changed: ['name'],
      }),
    ]);
    expect(updated[0].tokenVersion).toBe(piaVersion + 1);
    // Delta: the people and classes not given are untouched.
    const [{ approved }] = await sql<{ approved: boolean }>(
      `SELECT approved FROM users WHERE sourced_id = 'u-p4'`,
    );
    expect(approved).toBe(true);
  });

  it('a bulk file ends the rows it does not mention: enrolments inactive, people suspended', async () => {
    const files = districtFiles();
    files['manifest.csv'] = manifest({ users: 'bulk', enrollments: 'bulk' });
    files['users.csv'] = files['users.csv'].replace(/^u-p4,.*\n/m, '');
    files['enrollments.csv'] = files['enrollments.csv'].replace(/^e7,.*\n/m, '');
    const pem = await userId('u-p4');
    const [before] = await sql<{ token_version: number }>(`SELECT token_version FROM users WHERE id = $1`, [
      pem,
    ]);
    const from = events.length;
    const bulk = await imported(files);
    // u-p4, e7 and the delta's u-p5 and e8 are absent: 4 deactivated; u-p1's name goes back and the delta's ended
    // e3 is active again: 2 updated.
    expect(bulk).toMatchObject({ status: 'done', errorCount: 0, created: 0, updated: 2, deactivated: 4 });
    const [after] = await sql<{ approved: boolean; token_version: number }>(
      `SELECT approved, token_version FROM users WHERE id = $1`,
      [pem],
    );
    expect(after).toEqual({ approved: false, token_version: before.token_version + 1 });
    const [{ active }] = await sql<{ active: boolean }>(
      `SELECT active FROM enrollments WHERE sourced_id = 'e7'`,
    );
    expect(active).toBe(false);
    const since = await eventsSince(from);
    const k3 = ofSubject<RosterClassChangedEvent>(since, Subjects.identityRosterClassChanged);
    const k3id = await classId('k3');
    expect(k3.filter((e) => e.classId === k3id).at(-1)?.studentIds).toEqual([]);
    const suspended = ofSubject<{ user: { id: string; approved: boolean }; changed: string[] }>(
      since,
      Subjects.identityUserUpdated,
    ).find((e) => e.user.id === pem);
    expect(suspended).toMatchObject({ user: { approved: false }, changed: ['approval'] });
  });
});

describe('rows in error', () => {
  let result: RosterImport;

  beforeAll(async () => {
    result = await imported({
      'manifest.csv': manifest({
        academicSessions: 'delta',
        users: 'delta',
        roles: 'delta',
        enrollments: 'delta',
      }),
      'academicSessions.csv': [
        'sourcedId,title,type,startDate,endDate,schoolYear',
        't9,Bad,term,2026-13-01,2026-12-20,2027',
        't10,Backwards,term,2026-12-01,2026-11-01,2027',
      ].join('\n'),
      'users.csv': [
        'sourcedId,enabledUser,username,givenName,familyName,email',
        'u-x1,true,xena,Xena,X,',
        `u-x2,true,xavier,Xavier,X,${ADMIN.email}`,
        'u-x3,true,xia,Xia,X,xia@district.test',
        'u-x3,true,xia2,Xia,Again,xia2@district.test',
        'u-x4,,xoe,Xoe,X,xoe@district.test',
      ].join('\n'),
      'roles.csv': [
        'sourcedId,userSourcedId,roleType,role,orgSourcedId',
        'r-x3,u-x3,primary,wizard,s1',
        'r-x4,u-x3,primary,teacher,nowhere',
      ].join('\n'),
      'enrollments.csv': [
        'sourcedId,classSourcedId,schoolSourcedId,userSourcedId,role',
        'e-x1,k1,s1,u-x3,proctor',
        'e-x2,k404,s1,u-x3,student',
        'e-x3,k1,s1,u-x1,student',
        'e-x4,k1,s1,u-x3,student',
      ].join('\n'),
    });
  });

  it('skips and lists each with its file, line, field and reason; the rest applies', () => {
    expect(result.status).toBe('done');
    expect(result.errors).toEqual([
      {
        file: 'academicSessions.csv',
        line: 2,
        field: 'startDate',
        message: 'bad date "2026-13-01": dates are YYYY-MM-DD',
      },
      {
        file: 'academicSessions.csv',
        line: 3,
        field: 'endDate',
        message: 'endDate 2026-11-01 is before startDate 2026-12-01',
      },
      {
        file: 'users.csv',
        line: 5,
        field: 'sourcedId',
        message: 'duplicate sourcedId u-x3 (also on line 4)',
      },
      { file: 'users.csv', line: 6, field: 'enabledUser', message: 'missing required field enabledUser' },
      {
        file: 'users.csv',
        line: 2,
        field: 'email',
        message: 'missing email: a person signs in with their email',
      },
      {
        file: 'users.csv',
        line: 3,
        field: 'email',
        message: `duplicate email ${ADMIN.email}: another account has it`,
      },
      { file: 'roles.csv', line: 2, field: 'role', message: 'bad role "wizard"' },
      { file: 'roles.csv', line: 3, field: 'orgSourcedId', message: 'unknown orgSourcedId nowhere' },
      {
        file: 'enrollments.csv',
        line: 2,
        field: 'role',
        message: 'role proctor is not supported in a class: only teacher and student are',
      },
      { file: 'enrollments.csv', line: 3, field: 'classSourcedId', message: 'unknown classSourcedId k404' },
      {
        file: 'enrollments.csv',
        line: 4,
        field: 'userSourcedId',
        message: 'user u-x1 was skipped (line 2 of users.csv)',
      },
    ]);
    expect(result).toMatchObject({ errorCount: 11, created: 2, processed: 13 });
  });

  it('never adopts an account holding the email without the sourcedId', async () => {
    const [owner] = await sql<{ sourced_id: string | null }>(
      `SELECT sourced_id FROM users WHERE email = $1`,
      [ADMIN.email],
    );
    expect(owner.sourced_id).toBeNull();
  });

  it('downloads the list as CSV, safe to open in a spreadsheet', async () => {
    const res = await admin.get(`/api/admin/roster/imports/${result.id}/errors.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="roster-import-${result.id}-errors.csv"`,
    );
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toBe('file,line,field,message');
    expect(lines).toHaveLength(12);
    expect(lines[10]).toBe('enrollments.csv,3,classSourcedId,unknown classSourcedId k404');
    expect(['=1+1', '+x', '-2', '@SUM(A1)', 'plain'].map(spreadsheetSafe)).toEqual([
      "'=1+1",
      "'+x",
      "'-2",
      "'@SUM(A1)",
      'plain',
    ]);
  });
});

describe('refused files', () => {
  const countImports = async () =>
    (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM roster_imports`))[0].n;

  it('refuses a malformed zip, a missing manifest, a wrong header, a zip bomb and no file, recording nothing', async () => {
    const before = await countImports();
    const expectRefused = async (zip: Buffer, message: string) => {
      const res = await upload(admin, zip);
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
    };
    await expectRefused(Buffer.from('this is not a zip at all'), RosterMessages.notAZip);
    const { 'manifest.csv': _, ...noManifest } = districtFiles();
    await expectRefused(await zipOf(noManifest), RosterMessages.missingManifest);
    const badHeader = districtFiles();
    badHeader['users.csv'] = badHeader['users.csv'].replace('givenName', 'firstName');
    await expectRefused(await zipOf(badHeader), 'users.csv has no givenName column (required).');
    const bomb = districtFiles();
    bomb['users.csv'] += `${'0'.repeat(50 * 1024 * 1024)}\n`;
    await expectRefused(await zipOf(bomb), RosterMessages.zipBomb);
    const empty = await admin.request<{ message: string }>('POST', '/api/admin/roster/imports', {
      multipart: new FormData(),
    });
    expect({ status: empty.status, message: empty.body.message }).toEqual({
      status: 400,
      message: RosterMessages.noFile,
    });
    // A form cut off in the middle of its file part: the caller's mistake (400), never a 500.
    const url = new URL('/api/admin/roster/imports', admin.baseUrl);
    const cut = await fetch(new URL(url.pathname, app.url), {
      method: 'POST',
      headers: {
        cookie: admin.jar.header(url) ?? '',
        'content-type': 'multipart/form-data; boundary=cut',
        origin: url.origin,
      },
      body: '--cut\r\nContent-Disposition: form-data; name="file"; filename="a.zip"\r\n\r\nPK\u0003\u0004 and then nothing',
    });
    expect(cut.status).toBe(400);
    expect(await countImports()).toBe(before);
  });

  it('refuses a file over the limit (413) without keeping it', async () => {
    const before = await countImports();
    const res = await upload(admin, Buffer.alloc(200 * 1024 * 1024 + 1));
    expect({ status: res.status, message: res.body.message }).toEqual({
      status: 413,
      message: RosterMessages.tooLarge,
    });
    expect(await countImports()).toBe(before);
  });
});

describe('access, history and the service API', () => {
  it('is the district administrator\u2019s only: anonymous 401, a teacher 403', async () => {
    const teacher = app.client();
    expect(
      (await teacher.post('/api/auth/login', { email: 'tanya@district.test', password: 'teach-pass-1' }))
        .status,
    ).toBe(200);
    const zip = await zipOf(districtFiles());
    for (const [client, status] of [
      [app.client(), 401],
      [teacher, 403],
    ] as const) {
      expect((await upload(client, zip)).status).toBe(status);
      expect((await client.get('/api/admin/roster/imports')).status).toBe(status);
      const [{ id }] = await sql<{ id: string }>(`SELECT id FROM roster_imports LIMIT 1`);
      expect((await client.get(`/api/admin/roster/imports/${id}`)).status).toBe(status);
      expect((await client.get(`/api/admin/roster/imports/${id}/errors.csv`)).status).toBe(status);
    }
  });

  it('lists the history newest first; an unknown or malformed id is 404; the upload is audited', async () => {
    const list = await admin.get<unknown[]>('/api/admin/roster/imports');
    expect(list.status).toBe(200);
    const history = list.body.map((i) => rosterImportSummarySchema.parse(i));
    const created = history.map((i) => Date.parse(i.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(history[0]).not.toHaveProperty('errors');
    const upper = history[0].id.toUpperCase();
    expect((await admin.get(`/api/admin/roster/imports/${upper}`)).body).toMatchObject({ id: history[0].id });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await admin.get<{ message: string }>(`/api/admin/roster/imports/${id}`);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 404,
        message: RosterMessages.importNotFound,
      });
    }
    const audit = await admin.get<{ entries: { targetId: string; action: string }[] }>(
      '/api/admin/audit-log?action=roster.imported',
    );
    expect(audit.body.entries.map((e) => e.targetId)).toEqual(
      expect.arrayContaining(history.map((h) => h.id)),
    );
  });

  it('imports a zip file without HTTP (importFile), answering the finished import', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'roster-test-'));
    try {
      const path = join(dir, 'district.zip');
      await writeFile(path, await zipOf(districtFiles()));
      const done = await app.service.app.get(RosterImportService).importFile(path);
      // The bulk district again: the absent-then-returning people and enrolments come back.
      expect(done).toMatchObject({ status: 'done', fileName: 'district.zip', errorCount: 0 });
      const [{ approved }] = await sql<{ approved: boolean }>(
        `SELECT approved FROM users WHERE sourced_id = 'u-p4'`,
      );
      expect(approved).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('marks imports a stopped replica left running or queued as failed (interrupted)', async () => {
    await sql(
      `INSERT INTO roster_imports (id, status, file_name, heartbeat_at)
       VALUES ('10000000-0000-4000-8000-000000000001', 'running', 'old.zip', now() - interval '3 minutes'),
              ('10000000-0000-4000-8000-000000000002', 'queued', 'live.zip', now())`,
    );
    const failed = await app.service.app.get(RosterImportService).failInterrupted();
    expect(failed).toEqual(['10000000-0000-4000-8000-000000000001']);
    const old = await admin.get<RosterImport>(
      '/api/admin/roster/imports/10000000-0000-4000-8000-000000000001',
    );
    expect(old.body).toMatchObject({ status: 'failed', failure: RosterMessages.interrupted });
    await sql(
      `UPDATE roster_imports SET status = 'failed' WHERE id = '10000000-0000-4000-8000-000000000002'`,
    );
  });

  it('publishes the snapshots an import that stopped midway still owed', async () => {
    const k2 = await classId('k2');
    const [{ id: south }] = await sql<{ id: string }>(`SELECT id FROM schools WHERE sourced_id = 's2'`);
    // The previous test's import may still be delivering: start counting once it has.
    await settled();
    // What a committed batch of a stopped import leaves: its changes noted, their snapshots not yet published.
    await sql(`INSERT INTO roster_snapshots_owed (kind, id) VALUES ('class', $1), ('school', $2)`, [
      k2,
      south,
    ]);
    const from = events.length;
    expect(await app.service.app.get(RosterImportService).publishOwed()).toBe(2);
    const roster = (list: BusMessage[]) => list.filter((e) => e.subject.startsWith('identity.roster.'));
    const deadline = Date.now() + 10_000;
    while (roster(events.slice(from)).length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const published = await eventsSince(from, 200);
    expect(
      ofSubject<RosterClassChangedEvent>(published, Subjects.identityRosterClassChanged).map(
        (e) => e.classId,
      ),
    ).toEqual([k2]);
    expect(
      ofSubject<RosterSchoolChangedEvent>(published, Subjects.identityRosterSchoolChanged).map(
        (e) => e.schoolId,
      ),
    ).toEqual([south]);
    expect(await sql(`SELECT * FROM roster_snapshots_owed`)).toEqual([]);
    expect(await app.service.app.get(RosterImportService).publishOwed()).toBe(0);
  });
});

describe('a class at its largest', () => {
  it('refuses enrolments beyond 5,000 members as errors (a snapshot must fit a NATS message)', async () => {
    // 5,000 members put straight into the tables: an import of them would take longer than the point needs.
    await sql(
      `INSERT INTO users (id, name, username, email, role, approved)
       SELECT gen_random_uuid(), 'Filler ' || n, 'filler' || n, 'filler' || n || '@district.test', 'student', true
         FROM generate_series(1, 5000) AS n`,
    );
    await sql(
      `INSERT INTO enrollments (sourced_id, class_id, user_id, role)
       SELECT 'cap-' || u.username, c.id, u.id, 'student'
         FROM users u, classes c WHERE u.username LIKE 'filler%' AND c.sourced_id = 'k2'`,
    );
    const full = await imported({
      'manifest.csv': manifest({ enrollments: 'delta' }),
      'enrollments.csv': [
        'sourcedId,classSourcedId,schoolSourcedId,userSourcedId,role',
        'e-cap,k2,s1,u-p4,student',
        'e-ok,k1,s1,u-p4,student',
      ].join('\n'),
    });
    expect(full.errors).toEqual([
      {
        file: 'enrollments.csv',
        line: 2,
        field: 'classSourcedId',
        message: 'class k2 is full: a class has at most 5000 members',
      },
    ]);
    expect(full).toMatchObject({ status: 'done', created: 1, errorCount: 1 });
  });
});

describe("an enrolment's school", () => {
  it("skips a row whose schoolSourcedId is unknown or not its class's school, and applies the rest", async () => {
    const stored = async (sourcedId: string) =>
      sql<{ class_id: string }>(`SELECT class_id FROM enrollments WHERE sourced_id = $1`, [sourcedId]);
    const [k2Before] = await stored('e5');
    const result = await imported({
      'manifest.csv': manifest({ enrollments: 'delta' }),
      'enrollments.csv': [
        'sourcedId,classSourcedId,schoolSourcedId,userSourcedId,role',
        // k3 is South School's (s2), not s1's.
        'e-sch1,k3,s1,u-a1,student',
        'e-sch2,k1,s404,u-a1,student',
        // An existing enrolment moved to a class of another school than the row says: it stays as it was.
        'e5,k3,s1,u-p3,student',
        'e-sch3,k3,s2,u-a1,student',
      ].join('\n'),
    });
    expect(result.errors).toEqual([
      {
        file: 'enrollments.csv',
        line: 2,
        field: 'schoolSourcedId',
        message: RosterMessages.enrollmentOtherSchool('s1', 'k3'),
      },
      { file: 'enrollments.csv', line: 3, field: 'schoolSourcedId', message: 'unknown schoolSourcedId s404' },
      {
        file: 'enrollments.csv',
        line: 4,
        field: 'schoolSourcedId',
        message: "school s1 is not the school of class k3: an enrolment names its class's school",
      },
    ]);
    expect(result).toMatchObject({ status: 'done', created: 1, updated: 0, errorCount: 3 });
    expect(await stored('e-sch1')).toEqual([]);
    expect(await stored('e-sch2')).toEqual([]);
    expect(await stored('e5')).toEqual([k2Before]);
    expect(await stored('e-sch3')).toEqual([{ class_id: await classId('k3') }]);
  });
});

describe('a role held at the district', () => {
  it('is listed as an error and makes no one a district administrator; the person’s other rows apply', async () => {
    const result = await imported({
      'manifest.csv': manifest({ orgs: 'delta', roles: 'delta' }),
      'orgs.csv': [
        'sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId',
        'd1,active,2026-07-01,Test District,district,,',
      ].join('\n'),
      'roles.csv': [
        'sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId',
        'r-d1,active,2026-07-01,u-t2,primary,administrator,,,d1,',
        'r-t2b,active,2026-07-01,u-t2,secondary,administrator,,,s2,',
      ].join('\n'),
    });
    expect(result.errors).toEqual([
      {
        file: 'roles.csv',
        line: 2,
        field: 'orgSourcedId',
        message: 'org d1 is not a school: roles are held at a school',
      },
    ]);
    expect(result).toMatchObject({ status: 'done', errorCount: 1 });
    const [person] = await sql<{ is_admin: boolean }>(`SELECT is_admin FROM users WHERE sourced_id = 'u-t2'`);
    expect(person.is_admin).toBe(false);
    const roles = await sql<{ role: string; school: string }>(
      `SELECT r.role, s.sourced_id AS school FROM user_roles r JOIN schools s ON s.id = r.school_id
        JOIN users u ON u.id = r.user_id WHERE u.sourced_id = 'u-t2' AND r.active ORDER BY r.role`,
    );
    expect(roles).toEqual([
      { role: 'administrator', school: 's2' },
      { role: 'teacher', school: 's2' },
    ]);
  });
});

describe('snapshots of an enrollments.csv over several batches', () => {
  const USERS_HEADER =
    'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password';
  const CLASSES_HEADER =
    'sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,periods';
  const ENROLLMENTS_HEADER =
    'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate';
  const CLASSES = 40;
  const PER_CLASS = 30;

  /** 40 classes of 30 new pupils each (1,200 enrolments: two batches), in `order`: by class, or dealt round. */
  function bigDistrict(tag: string, order: 'grouped' | 'dealt'): RosterFiles {
    const pupils = Array.from({ length: CLASSES * PER_CLASS }, (_, i) => `${tag}-p${i}`);
    const classOf = (i: number) => (order === 'grouped' ? Math.floor(i / PER_CLASS) : i % CLASSES);
    return {
      'manifest.csv': manifest({ users: 'delta', classes: 'delta', enrollments: 'delta' }),
      'users.csv': [
        USERS_HEADER,
        ...pupils.map((p) => `${p},active,2026-07-01,true,${p},,Pupil,${p},,,${p}@district.test,,,,,`),
      ].join('\n'),
      'classes.csv': [
        CLASSES_HEADER,
        // Last first: the table's order is not the enrolments' (a snapshot's version follows neither).
        ...Array.from(
          { length: CLASSES },
          (_, k) => `${tag}-k${k},active,2026-07-01,Big ${k},07,c-math,B${k},scheduled,,s1,t1,,1`,
        ).reverse(),
      ].join('\n'),
      'enrollments.csv': [
        ENROLLMENTS_HEADER,
        ...pupils.map(
          (p, i) => `${tag}-e${i},active,2026-07-01,${tag}-k${classOf(i)},s1,${p},student,false,,`,
        ),
      ].join('\n'),
    };
  }

  async function importAndSnapshots(files: RosterFiles, tag: string) {
    const from = events.length;
    const result = await imported(files);
    expect(result).toMatchObject({ status: 'done', errorCount: 0 });
    const ids = new Map<string, string>();
    for (const row of await sql<{ id: string; sourced_id: string }>(
      `SELECT id, sourced_id FROM classes WHERE sourced_id LIKE $1`,
      [`${tag}-k%`],
    ))
      ids.set(row.id, row.sourced_id);
    const snapshots = ofSubject<RosterClassChangedEvent>(
      await eventsSince(from, 1_000),
      Subjects.identityRosterClassChanged,
    ).filter((e) => ids.has(e.classId));
    return { snapshots, sourcedOf: (e: RosterClassChangedEvent) => ids.get(e.classId) as string };
  }

  it('publishes each class of a file grouped by class once, those done early while the file is still read', async () => {
    const { snapshots, sourcedOf } = await importAndSnapshots(bigDistrict('g', 'grouped'), 'g');
    expect(snapshots.map(sourcedOf).sort()).toEqual(
      Array.from({ length: CLASSES }, (_, k) => `g-k${k}`).sort(),
    );
    for (const s of snapshots) expect(s.studentIds).toHaveLength(PER_CLASS);
    // The first batch holds classes 0–32 whole (and part of 33): they are published once the second batch has
    // begun, before the classes it holds, which are published when the import ends.
    const position = (k: number) => snapshots.findIndex((s) => sourcedOf(s) === `g-k${k}`);
    const early = Array.from({ length: 33 }, (_, k) => position(k));
    const late = Array.from({ length: CLASSES - 33 }, (_, k) => position(33 + k));
    expect(Math.max(...early)).toBeLessThan(Math.min(...late));
  });

  it('publishes each class of a file in any other order at most twice, the last with all its members', async () => {
    const { snapshots, sourcedOf } = await importAndSnapshots(bigDistrict('d', 'dealt'), 'd');
    const perClass = new Map<string, RosterClassChangedEvent[]>();
    for (const s of snapshots) perClass.set(sourcedOf(s), [...(perClass.get(sourcedOf(s)) ?? []), s]);
    expect(perClass.size).toBe(CLASSES);
    for (const list of perClass.values()) {
      expect(list.length).toBeLessThanOrEqual(2);
      expect(list.at(-1)?.studentIds).toHaveLength(PER_CLASS);
    }
    expect(await sql(`SELECT * FROM roster_snapshots_owed`)).toEqual([]);
  });
});
