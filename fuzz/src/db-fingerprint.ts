import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';

/** Each table of every service schema in the site's database: row count and a digest of every row. */
export async function fingerprint(databaseUrl: string): Promise<Map<string, string>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY 1, 2`,
    );
    const prints = new Map<string, string>();
    for (const { schema, name } of tables.rows) {
      const q = `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;
      const { rows } = await client.query<{ n: number; digest: string | null }>(
        `SELECT count(*)::int AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ${q} t`,
      );
      prints.set(`${schema}.${name}`, `${rows[0].n}:${rows[0].digest ?? ''}`);
    }
    return prints;
  } finally {
    await client.end();
  }
}

/** The tables whose rows differ between two fingerprints. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

/**
 * A fingerprint once the site has gone quiet: two in a row, half a second apart, that agree (the outbox relays
 * and bus consumers finish what earlier requests set off). Throws when it keeps changing for `timeoutMs`.
 */
export async function settledFingerprint(
  databaseUrl: string,
  timeoutMs = 15_000,
): Promise<Map<string, string>> {
  const deadline = Date.now() + timeoutMs;
  let previous = await fingerprint(databaseUrl);
  for (;;) {
    await sleep(500);
    const next = await fingerprint(databaseUrl);
    if (changedTables(previous, next).length === 0) return next;
    if (Date.now() > deadline)
      throw new Error(`the database kept changing: ${changedTables(previous, next).join(', ')}`);
    previous = next;
  }
}
