import type { DataSource, EntityManager } from 'typeorm';
import type { BusMessage } from '../bus.port';
import { messagingTable } from './messaging-tables';

export interface InboxServiceOptions {
  /** Schema of the inbox table; defaults to the DataSource's `schema` option. */
  schema?: string;
}

/**
 * Makes an at-least-once handler effectively-once: the inbox row and the handler's writes commit together,
 * so a redelivered message finds its row and is skipped, and a failed handler leaves no row and is retried.
 */
export class InboxService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly options: InboxServiceOptions = {},
  ) {}

  /**
   * Runs `fn` in a transaction unless `consumer` already processed `message`; returns whether it ran.
   * A concurrent duplicate waits on the first one's row lock and is skipped once it commits.
   */
  async handleOnce(
    consumer: string,
    message: Pick<BusMessage, 'id'>,
    fn: (manager: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    const table = messagingTable(this.dataSource, 'inbox', this.options.schema);
    return this.dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        `INSERT INTO ${table} ("consumer", "message_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
        [consumer, message.id],
      );
      if (inserted.length === 0) return false;
      await fn(manager);
      return true;
    });
  }

  /** Deletes entries older than `olderThanMs` (redeliveries cannot come that late); returns how many. */
  async prune(olderThanMs: number): Promise<number> {
    const table = messagingTable(this.dataSource, 'inbox', this.options.schema);
    const [, count] = (await this.dataSource.query(
      `DELETE FROM ${table} WHERE "processed_at" < now() - make_interval(secs => $1)`,
      [olderThanMs / 1000],
    )) as [unknown, number];
    return count;
  }
}
