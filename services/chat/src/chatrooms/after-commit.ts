import { Inject, Injectable } from '@nestjs/common';
import {
  DataSource,
  type EntityManager,
  type EntitySubscriberInterface,
  type QueryRunner,
  type TransactionCommitEvent,
  type TransactionRollbackEvent,
} from 'typeorm';

/**
 * Work to do once a transaction has committed, for code handed only the transaction's EntityManager (an inbox
 * handler's, so a roster change: chat tells its replicas to re-check a class room's sockets once the new invited
 * list is what they read). A rolled-back transaction drops its work: the bus redelivers the event, and the retry
 * registers it again.
 */
@Injectable()
export class AfterCommit implements EntitySubscriberInterface {
  private readonly pending = new WeakMap<QueryRunner, (() => void)[]>();

  constructor(@Inject(DataSource) dataSource: DataSource) {
    dataSource.subscribers.push(this);
  }

  /** Runs `work` when the transaction `manager` belongs to commits (at once when it runs in none). */
  run(manager: EntityManager, work: () => void): void {
    const runner = manager.queryRunner;
    if (!runner || !runner.isTransactionActive) return work();
    const list = this.pending.get(runner) ?? [];
    list.push(work);
    this.pending.set(runner, list);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // A savepoint released is not the commit: the work waits for the outermost one.
    if (event.queryRunner.isTransactionActive) return;
    const list = this.pending.get(event.queryRunner);
    this.pending.delete(event.queryRunner);
    for (const work of list ?? []) work();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
  }
}
