import { Client, type ClientConfig } from 'pg';

/**
 * The database check behind `/readyz`, on one connection of its own, never the pool's. A check through the pool
 * waits for a free connection, so a replica busy enough to have every pooled connection in use would fail its
 * readiness, be taken out of rotation and push its load onto the others, which then fail theirs: readiness must say
 * "the database can be reached", not "this replica is busy" (ADR 0043). The connection opens at the first check
 * and is replaced at the next one after any failure; checks that overlap share one query.
 */
export class DatabaseProbe {
  private client: Client | undefined;
  private inFlight: Promise<boolean> | undefined;
  private closed = false;

  constructor(private readonly connection: ClientConfig) {}

  check(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return (this.inFlight ??= this.run().finally(() => (this.inFlight = undefined)));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }

  /** Nest closes it with the application. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  private async run(): Promise<boolean> {
    try {
      const client = this.client ?? (await this.connect());
      const { rows } = await client.query<{ ok: number }>('SELECT 1 AS ok');
      return rows[0]?.ok === 1;
    } catch {
      await this.drop();
      return false;
    }
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      ...this.connection,
      application_name: 'readiness',
      keepAlive: true,
      connectionTimeoutMillis: 2000,
      // A query that hangs (a half-open connection) fails the check and replaces the connection.
      query_timeout: 2000,
    });
    // A connection lost between checks is noticed, and replaced, at the next one.
    client.on('error', () => {
      if (this.client === client) this.client = undefined;
    });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('closed');
    }
    this.client = client;
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
