import { DEMO_ACCOUNTS, demoAccount, type User } from '@district/contracts';
import { dropSchema, TEST_DATABASE_URL, uniqueSchema } from '@district/nest-common/testing';
import { startIdentity, type IdentityTestApp } from '../../test/support/identity-app';
import { demoRosterSourcedId } from './demo-district';

const DEMO_ENV = { DEMO_PASSWORD: 'district-demo' };

describe('the demo district roster', () => {
  const schema = uniqueSchema('identity');
  let app: IdentityTestApp;
  const sql = <T>(text: string, params: unknown[] = []) => app.dataSource.query(text, params) as Promise<T[]>;
  /** Every row of the roster's tables and of users, with the transaction that last wrote it. */
  const written = () =>
    sql<{ rows: string; xmins: string }>(`
      SELECT count(*)::text AS rows, coalesce(sum(xmin::text::bigint), 0)::text AS xmins FROM (
        SELECT xmin FROM users UNION ALL SELECT xmin FROM schools UNION ALL SELECT xmin FROM classes
        UNION ALL SELECT xmin FROM enrollments UNION ALL SELECT xmin FROM user_roles
        UNION ALL SELECT xmin FROM roster_imports) AS all_rows`);

  beforeAll(async () => {
    app = await startIdentity({ demo: true, schema, keepSchema: true, env: DEMO_ENV });
  });
  afterAll(async () => {
    await app?.close();
    await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('is imported at the first start: three schools, twelve classes, a few hundred pupils, no errors', async () => {
    const imports = await sql<{ status: string; error_count: number; failure: string | null }>(
      `SELECT status, error_count, failure FROM roster_imports`,
    );
    expect(imports).toEqual([{ status: 'done', error_count: 0, failure: null }]);
    const [counts] = await sql<{ schools: number; classes: number; pupils: number; teachers: number }>(`
      SELECT (SELECT count(*)::int FROM schools WHERE active) AS schools,
             (SELECT count(*)::int FROM classes WHERE active) AS classes,
             (SELECT count(DISTINCT user_id)::int FROM enrollments WHERE active AND role = 'student') AS pupils,
             (SELECT count(DISTINCT user_id)::int FROM enrollments WHERE active AND role = 'teacher') AS teachers`);
    expect(counts).toEqual({ schools: 3, classes: 12, pupils: 300, teachers: 6 });
    const admins = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM user_roles WHERE active AND role = 'administrator'`,
    );
    expect(admins[0].n).toBe(3);
  });

  it('keeps the demo accounts as seeded: names, usernames, passwords, approval; the teacher teaches both students', async () => {
    const admin = app.client();
    expect(
      (await admin.post('/api/auth/login', { email: demoAccount('admin').email, password: 'district-demo' }))
        .status,
    ).toBe(200);
    for (const account of DEMO_ACCOUNTS) {
      const res = await admin.get<User[]>(`/api/users?q=${encodeURIComponent(account.email)}`);
      const user = res.body.find((u) => u.id === account.id);
      const { key: _key, ...expected } = account;
      expect(user && { ...expected, ...pick(user, Object.keys(expected) as (keyof User)[]) }).toEqual(
        expected,
      );
    }
    const teacher = app.client();
    expect(
      (
        await teacher.post('/api/auth/login', {
          email: demoAccount('teacher').email,
          password: 'district-demo',
        })
      ).status,
    ).toBe(200);

    const stamped = await sql<{ id: string; sourced_id: string | null }>(
      `SELECT id, sourced_id FROM users WHERE id = ANY($1) ORDER BY id`,
      [DEMO_ACCOUNTS.map((a) => a.id)],
    );
    expect(Object.fromEntries(stamped.map((u) => [u.id, u.sourced_id]))).toEqual(
      Object.fromEntries(
        DEMO_ACCOUNTS.map((a) => [a.id, a.approved && !a.isAdmin ? demoRosterSourcedId(a.key) : null]),
      ),
    );
    const shared = await sql<{ class_id: string }>(
      `SELECT t.class_id FROM enrollments t
         JOIN enrollments s1 ON s1.class_id = t.class_id AND s1.user_id = $2 AND s1.role = 'student' AND s1.active
         JOIN enrollments s2 ON s2.class_id = t.class_id AND s2.user_id = $3 AND s2.role = 'student' AND s2.active
        WHERE t.user_id = $1 AND t.role = 'teacher' AND t.active`,
      [demoAccount('teacher').id, demoAccount('student').id, demoAccount('student2').id],
    );
    expect(shared.length).toBeGreaterThan(0);
  });

  it('is imported once: a second start writes nothing', async () => {
    const before = await written();
    await app.close();
    app = await startIdentity({ demo: true, schema, keepSchema: true, env: DEMO_ENV });
    expect(await written()).toEqual(before);
  });
});

function pick<T extends object>(value: T, keys: (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, value[k]])) as Partial<T>;
}

describe('the demo district roster with two replicas starting at once', () => {
  const schema = uniqueSchema('identity');
  const apps: IdentityTestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('is imported by one of them only', async () => {
    apps.push(
      ...(await Promise.all(
        [1, 2].map(() => startIdentity({ demo: true, schema, keepSchema: true, env: DEMO_ENV })),
      )),
    );
    const imports = await apps[0].dataSource.query(`SELECT status, error_count FROM roster_imports`);
    expect(imports).toEqual([{ status: 'done', error_count: 0 }]);
  });
});
