import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Subjects, type UsersListReply, type UsersListRequest } from '@district/contracts';
import type { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';

/** Answers identity.users.list (the chat invite list) over the bus; replicas share the requests. */
@Controller()
export class UsersListResponder {
  constructor(@Inject(UsersRepository) private readonly users: UsersRepository) {}

  @MessagePattern(Subjects.identityUsersList)
  async answer({ excludeAdmins, limit, after }: UsersListRequest): Promise<UsersListReply> {
    const pick = ({ id, name, username, role, isAdmin }: UserEntity) => ({
      id,
      name,
      username,
      role,
      isAdmin,
    });
    if (limit === undefined) {
      const users = await this.users.list();
      return { users: users.filter((u) => !(excludeAdmins && u.isAdmin)).map(pick) };
    }
    const page = await this.users.page({ excludeAdmins, after, limit });
    return { users: page.map(pick), next: page.length === limit ? page[page.length - 1].id : null };
  }
}
