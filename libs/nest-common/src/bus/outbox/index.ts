import { InboxEntryEntity } from './inbox-entry.entity';
import { OutboxMessageEntity } from './outbox-message.entity';

export { InboxEntryEntity } from './inbox-entry.entity';
export { InboxService, type InboxServiceOptions } from './inbox.service';
export {
  createMessagingMigration,
  createMessagingMigrations,
  createOutboxClaimMigration,
  createOutboxEnqueueMigration,
} from './messaging.migration';
export { outboxChannel } from './messaging-tables';
export { OutboxMessageEntity } from './outbox-message.entity';
export { OutboxRelay, outboxBacklog, type OutboxRelayOptions } from './outbox.relay';
export { OutboxService, type OutboxServiceOptions } from './outbox.service';

/** Add to a service DataSource's entities (whose `schema` option names the service schema). */
export const messagingEntities = [OutboxMessageEntity, InboxEntryEntity] as const;
