import { Inject, Injectable } from '@nestjs/common';
import type { UserExportSections } from '@district/contracts';
import {
  PLATFORM_LOGGER,
  type Logger,
  type PeopleDataDeclaration,
  type PeopleDataHolder,
} from '@district/nest-common';
import type { EntityManager } from 'typeorm';
import { CommentsService } from '../comments/comments.service';
import { PeopleDataRepository } from './people-data.repository';

const DELETED_AUTHOR_NAME = 'Deleted user';

/**
 * What content keeps about a person (ADRs 0021, 0036): the comments they wrote and the posts they authored.
 * - export: both, pending comments too;
 * - a deleted person: their comments (and the replies under them) are removed, each with its deleted event; posts,
 *   which are the school's lessons, stay, with the author shown as "Deleted user".
 */
@Injectable()
export class ContentPeopleData implements PeopleDataHolder {
  constructor(
    @Inject(CommentsService) private readonly comments: CommentsService,
    @Inject(PeopleDataRepository) private readonly people: PeopleDataRepository,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async exportSections(userId: string): Promise<UserExportSections> {
    return { comments: await this.people.commentsOf(userId), posts: await this.people.postsOf(userId) };
  }

  async forget(tx: EntityManager, userId: string): Promise<void> {
    const removed = await this.comments.deleteByAuthor(tx, userId);
    await this.people.renamePostsOf(tx, userId, DELETED_AUTHOR_NAME);
    this.logger.info({ userId, removedComments: removed.length }, 'deleted user removed from content');
  }
}

/** content in the registry (index.ts) and in its users module: comment moderation is audited; it holds people's data. */
export const CONTENT_PEOPLE_DATA: PeopleDataDeclaration = { audit: true, holder: ContentPeopleData };
