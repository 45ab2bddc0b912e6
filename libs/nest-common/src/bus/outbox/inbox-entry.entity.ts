import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per (consumer, message) already handled; inserting it in the handler's transaction is what makes a
 * redelivered message a no-op. Schema resolves like OutboxMessageEntity's.
 */
@Entity({ name: 'inbox' })
export class InboxEntryEntity {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  consumer!: string;

  @PrimaryColumn({ name: 'message_id', type: 'varchar', length: 200 })
  messageId!: string;

  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' })
  processedAt!: Date;
}
