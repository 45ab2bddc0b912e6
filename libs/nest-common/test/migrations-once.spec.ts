import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dataSourceOptions, ensureSchema, openWithMigrations } from '../src/database/database';
import { dropSchema, TEST_DATABASE_URL, uniqueSchema } from '../src/testing';

/**
 * Replicas that start together (a scale-out, a rolling deploy, `npm run start:cluster`) open the same schema at
 * once. Each migration must run once, and no replica may fail its start over another's CREATE TABLE.
 */
const schema = uniqueSchema('migrations');

class CreateThings1700000000000 implements MigrationInterface {
  name = 'CreateThings1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    // No IF NOT EXISTS: a second run of it fails, as a real service's migration would.
    await runner.query('CREATE TABLE things (id int PRIMARY KEY)');
    await runner.query('SELECT pg_sleep(0.2)');
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE things');
  }
}

afterAll(() => dropSchema(TEST_DATABASE_URL, schema));

it('creates the schema and runs each migration once when eight replicas start at the same moment', async () => {
  const replicas = Array.from({ length: 8 }, async () => {
    await ensureSchema(TEST_DATABASE_URL, schema);
    return openWithMigrations(
      dataSourceOptions({
        url: TEST_DATABASE_URL,
        schema,
        entities: [],
        migrations: [CreateThings1700000000000],
        poolSize: 2,
      }),
      schema,
    );
  });
  const opened = await Promise.all(replicas);
  try {
    const [{ n }] = (await opened[0].query(`SELECT count(*)::int AS n FROM "${schema}".migrations`)) as {
      n: number;
    }[];
    expect(n).toBe(1);
    for (const dataSource of opened)
      expect(await dataSource.query(`SELECT count(*)::int AS n FROM "${schema}".things`)).toEqual([{ n: 0 }]);
  } finally {
    await Promise.all(opened.map((d) => d.destroy()));
  }
});
