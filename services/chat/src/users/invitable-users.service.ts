import { Inject, Injectable } from '@nestjs/common';
import {
  Subjects,
  USERS_LIST_PAGE_MAX,
  usersListReplySchema,
  type InvitableUser,
  type UsersListReply,
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

/** How long the admin screen waits for each of identity's answers before being told to try again. */
export const USERS_REQUEST_TIMEOUT_MS = 3_000;
/** People per answer: ~500 × ~150 bytes stays far under NATS's 1 MB message limit. */
export const USERS_PAGE_SIZE = Math.min(500, USERS_LIST_PAGE_MAX);
/** Pages asked at most (250,000 people): a safety stop should identity keep answering `next`. */
const MAX_PAGES = 500;

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
    const users: UsersListReply['users'] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const reply = await this.page(after);
      users.push(...reply.users);
      // An identity replica from before paging answers everyone at once, without `next`.
      if (!reply.next || reply.users.length === 0) break;
      after = reply.next;
    }
    return (
      users
        // identity already leaves administrators out; checked again so an older replica cannot leak them.
        .filter((user) => !user.isAdmin)
        .map(({ id, name, username, role }) => ({ id: id.toLowerCase(), name, username, role }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.username.localeCompare(b.username, 'en'))
    );
  }

  /** One of identity's pages (request/reply), checked against the contract. */
  private async page(after: string | undefined): Promise<UsersListReply> {
    let answer: unknown;
    try {
      answer = await this.bus.request(
        Subjects.identityUsersList,
        {
          excludeAdmins: true,
          limit: USERS_PAGE_SIZE,
          ...(after ? { after } : {}),
        } satisfies UsersListRequest,
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
    return reply.data;
  }
}
