import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { assertPublishSubject, encodeJson, normalizeHeaders } from '../bus-rules';
import { outboxEnqueueFunction } from './messaging-tables';

export interface OutboxServiceOptions {
  /** Schema of the outbox table; defaults to the DataSource's `schema` option. */
  schema?: string;
}

/**
 * Records an event in the caller's transaction, so it is published if and only if the change commits.
 * Every row goes through the schema's `outbox_enqueue` SQL function (ADR 0037), which a service's own SQL functions
 * call too: its notification reaches the relays at the commit, so nobody nudges a relay by hand.
 */
export class OutboxService {
  constructor(private readonly options: OutboxServiceOptions = {}) {}

  /**
   * Returns the message id (the bus message id subscribers will see). Without `headers`, the event carries
   * the current request id (of the HTTP request or bus message being handled), so one trace spans the change
   * and its consumers. The subject and headers are checked here too, so a bad one fails with the bus's own message.
   */
  async enqueue(
    manager: EntityManager,
    subject: string,
    data: unknown,
    headers?: Record<string, string>,
  ): Promise<string> {
    const [id, checkedSubject, payload, checkedHeaders] = this.eventValues(subject, data, headers);
    const fn = outboxEnqueueFunction(manager.dataSource, this.options.schema);
    await manager.query(`SELECT ${fn}($1, $2::jsonb, $3::jsonb, $4::uuid)`, [
      checkedSubject,
      payload,
      checkedHeaders,
      id,
    ]);
    return id;
  }

  /**
   * One event's values — id, subject, payload, headers (with the current request id), checked as `enqueue` checks
   * them — for a service's SQL function that enqueues the event itself, in the statement that writes the change:
   * it passes them to `outbox_enqueue(subject, payload, headers, id)`, never to the outbox table (a test holds every
   * service's functions to that). The relay hears of the event at the commit, as after `enqueue`.
   */
  eventValues(
    subject: string,
    data: unknown,
    headers?: Record<string, string>,
  ): [id: string, subject: string, payload: string, headers: string] {
    assertPublishSubject(subject);
    return [randomUUID(), subject, encodeJson(data), JSON.stringify(normalizeHeaders(headers))];
  }
}
