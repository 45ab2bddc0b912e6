import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PLATFORM_LOGGER, PLATFORM_RUNTIME, type Logger, type PlatformRuntime } from '@district/nest-common';
import { ChatroomsService } from '../chatrooms/chatrooms.service';
import { DEMO_CHATROOMS } from './demo-chatrooms';

/**
 * On a demo site, the demo district's chatroom. A room with the same id is left as it is, so restarts and racing
 * replicas are harmless and an admin's edits survive; a demo room the admin deleted comes back at the next
 * start, like content's demo lessons.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ChatroomsService) private readonly chatrooms: ChatroomsService,
    @Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.runtime.demo) await this.seedDemoChatrooms();
  }

  /** Answers how many rooms were created. */
  async seedDemoChatrooms(): Promise<number> {
    const created = await this.dataSource.transaction(async (tx) => {
      let count = 0;
      for (const room of DEMO_CHATROOMS) if (await this.chatrooms.seedDemo(tx, room)) count++;
      return count;
    });
    if (created > 0) this.logger.info({ chatrooms: created }, 'demo chatrooms seeded');
    return created;
  }
}
