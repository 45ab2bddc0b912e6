import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { assertPublishSubject, encodeJson, normalizeHeaders } from '../bus-rules';
import { messagingTable } from './messaging-tables';

export interface OutboxServiceOptions {
  /** Schema of the outbox table; defaults to the DataSource's `schema` option. */
  schema?: string;
}

/**
 * Records an event in the caller's transaction, so it is published if and only if the change commits.
 * The relay sends it; call `OutboxRelay.nudge()` after the commit to send it at once.
 */
export class OutboxService {
  constructor(private readonly options: OutboxServiceOptions = {}) {}

  /** Returns the message id (the bus message id subscribers will see). */
  async enqueue(
    manager: EntityManager,
    subject: string,
    data: unknown,
    headers?: Record<string, string>,
  ): Promise<string> {
    // Checked now, so a bad subject fails the caller's transaction instead of blocking the relay later.
    assertPublishSubject(subject);
    const checkedHeaders = normalizeHeaders(headers);
    const id = randomUUID();
    const table = messagingTable(manager.connection, 'outbox', this.options.schema);
    await manager.query(
      `INSERT INTO ${table} ("id", "subject", "payload", "headers") VALUES ($1, $2, $3::jsonb, $4::jsonb)`,
      [id, subject, encodeJson(data), JSON.stringify(checkedHeaders)],
    );
    return id;
  }
}
