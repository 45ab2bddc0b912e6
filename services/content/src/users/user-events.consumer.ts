import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Subjects, userChangedEventSchema, userDeletedEventSchema } from '@district/contracts';
import {
  EVENT_BUS,
  InboxService,
  OutboxRelay,
  PLATFORM_LOGGER,
  type BusMessage,
  type BusSubscription,
  type EventBus,
  type Logger,
} from '@district/nest-common';
import { CommentsService } from '../comments/comments.service';

export const USER_UPDATED_CONSUMER = 'content-user-updated';
export const USER_DELETED_CONSUMER = 'content-user-deleted';
const DELETED_AUTHOR_NAME = 'Deleted user';

/**
 * Keeps content's copies of people in step with identity, durably (one delivery per service, retried until
 * handled) and exactly once (the inbox row commits with the change):
 * - identity.user.updated: the author name on their posts and comments;
 * - identity.user.deleted: their comments (and the replies under them) are removed; posts, which are the
 *   school's lessons, stay, with the author shown as "Deleted user".
 */
@Injectable()
export class UserEventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly subscriptions: BusSubscription[] = [];

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(InboxService) private readonly inbox: InboxService,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(CommentsService) private readonly comments: CommentsService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions.push(
      await this.bus.subscribe(Subjects.identityUserUpdated, (m) => this.userUpdated(m), {
        durable: USER_UPDATED_CONSUMER,
      }),
      await this.bus.subscribe(Subjects.identityUserDeleted, (m) => this.userDeleted(m), {
        durable: USER_DELETED_CONSUMER,
      }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe()));
  }

  async userUpdated(message: BusMessage): Promise<void> {
    const parsed = userChangedEventSchema.safeParse(message.data);
    if (!parsed.success) {
      this.logger.error({ messageId: message.id }, 'malformed identity.user.updated event skipped');
      return;
    }
    const { id, name } = parsed.data.user;
    await this.inbox.handleOnce(USER_UPDATED_CONSUMER, message, async (manager) => {
      await manager.query(`UPDATE posts SET author_name = $2 WHERE author_id = $1 AND author_name <> $2`, [
        id,
        name,
      ]);
      await manager.query(`UPDATE comments SET author_name = $2 WHERE author_id = $1 AND author_name <> $2`, [
        id,
        name,
      ]);
    });
  }

  async userDeleted(message: BusMessage): Promise<void> {
    const parsed = userDeletedEventSchema.safeParse(message.data);
    if (!parsed.success) {
      this.logger.error({ messageId: message.id }, 'malformed identity.user.deleted event skipped');
      return;
    }
    const { userId } = parsed.data;
    let removed = 0;
    const handled = await this.inbox.handleOnce(USER_DELETED_CONSUMER, message, async (manager) => {
      removed = (await this.comments.deleteWhere(manager, `author_id = $1`, [userId])).length;
      await manager.query(`UPDATE posts SET author_name = $2 WHERE author_id = $1`, [
        userId,
        DELETED_AUTHOR_NAME,
      ]);
    });
    if (handled) {
      this.relay.nudge();
      this.logger.info({ userId, removedComments: removed }, 'deleted user removed from content');
    }
  }
}
