import {
  ForbiddenException,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { IdentityMessages, type Chatroom } from '@district/contracts';
import { RosterScope, type AuthUser, type RequestWithUser } from '@district/nest-common';
import { ChatroomNotFoundError, NotClassManagerError } from '../chat.errors';
import { ChatroomsRepository } from './chatrooms.repository';

/**
 * Who manages which chatrooms (spec §7, issue #36), decided from chat's own rows (its rooms and its roster
 * projection), never from what the client sends:
 * - a district administrator (isAdmin on an approved account) manages every room, as the spec's admin does;
 * - a class's teachers and its school's administrators manage that class's rooms (RosterScope.managesClass):
 *   they may make one (`classId`), list, change and delete it;
 * - nobody else manages anything. A person who manages no class at all (a student, a pending account, any teacher
 *   of an installation without classes) is refused every management route with the spec's admin 403 before the
 *   body is read; someone who manages some class but not the one asked gets 403 'Only the class's teachers…'.
 *   A room id no room has answers 404 to both.
 */
@Injectable()
export class ChatroomAccess {
  constructor(
    @Inject(RosterScope) private readonly roster: RosterScope,
    @Inject(ChatroomsRepository) private readonly chatrooms: ChatroomsRepository,
  ) {}

  /** Whether the person may use the management routes at all: a district administrator or a class's manager. */
  async managesAny(user: AuthUser): Promise<boolean> {
    if (user.isAdmin) return true;
    if (!user.approved) return false;
    const scope = await this.roster.scopeOf(user);
    // `all` for a non-administrator is an installation without classes: the spec's admin-only routes.
    return !scope.all && scope.classIds.length + scope.schoolIds.length > 0;
  }

  /** The rooms the management table lists: every room, or the rooms of the classes the person manages. */
  async list(user: AuthUser): Promise<Chatroom[]> {
    if (user.isAdmin) return this.chatrooms.listAll();
    const scope = await this.roster.scopeOf(user);
    if (scope.all) return [];
    return this.chatrooms.listForClasses(scope.classIds, scope.schoolIds);
  }

  /** A new room: any for a district administrator, else only a room for a class the person manages. */
  async checkCreate(user: AuthUser, classId: string | undefined): Promise<void> {
    if (user.isAdmin) return;
    if (classId === undefined) throw new ForbiddenException(IdentityMessages.adminRequired);
    if (!(await this.roster.managesClass(user, classId))) throw new NotClassManagerError();
  }

  /** A change or deletion of room `id` (canonical): any room for a district administrator, else a managed class's. */
  async checkChange(user: AuthUser, id: string): Promise<void> {
    if (user.isAdmin) return;
    const room = await this.chatrooms.findById(id);
    if (!room) throw new ChatroomNotFoundError();
    if (room.classId === undefined || !(await this.roster.managesClass(user, room.classId)))
      throw new NotClassManagerError();
  }
}

/** The management routes' door: a district administrator or the manager of some class, else the spec's 403. */
@Injectable()
export class ChatroomManagersGuard implements CanActivate {
  constructor(@Inject(ChatroomAccess) private readonly access: ChatroomAccess) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const user = context.switchToHttp().getRequest<RequestWithUser>().user;
    if (!user || !(await this.access.managesAny(user)))
      throw new ForbiddenException(IdentityMessages.adminRequired);
    return true;
  }
}
