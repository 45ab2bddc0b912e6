import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Subjects, usersListReplySchema, usersListRequestSchema } from '@district/contracts';
import { EVENT_BUS, SERVICE_NAME, type BusSubscription, type EventBus } from '@district/nest-common';
import type { z } from 'zod';
import { UsersService } from './users.service';

type UsersListReply = z.infer<typeof usersListReplySchema>;

/** Answers identity.users.list (the chat invite list) over the bus; replicas share the requests. */
@Injectable()
export class UsersListResponder implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: BusSubscription;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(SERVICE_NAME) private readonly serviceName: string,
    @Inject(UsersService) private readonly users: UsersService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.reply(
      Subjects.identityUsersList,
      (data) => this.answer(data),
      this.serviceName,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.unsubscribe();
  }

  async answer(data: unknown): Promise<UsersListReply> {
    const { excludeAdmins } = usersListRequestSchema.parse(data ?? {});
    const users = await this.users.list();
    return {
      users: users
        .filter((u) => !(excludeAdmins && u.isAdmin))
        .map(({ id, name, username, role, isAdmin }) => ({ id, name, username, role, isAdmin })),
    };
  }
}
