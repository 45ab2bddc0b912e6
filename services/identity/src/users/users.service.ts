import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import {
  IdentityMessages,
  Subjects,
  type Role,
  type UserChangedEvent,
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
import { AccountTakenError, SelfChangeError, UserNotFoundError } from '../identity.errors';
import { PasswordHasher } from './password-hasher.service';
import { UserEntity } from './user.entity';
import { toUser } from './user.mapper';

export type UserChange = UserChangedEvent['changed'][number];

/** A lost race for an email or username: the same 409 as the pre-check gives (indexes of migration 1732320000000). */
const ACCOUNT_TAKEN = {
  users_email_key: () => new AccountTakenError('email'),
  users_username_key: () => new AccountTakenError('username'),
};

export interface NewUser {
  /** Fixed ids are for the demo accounts; everyone else gets a random one. */
  id?: string;
  name: string;
  username: string;
  email: string;
  /** Plain text, hashed here; null for accounts that sign in only through the OpenID provider. */
  password: string | null;
  role: Role;
  approved: boolean;
  isAdmin: boolean;
  createdAt?: Date;
}

const VERSION_BATCH = 5000;

/**
 * Users and every change to them. A change that live sessions must notice (approval, role, admin flag,
 * password, deletion) bumps the token version and enqueues its event in one transaction, and writes the new
 * version to the shared session state while holding the row lock, so every service refuses older tokens on
 * the very next request.
 */
@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(SessionStateStore) private readonly sessions: SessionStateStore,
    @Inject(PasswordHasher) private readonly passwords: PasswordHasher,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  list(): Promise<UserEntity[]> {
    return this.users.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Unknown and malformed ids alike are simply not found. */
  async findById(id: string): Promise<UserEntity | null> {
    const canonical = canonicalUuid(id);
    return canonical ? this.users.findOneBy({ id: canonical }) : null;
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  /** Which unique field of a would-be account is already taken (email first), for a friendly 409. */
  async takenField(email: string, username: string): Promise<'email' | 'username' | null> {
    const rows: { email_taken: boolean; username_taken: boolean }[] = await this.users.query(
      `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1)) AS email_taken,
              EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($2)) AS username_taken`,
      [email, username],
    );
    if (rows[0]?.email_taken) return 'email';
    if (rows[0]?.username_taken) return 'username';
    return null;
  }

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
      await this.afterCommit(user.id, user.tokenVersion);
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
    if (user) await this.afterCommit(user.id, user.tokenVersion);
    return user;
  }

  setApproval(actor: AuthUser, id: string, approved: boolean): Promise<UserEntity> {
    return this.change(id, (user) => {
      // Suspending oneself would drop one's own admin rights (ADR 0011): as with the admin flag, not by oneself.
      if (!approved && isSelf(actor, user)) throw new SelfChangeError(IdentityMessages.cannotSuspendOwnAccount);
      if (user.approved === approved) return [];
      user.approved = approved;
      return ['approval'];
    });
  }

  setRole(actor: AuthUser, id: string, role: Role): Promise<UserEntity> {
    return this.change(id, (user) => {
      if (isSelf(actor, user)) throw new SelfChangeError(IdentityMessages.cannotChangeOwnRole);
      if (user.role === role) return [];
      user.role = role;
      return ['role'];
    });
  }

  setAdmin(actor: AuthUser, id: string, isAdmin: boolean): Promise<UserEntity> {
    return this.change(id, (user) => {
      if (isSelf(actor, user)) throw new SelfChangeError(IdentityMessages.cannotChangeOwnAdmin);
      if (user.isAdmin === isAdmin) return [];
      user.isAdmin = isAdmin;
      return ['admin'];
    });
  }

  /** Approval and admin flag together, as the bootstrapped administrator needs. */
  promoteToAdmin(id: string): Promise<UserEntity> {
    return this.change(id, (user) => {
      const changed: UserChange[] = [];
      if (!user.isAdmin) changed.push('admin');
      if (!user.approved) changed.push('approval');
      user.isAdmin = true;
      user.approved = true;
      return changed;
    });
  }

  /** Sets a new password and ends every existing session of that user. */
  async resetPassword(id: string, newPassword: string): Promise<UserEntity> {
    if (!(await this.findById(id))) throw new UserNotFoundError();
    const passwordHash = await this.passwords.hash(newPassword);
    return this.change(id, (user) => {
      user.passwordHash = passwordHash;
      return ['password'];
    });
  }

  async remove(actor: AuthUser, id: string): Promise<void> {
    const userId = await this.underLock(id, async (manager, user) => {
      if (isSelf(actor, user)) throw new SelfChangeError(IdentityMessages.cannotDeleteOwnAccount);
      await manager.delete(UserEntity, { id: user.id });
      await this.outbox.enqueue(manager, Subjects.identityUserDeleted, {
        userId: user.id,
      } satisfies UserDeletedEvent);
      await this.sessions.markDeleted(user.id);
      return user.id;
    });
    this.logger.info({ userId, by: actor.id }, 'user deleted');
  }

  /** Every user's token version, in batches (warming the shared session state at start). */
  async *tokenVersions(): AsyncGenerator<Record<string, number>> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: { id: string; token_version: number }[] = await this.users.query(
        `SELECT id, token_version FROM users WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, VERSION_BATCH],
      );
      if (rows.length === 0) return;
      yield Object.fromEntries(rows.map((r) => [r.id, r.token_version]));
      after = rows[rows.length - 1].id;
    }
  }

  private async insert(
    manager: EntityManager,
    input: NewUser,
    passwordHash: string | null,
    ifAbsent: boolean,
  ): Promise<UserEntity | null> {
    const id = input.id ?? randomUUID();
    const query = manager
      .createQueryBuilder()
      .insert()
      .into(UserEntity)
      .values({
        id,
        name: input.name,
        username: input.username,
        email: input.email.toLowerCase(),
        passwordHash,
        role: input.role,
        approved: input.approved,
        isAdmin: input.isAdmin,
        profileImage: null,
        tokenVersion: 1,
        sessionsValidFromVersion: 0,
        ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      })
      .returning(['id']);
    const result = await (ifAbsent ? query.orIgnore() : query).execute();
    if ((result.raw as unknown[]).length === 0) return null;
    const user = await manager.findOneByOrFail(UserEntity, { id });
    await this.outbox.enqueue(manager, Subjects.identityUserCreated, changedEvent(user, ['created']));
    this.logger.info({ userId: user.id }, 'user created');
    return user;
  }

  /** Applies `mutate` under a row lock; it returns what changed (nothing: no version bump, no event). */
  private change(id: string, mutate: (user: UserEntity) => UserChange[]): Promise<UserEntity> {
    return this.underLock(id, async (manager, user) => {
      const changed = mutate(user);
      if (changed.length > 0) {
        user.tokenVersion += 1;
        if (changed.includes('password')) user.sessionsValidFromVersion = user.tokenVersion;
        await manager.save(user);
        await this.outbox.enqueue(manager, Subjects.identityUserUpdated, changedEvent(user, changed));
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
   * transaction then fail, the previous version is put back.
   */
  private async underLock<T>(
    id: string,
    work: (manager: EntityManager, user: UserEntity) => Promise<T>,
  ): Promise<T> {
    const canonical = canonicalUuid(id);
    if (!canonical) throw new UserNotFoundError();
    let previousVersion: number | undefined;
    try {
      const result = await this.dataSource.transaction(async (manager) => {
        const user = await manager.findOne(UserEntity, {
          where: { id: canonical },
          lock: { mode: 'pessimistic_write' },
        });
        if (!user) throw new UserNotFoundError();
        previousVersion = user.tokenVersion;
        return work(manager, user);
      });
      return result;
    } catch (error) {
      if (previousVersion !== undefined) {
        await this.sessions.setVersion(canonical, previousVersion).catch((err: unknown) => {
          this.logger.error({ err, userId: canonical }, 'could not restore the session state after a failed change');
        });
      }
      throw error;
    }
  }

  private async afterCommit(userId: string, tokenVersion: number): Promise<void> {
    await this.sessions.setVersion(userId, tokenVersion);
  }
}

/** Self-rules compare the stored row's id with the actor's (both canonical), never a path string. */
function isSelf(actor: AuthUser, user: UserEntity): boolean {
  return canonicalUuid(actor.id) === user.id;
}

function changedEvent(user: UserEntity, changed: UserChange[]): UserChangedEvent {
  return { user: toUser(user), tokenVersion: user.tokenVersion, changed };
}
