import { Client } from 'pg';
import { DataSource, type DataSourceOptions, type MixedList } from 'typeorm';

/** The advisory lock one schema's migrations run under (any 64-bit key; hashed from the schema's name). */
const migrationLockKey = (schema: string) => `district-migrations:${schema}`;

/**
 * Each service owns a schema named after it inside the shared database (or its own database in production).
 * Replicas starting together may race to create it: the loser's "already exists" is the outcome it wanted.
 */
export async function ensureSchema(databaseUrl: string, schema: string): Promise<void> {
  assertSchemaName(schema);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    // 23505: two CREATE SCHEMA IF NOT EXISTS at once (pg_namespace's unique index); 42P06: duplicate schema.
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  } finally {
    await client.end();
  }
}

/**
 * Opens the data source and runs its pending migrations under a PostgreSQL advisory lock held for the schema, so
 * replicas starting at once (a scale-out, a rolling deploy, `npm run start:cluster`) apply each migration once:
 * the first takes the lock and migrates, the others wait, then find nothing pending. Without it, two replicas
 * ran the same CREATE TABLE and one failed its start.
 */
export async function openWithMigrations(options: DataSourceOptions, schema: string): Promise<DataSource> {
  const dataSource = new DataSource({ ...options, migrationsRun: false });
  await dataSource.initialize();
  try {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtext($1))', [migrationLockKey(schema)]);
      try {
        await dataSource.runMigrations({ transaction: 'each' });
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [migrationLockKey(schema)]);
      }
    } finally {
      await runner.release();
    }
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    throw error;
  }
  return dataSource;
}

export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  assertSchemaName(schema);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
}

export interface ServiceDatabaseOptions {
  url: string;
  schema: string;
  // TypeORM's own option types
  entities: MixedList<string | (new () => unknown) | import('typeorm').EntitySchema>;
  migrations: MixedList<string | (new () => unknown)>;
  poolSize?: number;
}

/** Migrations run at start; `synchronize` is never used outside tests. */
export function dataSourceOptions(options: ServiceDatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities as DataSourceOptions['entities'],
    migrations: options.migrations as DataSourceOptions['migrations'],
    migrationsRun: true,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: options.poolSize ?? 10,
      // Unqualified SQL in migrations and raw queries lands in the service's own schema.
      options: `-c search_path=${options.schema},public`,
    },
  };
}
