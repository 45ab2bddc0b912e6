import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  auditRecord,
  IdentityMessages,
  Subjects,
  type AuditAction,
  type AuditRecord,
  type AuditStamp,
  type Role,
  type UserDeletedEvent,
} from '@district/contracts';
import {
  OutboxService,
  PLATFORM_LOGGER,
  SessionStateStore,
  canonicalUuid,
  mapUniqueViolation,
  type AuthUser,
  type Logger,
} from '@district/nest-common';
import { AuditLogRepository } from '../audit/audit-log.repository';
import {
  AccountTakenError,
  NotManagedUserError,
  SelfChangeError,
  UserNotFoundError,
} from '../identity.errors';
import { PasswordHasher } from './password-hasher.service';
import type { ManagedSchools } from './school-administrator.guard';
import { UserEntity } from './user.entity';
import { toUserChangedEvent, type UserChange } from './user.mapper';
import { USERS_EMAIL_KEY, USERS_USERNAME_KEY, UsersRepository, type NewUser } from './users.repository';

/** A lost race for an email or username: the same 409 as the pre-check gives (indexes of migration 1732320000000). */
const ACCOUNT_TAKEN = {
  [USERS_EMAIL_KEY]: () => new AccountTakenError('email'),
  [USERS_USERNAME_KEY]: () => new AccountTakenError('username'),
};

/** A district administrator's changes reach everyone; a school administrator's only their schools' people. */
const EVERYONE: ManagedSchools = { all: true };

/**
 * Users and every change to them. A change that live sessions must notice (approval, role, admin flag,
 * password, deletion) bumps the token version and enqueues its event in one transaction, and writes the new
 * version to the shared session state while holding the row lock, so every service refuses older tokens on
 * the very next request.
 */
@Injectable()
export class UsersService {
  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(SessionStateStore) private readonly sessions: SessionStateStore,
    @Inject(PasswordHasher) private readonly passwords: PasswordHasher,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(AuditLogRepository) private readonly auditLog: AuditLogRepository,
  ) {}

  /**
   * Creates a user and enqueues identity.user.created. `within` runs in the same transaction (e.g. linking
   * an external identity). A taken email or username throws AccountTakenError, even when racing another insert.
   */
  async create(
    input: NewUser,
    within?: (manager: EntityManager, user: UserEntity) => Promise<void>,
  ): Promise<UserEntity> {
    const passwordHash = input.password === null ? null : await this.passwords.hash(input.password);
    try {
      const user = await this.dataSource.transaction(async (manager) => {
        const created = await this.insert(manager, input, passwordHash, false);
        if (!created) throw new Error('insert returned no row');
        await within?.(manager, created);
        return created;
      });
      await this.sessions.setVersion(user.id, user.tokenVersion);
      return user;
    } catch (error) {
      throw mapUniqueViolation(error, ACCOUNT_TAKEN) ?? error;
    }
  }

  /** Creates the user unless one with the same id, email or username exists (seeding; safe for racing replicas). */
  async createIfAbsent(input: NewUser): Promise<UserEntity | null> {
    const passwordHash = input.password === null ? null : await this.passwords.hash(input.password);
    const user = await this.dataSource.transaction((manager) =>
      this.insert(manager, input, passwordHash, true),
    );
    if (user) await this.sessions.setVersion(user.id, user.tokenVersion);
    return user;
  }

  setApproval(
    actor: AuthUser,
    id: string,
    approved: boolean,
    ip: string | null = null,
    scope: ManagedSchools = EVERYONE,
  ): Promise<UserEntity> {
    const audit = audited(actor, ip, approved ? 'user.approved' : 'user.suspended');
    return this.change(id, scope, audit, (user) => {
      // Suspending oneself would drop one's own admin rights (ADR 0011): as with the admin flag, not by oneself.
      if (!approved && isSelf(actor, user))
        throw new SelfChangeError(IdentityMessages.cannotSuspendOwnAccount);
      if (user.approved === approved) return [];
      user.approved = approved;
      return ['approval'];
    });
  }

  setRole(
    actor: AuthUser,
    id: string,
    role: Role,
    ip: string | null = null,
    scope: ManagedSchools = EVERYONE,
  ): Promise<UserEntity> {
    return this.change(id, scope, audited(actor, ip, 'user.role_changed', { role }), (user) => {
      if (isSelf(actor, user)) throw new SelfChangeError(IdentityMessages.cannotChangeOwnRole);
      if (user.role === role) return [];
      user.role = role;
      return ['role'];
    });
  }

  setAdmin(actor: AuthUser, id: string, isAdmin: boolean, ip: string | null = null): Promise<UserEntity> {
    const audit = audited(actor, ip, isAdmin ? 'user.admin_granted' : 'user.admin_revoked');
    return this.change(id, EVERYONE, audit, (user) => {
      if (isSelf(actor, user)) throw new SelfChangeError(IdentityMessages.cannotChangeOwnAdmin);
      if (user.isAdmin === isAdmin) return [];
      user.isAdmin = isAdmin;
      return ['admin'];
    });
  }

  /** Approval and admin flag together, as the bootstrapped administrator needs. */
  promoteToAdmin(id: string): Promise<UserEntity> {
    // Bootstrap (ADMIN_EMAIL at start): no administrator acts, so nothing to audit.
    return this.change(id, EVERYONE, null, (user) => {
      const changed: UserChange[] = [];
      if (!user.isAdmin) changed.push('admin');
      if (!user.approved) changed.push('approval');
      user.isAdmin = true;
      user.approved = true;
      return changed;
    });
  }

  /** Sets a new password and ends every existing session of that user; `by` is the administrator, audited. */
  async resetPassword(
    id: string,
    newPassword: string,
    by?: AuditStamp,
    scope: ManagedSchools = EVERYONE,
  ): Promise<UserEntity> {
    if (!(await this.users.findById(id))) throw new UserNotFoundError();
    const passwordHash = await this.passwords.hash(newPassword);
    const audit = by ? (user: UserEntity) => auditRecord(by, 'user.password_reset', userTarget(user)) : null;
    return this.change(id, scope, audit, (user) => {
      user.passwordHash = passwordHash;
      return ['password'];
    });
  }

  async remove(
    actor: AuthUser,
    id: string,
    ip: string | null = null,
    scope: ManagedSchools = EVERYONE,
  ): Promise<void> {
    const userId = await this.underLock(id, scope, async (manager, user) => {
      if (isSelf(actor, user)) throw new SelfChangeError(IdentityMessages.cannotDeleteOwnAccount);
      await this.users.delete(manager, user.id);
      await this.auditLog.append(manager, 'identity', audited(actor, ip, 'user.deleted')(user));
      await this.outbox.enqueue(manager, Subjects.identityUserDeleted, {
        userId: user.id,
      } satisfies UserDeletedEvent);
      await this.sessions.markDeleted(user.id);
      return user.id;
    });
    this.logger.info({ userId, by: actor.id }, 'user deleted');
  }

  /** Inserts in `manager`'s transaction and enqueues identity.user.created there; null when `ifAbsent` met a clash. */
  private async insert(
    manager: EntityManager,
    input: NewUser,
    passwordHash: string | null,
    ifAbsent: boolean,
  ): Promise<UserEntity | null> {
    const user = await this.users.insert(manager, input, passwordHash, ifAbsent);
    if (!user) return null;
    await this.outbox.enqueue(manager, Subjects.identityUserCreated, toUserChangedEvent(user, ['created']));
    this.logger.info({ userId: user.id }, 'user created');
    return user;
  }

  /**
   * Applies `mutate` under a row lock; it returns what changed (nothing: no version bump, no event, no audit).
   * An administrator's change is appended to the audit log in the same transaction (`audit`).
   */
  private change(
    id: string,
    scope: ManagedSchools,
    audit: ((user: UserEntity) => AuditRecord) | null,
    mutate: (user: UserEntity) => UserChange[],
  ): Promise<UserEntity> {
    return this.underLock(id, scope, async (manager, user) => {
      const changed = mutate(user);
      if (changed.length > 0) {
        user.tokenVersion += 1;
        if (changed.includes('password')) user.sessionsValidFromVersion = user.tokenVersion;
        await this.users.save(manager, user);
        if (audit) await this.auditLog.append(manager, 'identity', audit(user));
        await this.outbox.enqueue(manager, Subjects.identityUserUpdated, toUserChangedEvent(user, changed));
        this.logger.info({ userId: user.id, changed, tokenVersion: user.tokenVersion }, 'user changed');
      }
      // Also after a no-op, so retrying a request whose state write failed repairs the shared state.
      await this.sessions.setVersion(user.id, user.tokenVersion);
      return user;
    });
  }

  /**
   * Runs `work` in a transaction holding the user's row lock. The shared session state is written inside
   * it, while the lock is held, so two concurrent changes to one user reach it in commit order (written
   * after the commit, a slower first change could overwrite the second's newer version). Should the
   * transaction then fail, the previous version is put back. A school administrator's change (`scope`) reaches only
   * a person of their schools who is not a district administrator, decided on the locked row.
   */
  private async underLock<T>(
    id: string,
    scope: ManagedSchools,
    work: (manager: EntityManager, user: UserEntity) => Promise<T>,
  ): Promise<T> {
    const canonical = canonicalUuid(id);
    if (!canonical) throw new UserNotFoundError();
    let previousVersion: number | undefined;
    try {
      return await this.dataSource.transaction(async (manager) => {
        const user = await this.users.findForUpdate(manager, canonical);
        if (!user) throw new UserNotFoundError();
        if (
          !scope.all &&
          (user.isAdmin || !(await this.users.isInSchools(manager, user.id, scope.schoolIds)))
        )
          throw new NotManagedUserError();
        previousVersion = user.tokenVersion;
        return work(manager, user);
      });
    } catch (error) {
      if (previousVersion !== undefined) {
        await this.sessions.setVersion(canonical, previousVersion).catch((err: unknown) => {
          this.logger.error(
            { err, userId: canonical },
            'could not restore the session state after a failed change',
          );
        });
      }
      throw error;
    }
  }
}

/** The audit record of an administrator's action on `user` (ADR 0021). */
function audited(
  actor: AuthUser,
  ip: string | null,
  action: AuditAction,
  details: Record<string, unknown> = {},
) {
  const stamp: AuditStamp = { actorId: actor.id, actorName: actor.name, ip };
  return (user: UserEntity): AuditRecord => auditRecord(stamp, action, userTarget(user), details);
}

const userTarget = (user: UserEntity) => ({ type: 'user' as const, id: user.id, label: user.name });

/** Self-rules compare the stored row's id with the actor's (both canonical), never a path string. */
function isSelf(actor: AuthUser, user: UserEntity): boolean {
  return canonicalUuid(actor.id) === user.id;
}
