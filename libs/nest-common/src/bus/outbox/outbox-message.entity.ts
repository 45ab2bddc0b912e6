import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An event waiting to be relayed to the bus, written in the same transaction as the change it reports.
 * No schema here on purpose: it resolves to the DataSource's `schema` option, i.e. the owning service's schema
 * (createMessagingMigration creates the table there).
 */
@Entity({ name: 'outbox' })
export class OutboxMessageEntity {
  /** Also the bus message id, so a re-sent row is dropped by the broker's dedupe and by inboxes. */
  @PrimaryColumn('uuid')
  id!: string;

  /** Insertion order; the relay publishes in this order. Assigned by the database. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'jsonb' })
  payload!: unknown;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  headers!: Record<string, string>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;

  /** Publish attempts, for operators watching a stuck relay. */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;
}
