import { randomUUID } from 'node:crypto';
import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { assertPublishSubject, encodeJson, normalizeHeaders } from '../bus-rules';
import { messagingTable } from './messaging-tables';

export interface OutboxServiceOptions {
  /** Schema of the outbox table; defaults to the DataSource's `schema` option. */
  schema?: string;
}

/**
 * Records an event in the caller's transaction, so it is published if and only if the change commits.
 * The relay sends it; where `afterOutboxCommit` is set up (the platform does, with the relay's nudge), at once
 * after the commit, otherwise at its next poll.
 */
export class OutboxService {
  constructor(private readonly options: OutboxServiceOptions = {}) {}

  /**
   * Returns the message id (the bus message id subscribers will see). Without `headers`, the event carries
   * the current request id (of the HTTP request or bus message being handled), so one trace spans the change
   * and its consumers.
   */
  async enqueue(
    manager: EntityManager,
    subject: string,
    data: unknown,
    headers?: Record<string, string>,
  ): Promise<string> {
    const row = this.outboxRow(manager, subject, data, headers, 1);
    await manager.query(row.sql, row.params);
    enqueued(manager);
    return row.params[0];
  }

  /**
   * Runs `statement` — one INSERT, UPDATE or DELETE with RETURNING — and records the event in the same SQL
   * statement (`WITH written AS (…), outboxed AS (INSERT INTO outbox …) SELECT * FROM written`): the write and its
   * event in one round trip, for paths where round trips are the cost (a class submitting a quiz at once). Both
   * happen or neither, as with `enqueue`; the statement's parameters come first, the event's are appended after
   * them. Answers the rows the statement returned.
   */
  async enqueueWith<T>(
    manager: EntityManager,
    statement: { sql: string; params: readonly unknown[] },
    subject: string,
    data: unknown,
    headers?: Record<string, string>,
  ): Promise<T[]> {
    const row = this.outboxRow(manager, subject, data, headers, statement.params.length + 1);
    const rows = (await manager.query(
      `WITH written AS (${statement.sql}), outboxed AS (${row.sql}) SELECT * FROM written`,
      [...statement.params, ...row.params],
    )) as T[];
    enqueued(manager);
    return rows;
  }

  /**
   * One event's outbox values — id, subject, payload, headers, checked as `enqueue` checks them — for a SQL function
   * that inserts them itself when it writes (`INSERT INTO outbox (id, subject, payload, headers) VALUES (…)`, the
   * service schema's table): a write and its event decided in one statement. Call `written` after a call that
   * wrote it, so the relay is nudged as after `enqueue`.
   */
  eventValues(
    subject: string,
    data: unknown,
    headers?: Record<string, string>,
  ): [id: string, subject: string, payload: string, headers: string] {
    assertPublishSubject(subject);
    return [randomUUID(), subject, encodeJson(data), JSON.stringify(normalizeHeaders(headers))];
  }

  /** An event of `eventValues` was written through `manager`: the relay sends it after the commit. */
  written(manager: EntityManager): void {
    enqueued(manager);
  }

  /**
   * The outbox INSERT of one event, its parameters numbered from `$first`. The subject is checked now, so a bad
   * one fails the caller's transaction instead of blocking the relay later.
   */
  private outboxRow(
    manager: EntityManager,
    subject: string,
    data: unknown,
    headers: Record<string, string> | undefined,
    first: number,
  ): { sql: string; params: [id: string, subject: string, payload: string, headers: string] } {
    const params = this.eventValues(subject, data, headers);
    const table = messagingTable(manager.connection, 'outbox', this.options.schema);
    const [a, b, c, d] = [first, first + 1, first + 2, first + 3];
    return {
      sql: `INSERT INTO ${table} ("id", "subject", "payload", "headers") VALUES ($${a}, $${b}, $${c}::jsonb, $${d}::jsonb)`,
      params,
    };
  }
}

/** Set on a transaction's query runner by `enqueue`, taken by the commit subscriber. */
const ENQUEUED = 'outbox:enqueued';
const commitSubscribers = new WeakMap<DataSource, OutboxCommitSubscriber>();

/**
 * Runs `onCommit` after every commit of a transaction of `dataSource` in which `OutboxService.enqueue` wrote
 * (and right after an enqueue outside any transaction, which commits by itself). The platform passes the
 * relay's nudge, so services never nudge by hand. A second call replaces the callback.
 */
export function afterOutboxCommit(dataSource: DataSource, onCommit: () => void): void {
  const existing = commitSubscribers.get(dataSource);
  if (existing) {
    existing.onCommit = onCommit;
    return;
  }
  const subscriber = new OutboxCommitSubscriber(onCommit);
  commitSubscribers.set(dataSource, subscriber);
  dataSource.subscribers.push(subscriber);
}

function enqueued(manager: EntityManager): void {
  const runner = manager.queryRunner;
  if (runner?.isTransactionActive) runner.data[ENQUEUED] = true;
  else commitSubscribers.get(manager.connection)?.onCommit();
}

function takeEnqueued(runner: QueryRunner): boolean {
  const was = runner.data?.[ENQUEUED] === true;
  if (was) delete runner.data[ENQUEUED];
  return was;
}

class OutboxCommitSubscriber implements EntitySubscriberInterface {
  constructor(public onCommit: () => void) {}

  afterTransactionCommit({ queryRunner }: TransactionCommitEvent): void {
    // Releasing a savepoint is not the commit: only the outermost transaction's commit makes events sendable.
    if (!queryRunner.isTransactionActive && takeEnqueued(queryRunner)) this.onCommit();
  }

  afterTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    if (!queryRunner.isTransactionActive) takeEnqueued(queryRunner);
  }
}
