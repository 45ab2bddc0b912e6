import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import {
  createMessagingMigrations,
  dataSourceOptions,
  ensureSchema,
  openWithMigrations,
} from '@district/nest-common';
import { dropSchema, TEST_DATABASE_URL, uniqueSchema } from '@district/nest-common/testing';

/**
 * A service never writes the platform's outbox table (issue #35, ADR 0037): its SQL enqueues through
 * `outbox_enqueue`, which checks the event and nudges the relays at the commit. Two checks keep it, over every
 * folder in services/ (a service added tomorrow included, no list to edit):
 *
 * 1. **The effective functions.** Each service's migrations run, after the platform's, on a throwaway schema of the
 *    real database; then no function in that schema but `outbox_enqueue` may name the outbox table. This is the
 *    check that counts for functions: a shipped migration cannot change, so what matters is the definition its
 *    successors leave in force.
 * 2. **The migration text.** No service source writes the table (INSERT, UPDATE, DELETE, TRUNCATE, MERGE, COPY):
 *    this catches a migration that writes rows while it runs, which check 1 cannot see. The allow-list holds
 *    shipped migrations only, each with the migration that supersedes it, which check 1 verifies.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const SERVICES = path.join(ROOT, 'services');

/** Shipped before `outbox_enqueue` existed; each is superseded by a later migration named here. */
const SHIPPED_BEFORE_ENQUEUE: Record<string, string> = {
  'services/assessment/src/migrations/1733500000000-submit-grade-function.migration.ts':
    'its submit_grade is replaced by 1733700000000-submit-grade-enqueue (check 1 sees the replacement in force)',
};

const OUTBOX_WRITE =
  /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?|merge\s+into|copy)\s+(?:only\s+)?(?:"?[a-z_][a-z0-9_]*"?\s*\.\s*)?"?outbox"?(?![a-z0-9_])/i;
/** Any mention of the table in a function's source: a read is as much a way around the platform as a write. */
const OUTBOX_NAMED = /(?<![a-z0-9_])"?outbox"?(?![a-z0-9_])/i;

const serviceNames = readdirSync(SERVICES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(SERVICES, d.name, 'src', 'migrations', 'index.ts')))
  .map((d) => d.name)
  .sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(d.name) && !/\.spec\.ts$/.test(d.name) ? [full] : [];
  });
}

/** Every migration class a service's migrations/index.ts exports (each service names its list its own way). */
async function migrationsOf(service: string): Promise<(new () => unknown)[]> {
  const exported = (await import(path.join(SERVICES, service, 'src', 'migrations', 'index.ts'))) as Record<
    string,
    unknown
  >;
  const lists = Object.values(exported).filter(
    (v): v is (new () => unknown)[] => Array.isArray(v) && v.every((m) => typeof m === 'function'),
  );
  if (lists.length !== 1) throw new Error(`${service}: expected one exported list of migrations`);
  return lists[0];
}

it('finds the services to check', () => {
  expect(serviceNames).toEqual(
    expect.arrayContaining(['assessment', 'chat', 'classroom', 'content', 'identity']),
  );
});

describe.each(serviceNames)('%s', (service) => {
  it('leaves no function but outbox_enqueue naming the outbox table, once its migrations have run', async () => {
    const schema = uniqueSchema(`outboxcheck_${service}`);
    await ensureSchema(TEST_DATABASE_URL, schema);
    let dataSource: DataSource | undefined;
    try {
      dataSource = await openWithMigrations(
        dataSourceOptions({
          url: TEST_DATABASE_URL,
          schema,
          entities: [],
          migrations: [...createMessagingMigrations(schema), ...(await migrationsOf(service))],
          poolSize: 2,
        }),
        schema,
      );
      const functions: { name: string; source: string }[] = await dataSource.query(
        `SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS name, p.prosrc AS source
           FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = $1`,
        [schema],
      );
      expect(functions.map((f) => f.name)).toContain(
        'outbox_enqueue(p_subject text, p_payload jsonb, p_headers jsonb, p_id uuid)',
      );
      const offenders = functions
        .filter((f) => !f.name.startsWith('outbox_enqueue(') && OUTBOX_NAMED.test(f.source))
        .map((f) => f.name);
      expect(offenders).toEqual([]);
    } finally {
      await dataSource?.destroy();
      await dropSchema(TEST_DATABASE_URL, schema);
    }
  });

  it('writes the outbox table nowhere in its source (migrations included)', () => {
    const offenders = sourceFiles(path.join(SERVICES, service, 'src'))
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
      .filter((file) => !(file in SHIPPED_BEFORE_ENQUEUE))
      .filter((file) => OUTBOX_WRITE.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

it('allows only shipped migrations that still exist (a stale entry would hide nothing, but says something false)', () => {
  for (const file of Object.keys(SHIPPED_BEFORE_ENQUEUE))
    expect(existsSync(path.join(ROOT, file))).toBe(true);
});
