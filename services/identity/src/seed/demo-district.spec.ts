import { readFile } from 'node:fs/promises';
import { DEMO_ACCOUNTS, demoAccount } from '@district/contracts';
import {
  bytesOf,
  demoDistrictOptions,
  districtZipStream,
  readDistrictZip,
} from '@district/nest-common/testing';
import { DEMO_DISTRICT_ZIP, demoRosterSourcedId } from './demo-district';

describe('the demo district zip', () => {
  it('is exactly what the generator writes for the demo options (regenerate: npm run district:generate -- --demo --out services/identity/src/seed/demo-district.zip)', async () => {
    const checkedIn = await readFile(DEMO_DISTRICT_ZIP);
    const regenerated = await bytesOf(districtZipStream(demoDistrictOptions()).stream);
    expect(regenerated.length).toBe(checkedIn.length);
    expect(regenerated.equals(checkedIn)).toBe(true);
  });

  it('holds three schools, a dozen classes and a few hundred pupils, without passwords', async () => {
    const zip = await readDistrictZip(await readFile(DEMO_DISTRICT_ZIP));
    expect(zip.rows('orgs.csv').filter((o) => o.type === 'school')).toHaveLength(3);
    expect(zip.rows('classes.csv')).toHaveLength(12);
    const pupils = zip.rows('roles.csv').filter((r) => r.role === 'student');
    expect(pupils.length).toBeGreaterThanOrEqual(200);
    expect(pupils.length).toBeLessThanOrEqual(400);
    expect(zip.rows('users.csv').filter((u) => u.password !== '')).toEqual([]);
  });

  it('rosters the demo teacher and students exactly as the seed creates them, the teacher teaching both', async () => {
    const zip = await readDistrictZip(await readFile(DEMO_DISTRICT_ZIP));
    const users = new Map(zip.rows('users.csv').map((u) => [u.email, u]));
    for (const key of ['teacher', 'student', 'student2'] as const) {
      const account = demoAccount(key);
      const row = users.get(account.email);
      expect(row).toBeDefined();
      expect(row?.sourcedId).toBe(demoRosterSourcedId(key));
      expect(`${row?.givenName} ${row?.familyName}`).toBe(account.name);
      expect(row?.username).toBe(account.username);
      expect(row?.enabledUser).toBe('true');
    }
    // The administrator and the pending account stay out of the roster.
    for (const account of DEMO_ACCOUNTS.filter((a) => a.isAdmin || !a.approved))
      expect(users.has(account.email)).toBe(false);

    const enrollments = zip.rows('enrollments.csv');
    const classesOf = (sourcedId: string, role: string) =>
      new Set(
        enrollments
          .filter((e) => e.userSourcedId === sourcedId && e.role === role)
          .map((e) => e.classSourcedId),
      );
    const taught = classesOf(demoRosterSourcedId('teacher'), 'teacher');
    const shared = [...classesOf(demoRosterSourcedId('student'), 'student')].filter(
      (c) => taught.has(c) && classesOf(demoRosterSourcedId('student2'), 'student').has(c),
    );
    expect(shared.length).toBeGreaterThan(0);
  });
});
