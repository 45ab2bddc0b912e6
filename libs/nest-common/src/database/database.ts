import { Client } from 'pg';
import type { DataSourceOptions, MixedList } from 'typeorm';

/** Each service owns a schema named after it inside the shared database (or its own database in production). */
export async function ensureSchema(databaseUrl: string, schema: string): Promise<void> {
  assertSchemaName(schema);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } finally {
    await client.end();
  }
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
