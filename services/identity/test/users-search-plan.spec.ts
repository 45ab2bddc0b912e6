import { TOTAL_COUNT_HEADER, type User } from '@district/contracts';
import type { HttpClient } from '@district/nest-common/testing';
import { UsersRepository } from '../src/users/users.repository';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN_ENV, signInAdmin } from './support/people';

/**
 * GET /api/users?q= of one or two characters at a district's size (ADR 0042, "User search"): the page and its count
 * are read through users_short_search_idx, never by a scan of every user. The statements explained are the ones the
 * request ran, caught on their way to the database.
 */
jest.setTimeout(120_000);

const PEOPLE = 20_000;
const GIVEN = [
  'Ana',
  'Ben',
  'Carla',
  'Dmitri',
  'Elif',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jamal',
  'Kenji',
  'Lucia',
];
const FAMILY = ['Nguyen', 'Okafor', 'Perez', 'Quinn', 'Rossi', 'Silva', 'Tanaka', 'Usman', 'Vogel', 'Walsh'];

let app: IdentityTestApp;
let admin: HttpClient;
let statements: { sql: string; params: unknown[] }[] = [];

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV });
  admin = await signInAdmin(app);
  // A district's people: given and family names from short lists, each username and email starting with the name.
  await app.dataSource.query(
    `INSERT INTO users (name, username, email, role, approved, created_at)
     SELECT g || ' ' || f, lower(g || '.' || f) || n, lower(g || '.' || f) || n || '@district.test', 'student', true,
            now() - n * interval '1 minute'
       FROM generate_series(1, $1::int) AS n,
            LATERAL (SELECT ($2::text[])[1 + n % cardinality($2::text[])] AS g,
                            ($3::text[])[1 + (n / cardinality($2::text[])) % cardinality($3::text[])] AS f) AS names`,
    [PEOPLE, GIVEN, FAMILY],
  );
  await app.dataSource.query(`ANALYZE users`);
  // The repository's statements, recorded as it sends them (and still sent).
  const repository = app.service.app.get(UsersRepository) as unknown as {
    users: { query(sql: string, params?: unknown[]): Promise<unknown> };
  };
  const query = repository.users.query.bind(repository.users);
  jest.spyOn(repository.users, 'query').mockImplementation((sql: string, params: unknown[] = []) => {
    statements.push({ sql, params });
    return query(sql, params);
  });
});
afterAll(async () => {
  jest.restoreAllMocks();
  await app?.close();
});

/** The request's statements (the page and its count), each with its plan. */
async function plansOf(q: string): Promise<{ total: number; plans: string[] }> {
  statements = [];
  const res = await admin.get<User[]>(`/api/users?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  const ran = statements.filter((s) => /FROM users/.test(s.sql));
  expect(ran).toHaveLength(2);
  const plans: string[] = [];
  for (const { sql, params } of ran) {
    const rows: { 'QUERY PLAN': string }[] = await app.dataSource.query(`EXPLAIN ${sql}`, params);
    plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  return { total: Number(res.headers.get(TOTAL_COUNT_HEADER)), plans };
}

const expected = async (q: string) =>
  (
    (await app.dataSource.query(
      `SELECT count(*)::int AS n FROM users
        WHERE EXISTS (SELECT FROM regexp_split_to_table(lower(name), '[[:space:]-]+') w WHERE w LIKE $1 || '%')
           OR lower(username) LIKE $1 || '%' OR lower(email) LIKE $1 || '%'`,
      [q.toLowerCase()],
    )) as { n: number }[]
  )[0].n;

describe('a one- or two-character search among 20,000 people', () => {
  it.each(['lu', 'p', 'Q', 'ke'])(
    'q=%s counts through users_short_search_idx and reads its page by an index, never a scan of users',
    async (q) => {
      const { total, plans } = await plansOf(q);
      expect(total).toBe(await expected(q));
      const [page, count] = plans;
      for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on users/);
      expect(count).toMatch(/Bitmap Index Scan on users_short_search_idx/);
      // The newest first, filtered until the page is full (a common start), or the matches sorted (a rare one).
      expect(page).toMatch(/Index Scan (using users_newest_idx|on users_short_search_idx)/);
    },
  );

  it('reads a rare start from users_short_search_idx, not by walking every user newest first', async () => {
    const { total, plans } = await plansOf('x');
    expect(total).toBe(0);
    expect(plans[0]).toMatch(/Bitmap Index Scan on users_short_search_idx/);
  });
});
