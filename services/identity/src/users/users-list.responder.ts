import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Subjects, type UsersListReply, type UsersListRequest } from '@district/contracts';
import { UsersRepository } from './users.repository';

/** Answers identity.users.list (the chat invite list) over the bus; replicas share the requests. */
@Controller()
export class UsersListResponder {
  constructor(@Inject(UsersRepository) private readonly users: UsersRepository) {}

  @MessagePattern(Subjects.identityUsersList)
  async answer({ excludeAdmins }: UsersListRequest): Promise<UsersListReply> {
    const users = await this.users.list();
    return {
      users: users
        .filter((u) => !(excludeAdmins && u.isAdmin))
        .map(({ id, name, username, role, isAdmin }) => ({ id, name, username, role, isAdmin })),
    };
  }
}
