import { Client } from 'pg';
import { TEST_DATABASE_URL } from '../testing';
import { PgListener } from './pg-listener';

/** The listening connection the outbox relay and content's list cache share (real PostgreSQL). */
describe('PgListener', () => {
  const channel = `pg_listener_spec_${process.pid}_${Date.now()}`;
  const sql = new Client({ connectionString: TEST_DATABASE_URL });
  const quiet = { warn: jest.fn(), debug: jest.fn(), info: jest.fn() };
  let events: string[];
  let listener: PgListener;

  const waitFor = async (what: () => boolean, label: string, ms = 10_000) => {
    const until = Date.now() + ms;
    while (!what()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${label}; events: ${events.join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  beforeAll(() => sql.connect());
  afterAll(() => sql.end());
  beforeEach(() => {
    events = [];
    listener = new PgListener({
      connection: { connectionString: TEST_DATABASE_URL },
      channel,
      applicationName: 'pg listener spec',
      logger: quiet,
      messages: { lost: 'lost', back: 'back' },
      onNotify: () => events.push('notify'),
      onListening: () => events.push('listening'),
      onLost: () => events.push('lost'),
      retryMs: { min: 20, max: 100 },
    });
  });
  afterEach(() => listener.stop());

  it('hears a notification on its channel at commit, and none from another channel', async () => {
    await listener.start();
    expect(events).toEqual(['listening']);
    await sql.query('BEGIN');
    await sql.query(`SELECT pg_notify($1, 'x')`, [channel]);
    await sql.query(`SELECT pg_notify($1, 'x')`, [`${channel}_other`]);
    await new Promise((r) => setTimeout(r, 100));
    expect(events).toEqual(['listening']);
    await sql.query('COMMIT');
    await waitFor(() => events.includes('notify'), 'the notification');
    expect(events).toEqual(['listening', 'notify']);
  });

  it('listens again on a new connection after its backend is terminated, and says so', async () => {
    await listener.start();
    const first = listener.client;
    const { rows } = await sql.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = 'pg listener spec'`,
    );
    expect(rows).toHaveLength(1);
    await sql.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await waitFor(() => events.filter((e) => e === 'listening').length === 2, 'the second LISTEN');
    expect(events).toEqual(['listening', 'lost', 'listening']);
    expect(listener.client).toBeDefined();
    expect(listener.client).not.toBe(first);
    expect(quiet.warn).toHaveBeenCalledWith(expect.objectContaining({ failures: 1 }), 'lost');
    await sql.query(`SELECT pg_notify($1, 'x')`, [channel]);
    await waitFor(() => events.includes('notify'), 'the notification after the reconnection');
  });

  it('keeps trying while the database cannot be reached, and stops trying when stopped', async () => {
    const unreachable = new PgListener({
      connection: { connectionString: 'postgres://postgres@127.0.0.1:1/postgres' },
      channel,
      applicationName: 'pg listener spec unreachable',
      logger: quiet,
      messages: { lost: 'lost', back: 'back' },
      onNotify: () => events.push('notify'),
      onListening: () => events.push('listening'),
      onLost: () => events.push('lost'),
      retryMs: { min: 10, max: 20 },
    });
    await unreachable.start();
    await waitFor(() => events.filter((e) => e === 'lost').length >= 3, 'three attempts');
    await unreachable.stop();
    const attempts = events.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(events).toHaveLength(attempts);
    expect(unreachable.client).toBeUndefined();
  });
});
