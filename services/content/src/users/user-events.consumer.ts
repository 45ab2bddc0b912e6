import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Subjects, type UserChangedEvent, type UserDeletedEvent } from '@district/contracts';
import { BusContext, PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { CommentsService } from '../comments/comments.service';

export const USER_UPDATED_CONSUMER = 'content-user-updated';
export const USER_DELETED_CONSUMER = 'content-user-deleted';
const DELETED_AUTHOR_NAME = 'Deleted user';

/**
 * Keeps content's copies of people in step with identity, durably (one delivery per service, retried until
 * handled) and exactly once (the platform's inbox entry commits with the change made through `manager`):
 * - identity.user.updated: the author name on their posts and comments;
 * - identity.user.deleted: their comments (and the replies under them) are removed; posts, which are the
 *   school's lessons, stay, with the author shown as "Deleted user".
 */
@Controller()
export class UserEventsConsumer {
  constructor(
    @Inject(CommentsService) private readonly comments: CommentsService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Subjects.identityUserUpdated, { durable: USER_UPDATED_CONSUMER })
  async userUpdated(
    @Payload() { user: { id, name } }: UserChangedEvent,
    @Ctx() { manager }: BusContext,
  ): Promise<void> {
    await manager.query(`UPDATE posts SET author_name = $2 WHERE author_id = $1 AND author_name <> $2`, [
      id,
      name,
    ]);
    await manager.query(`UPDATE comments SET author_name = $2 WHERE author_id = $1 AND author_name <> $2`, [
      id,
      name,
    ]);
  }

  @EventPattern(Subjects.identityUserDeleted, { durable: USER_DELETED_CONSUMER })
  async userDeleted(@Payload() { userId }: UserDeletedEvent, @Ctx() { manager }: BusContext): Promise<void> {
    const removed = await this.comments.deleteByAuthor(manager, userId);
    await manager.query(`UPDATE posts SET author_name = $2 WHERE author_id = $1`, [
      userId,
      DELETED_AUTHOR_NAME,
    ]);
    this.logger.info({ userId, removedComments: removed.length }, 'deleted user removed from content');
  }
}
