import { IdentityMessages, type User } from '@district/contracts';
import { SessionStateStore } from '@district/nest-common';
import type { HttpClient } from '@district/nest-common/testing';
import { DistrictRows } from './support/district-rows';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN_ENV, registerPerson, signInAdmin } from './support/people';

/**
 * A school administrator manages their school's people (ADR 0042): approve or suspend, role, password reset and
 * delete, on people with an active role or enrolment at their school who are not district administrators; never
 * the admin flag, never anyone else. A district administrator keeps the spec's rights over everyone.
 */
let app: IdentityTestApp;
let rows: DistrictRows;
let districtAdmin: HttpClient;
let schoolAdminA: HttpClient;
let schoolAdminAUser: User;
let teacherA: HttpClient;
const schools = {} as Record<'a' | 'b', string>;
let classA: string;
let classB: string;
let seq = 0;

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV });
  rows = new DistrictRows(app.dataSource, app.service.app.get(SessionStateStore));
  districtAdmin = await signInAdmin(app);
  schools.a = await rows.school('Alder Primary');
  schools.b = await rows.school('Birch High');
  classA = await rows.class(schools.a, 'Maths 1');
  classB = await rows.class(schools.b, 'Science');
  const admin = await registerPerson(app, districtAdmin, 'teacher');
  schoolAdminA = admin.client;
  schoolAdminAUser = admin.user;
  await rows.role(admin.user.id, schools.a);
  const teacher = await registerPerson(app, districtAdmin, 'teacher');
  teacherA = teacher.client;
  await rows.enrol(classA, teacher.user.id, 'teacher');
});
afterAll(async () => {
  await app?.close();
});

type Where = 'a' | 'b' | 'endedA' | 'none';
/** A fresh approved student enrolled as `where` says. */
async function person(where: Where): Promise<string> {
  const n = ++seq;
  const [id] = await rows.users([
    { name: `Target ${n}`, username: `target${n}`, email: `target${n}@t.test` },
  ]);
  if (where === 'a') await rows.enrol(classA, id, 'student');
  if (where === 'b') await rows.enrol(classB, id, 'student');
  if (where === 'endedA') await rows.enrol(classA, id, 'student', { active: false });
  return id;
}

const ACTIONS = {
  suspend: (c: HttpClient, id: string) => c.patch(`/api/users/${id}/approval`, { approved: false }),
  role: (c: HttpClient, id: string) => c.patch(`/api/users/${id}/role`, { role: 'teacher' }),
  password: (c: HttpClient, id: string) =>
    c.put(`/api/admin/users/${id}/password`, { newPassword: 'new-pass-1' }),
  delete: (c: HttpClient, id: string) => c.delete(`/api/users/${id}`),
  adminFlag: (c: HttpClient, id: string) => c.patch(`/api/users/${id}/admin`, { isAdmin: true }),
} as const;
type Action = keyof typeof ACTIONS;

async function statuses(client: () => HttpClient, where: Where): Promise<Record<Action, number>> {
  const out = {} as Record<Action, number>;
  for (const action of Object.keys(ACTIONS) as Action[]) {
    const res = await ACTIONS[action](client(), await person(where));
    out[action] = res.status;
    if (res.status === 403) expect(res.body).toMatchObject({ message: IdentityMessages.adminRequired });
  }
  return out;
}

const allowed = { suspend: 200, role: 200, password: 200, delete: 204, adminFlag: 403 };
const refused = { suspend: 403, role: 403, password: 403, delete: 403, adminFlag: 403 };

it("lets a school administrator manage their school's people, all but the admin flag", async () => {
  expect(await statuses(() => schoolAdminA, 'a')).toEqual(allowed);
});

it('refuses a school administrator anyone outside their school, or whose enrolment there ended (403, unchanged)', async () => {
  expect(await statuses(() => schoolAdminA, 'b')).toEqual(refused);
  expect(await statuses(() => schoolAdminA, 'endedA')).toEqual(refused);
  expect(await statuses(() => schoolAdminA, 'none')).toEqual(refused);
  const outsider = await person('b');
  await ACTIONS.suspend(schoolAdminA, outsider);
  const row: { approved: boolean; role: string }[] = await app.dataSource.query(
    `SELECT approved, role FROM users WHERE id = $1`,
    [outsider],
  );
  expect(row).toEqual([{ approved: true, role: 'student' }]);
});

it('refuses a school administrator a district administrator, even one enrolled at their school', async () => {
  const { user } = await registerPerson(app, districtAdmin, 'admin');
  await rows.enrol(classA, user.id, 'teacher');
  for (const action of ['suspend', 'role', 'password', 'delete'] as const)
    expect({ action, status: (await ACTIONS[action](schoolAdminA, user.id)).status }).toEqual({
      action,
      status: 403,
    });
});

it('keeps the self-rules and the not-found for a school administrator', async () => {
  const self = await schoolAdminA.patch(`/api/users/${schoolAdminAUser.id}/approval`, { approved: false });
  expect(self.status).toBe(403);
  expect(self.body).toMatchObject({ message: IdentityMessages.cannotSuspendOwnAccount });
  const unknown = await ACTIONS.role(schoolAdminA, '00000000-0000-4000-8000-00000000ffff');
  expect(unknown.status).toBe(404);
});

it('refuses teachers and school administrators whose role ended; district administrators keep every right', async () => {
  expect(await statuses(() => teacherA, 'a')).toEqual(refused);
  const former = await registerPerson(app, districtAdmin, 'teacher');
  await rows.role(former.user.id, schools.a, 'administrator', { active: false });
  expect(await statuses(() => former.client, 'a')).toEqual(refused);
  expect(await statuses(() => districtAdmin, 'b')).toEqual({ ...allowed, adminFlag: 200 });
});
