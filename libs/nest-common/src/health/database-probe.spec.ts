import { Client } from 'pg';
import { createServer } from 'node:net';
import { DatabaseProbe } from './database-probe';

/** A port nothing listens on (just closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The backends of this test's probes (application_name 'readiness', on this process's connections). */
async function probeBackends(admin: Client): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE application_name = 'readiness' AND datname = current_database()`,
  );
  return rows.map((r) => r.pid);
}

describe('DatabaseProbe (ADR 0043)', () => {
  let admin: Client;
  beforeAll(async () => {
    admin = new Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(() => admin.end());

  it('answers on one connection of its own, shared by overlapping checks, closed with the application', async () => {
    const before = await probeBackends(admin);
    const probe = new DatabaseProbe({ connectionString: url });
    expect(await Promise.all([probe.check(), probe.check(), probe.check()])).toEqual([true, true, true]);
    expect(await probe.check()).toBe(true);
    const opened = (await probeBackends(admin)).filter((pid) => !before.includes(pid));
    expect(opened).toHaveLength(1);
    await probe.onApplicationShutdown();
    expect(await probe.check()).toBe(false);
    const after = await probeBackends(admin);
    expect(after).not.toContain(opened[0]);
  });

  it('replaces a connection the database ended, and answers false while none can be made', async () => {
    const probe = new DatabaseProbe({ connectionString: url });
    try {
      const before = await probeBackends(admin);
      expect(await probe.check()).toBe(true);
      const [pid] = (await probeBackends(admin)).filter((p) => !before.includes(p));
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // The loss is noticed at the next check at the latest; a check after it answers on a new connection.
      let answers: boolean[] = [];
      for (let i = 0; i < 3; i++) answers.push(await probe.check());
      expect(answers.at(-1)).toBe(true);
      expect(await probeBackends(admin)).not.toContain(pid);

      const nowhere = new DatabaseProbe({
        connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/x`,
      });
      answers = [await nowhere.check(), await nowhere.check()];
      expect(answers).toEqual([false, false]);
      await nowhere.close();
    } finally {
      await probe.close();
    }
  });
});
