import { Inject, Injectable } from '@nestjs/common';
import {
  Subjects,
  usersListReplySchema,
  type InvitableUser,
  type UsersListRequest,
} from '@district/contracts';
import {
  BusRequestError,
  EVENT_BUS,
  PLATFORM_LOGGER,
  type EventBus,
  type Logger,
} from '@district/nest-common';
import { UsersUnavailableError } from '../chat.errors';

/** How long the admin screen waits for identity's answer before being told to try again. */
export const USERS_REQUEST_TIMEOUT_MS = 3_000;

/**
 * The people an admin may invite to a room: every user but administrators (spec §6), asked of identity over the
 * bus (`identity.users.list`, request/reply), since chat keeps no copy of the user list. Asked afresh each time
 * the screen opens: the list is short-lived and identity answers from one indexed query.
 */
@Injectable()
export class InvitableUsersService {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async list(): Promise<InvitableUser[]> {
    let answer: unknown;
    try {
      answer = await this.bus.request(
        Subjects.identityUsersList,
        { excludeAdmins: true } satisfies UsersListRequest,
        USERS_REQUEST_TIMEOUT_MS,
      );
    } catch (error) {
      if (!(error instanceof BusRequestError)) throw error;
      this.logger.warn({ err: error, code: error.code }, 'identity did not answer the invite list request');
      throw new UsersUnavailableError();
    }
    const reply = usersListReplySchema.safeParse(answer);
    if (!reply.success) {
      this.logger.error(
        { issues: reply.error.issues.slice(0, 5) },
        'identity answered the invite list request out of contract',
      );
      throw new UsersUnavailableError();
    }
    return (
      reply.data.users
        // identity already leaves administrators out; checked again so an older replica cannot leak them.
        .filter((user) => !user.isAdmin)
        .map(({ id, name, username, role }) => ({ id: id.toLowerCase(), name, username, role }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.username.localeCompare(b.username, 'en'))
    );
  }
}
