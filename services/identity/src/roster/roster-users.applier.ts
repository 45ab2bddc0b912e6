import { createHmac, hkdfSync, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { emailSchema, Subjects } from '@district/contracts';
import { PLATFORM_RUNTIME, type PlatformRuntime } from '@district/nest-common';
import { PasswordHasher } from '../users/password-hasher.service';
import { toUserChangedEvent, type UserChange } from '../users/user.mapper';
import { usernameBase } from '../users/username';
import { UsersRepository } from '../users/users.repository';
import type { Batch } from './roster-batch';
import { parseBoolean, parseStatus, rowHash, type RosterLine } from './roster-files';
import { RosterUsersRepository, type RosteredUser } from './roster-users.repository';

/** argon2id runs in libuv's pool: a few at once use the cores without starving the service. */
const HASHING_CONCURRENCY = 4;

/** A users.csv row read and checked, ready to compare with its account. */
interface Person {
  line: RosterLine;
  sourcedId: string;
  name: string;
  username: string;
  email: string;
  password: string;
  approved: boolean;
  active: boolean;
  hash: string;
}

/**
 * users.csv: each row an account, found by its sourcedId only (an account holding the same email without that
 * sourcedId is never adopted: that row is a "duplicate email" error). Accounts are inserted and saved through
 * UsersRepository and announced as identity.user.created/updated with the same mapper as every other change;
 * approval changes (enabledUser, tobedeleted) are left on the batch for UsersService.setApproval after the commit,
 * the administrator's own suspend. isAdmin is never read or written here.
 */
@Injectable()
export class RosterUsersApplier {
  /**
   * The key of the password digests kept in row hashes (to tell an unchanged password without argon2): derived from
   * identity's signing key, so a copy of the database alone gives no fast hash of anyone's password to guess at.
   */
  private readonly digestKey: Buffer;

  constructor(
    @Inject(RosterUsersRepository) private readonly rostered: RosterUsersRepository,
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(PasswordHasher) private readonly passwords: PasswordHasher,
    @Inject(PLATFORM_RUNTIME) runtime: PlatformRuntime,
  ) {
    const secret = runtime.keys.privateKeyPem;
    if (!secret)
      throw new Error('identity needs its private signing key (AUTH_PRIVATE_KEY) to import rosters');
    this.digestKey = Buffer.from(hkdfSync('sha256', secret, 'district', 'roster-password-digest', 32));
  }

  async apply(tx: EntityManager, batch: Batch): Promise<void> {
    const people = this.read(batch);
    const stored = await this.rostered.bySourcedId(
      tx,
      people.map((p) => p.sourcedId),
    );
    const holders = await this.rostered.holders(
      tx,
      people.map((p) => p.email),
      people.map((p) => p.username),
    );
    const claimed = { emails: new Map<string, number>(), usernames: new Map<string, number>() };
    const changed: { person: Person; before: RosteredUser | undefined }[] = [];
    for (const person of people) {
      const before = stored.get(person.sourcedId);
      const emailHolder = holders.emails.get(person.email);
      const usernameHolder = holders.usernames.get(person.username);
      const emailLine = claimed.emails.get(person.email);
      const usernameLine = claimed.usernames.get(person.username);
      if ((emailHolder && emailHolder !== before?.id) || emailLine !== undefined) {
        batch.error(
          person.line,
          'email',
          emailLine === undefined
            ? `duplicate email ${person.email}: another account has it`
            : `duplicate email ${person.email} (also on line ${emailLine})`,
        );
        continue;
      }
      if ((usernameHolder && usernameHolder !== before?.id) || usernameLine !== undefined) {
        batch.error(person.line, 'username', `username ${person.username} is taken by another account`);
        continue;
      }
      claimed.emails.set(person.email, person.line.line);
      claimed.usernames.set(person.username, person.line.line);
      if (before ? before.row_hash === person.hash : !person.active) continue;
      changed.push({ person, before });
    }
    const hashes = await this.hashPasswords(changed);
    await this.create(
      tx,
      batch,
      changed.filter((c) => !c.before).map((c) => c.person),
      hashes,
    );
    for (const { person, before } of changed)
      if (before) await this.update(tx, batch, person, before, hashes.get(person));
  }

  /** The rows' own checks; a row failing one is skipped with its reason. */
  private read(batch: Batch): Person[] {
    const people: Person[] = [];
    for (const line of batch.valid()) {
      const { row } = line;
      const enabled = parseBoolean(row.enabledUser);
      if (enabled === null) {
        batch.error(line, 'enabledUser', `bad enabledUser "${row.enabledUser}": it must be true or false`);
        continue;
      }
      if (!row.email) {
        batch.error(line, 'email', 'missing email: a person signs in with their email');
        continue;
      }
      const email = emailSchema.safeParse(row.email);
      if (!email.success) {
        batch.error(line, 'email', `bad email "${row.email}"`);
        continue;
      }
      const active = parseStatus(row.status) === 'active';
      const name = `${row.givenName} ${row.familyName}`.slice(0, 120);
      const username = usernameBase(row.username);
      // The password itself is never kept, not even in the row hash: a keyed digest (HMAC) stands for it. A plain
      // sha-256 would hand whoever copies the table a fast hash of each pupil's password to guess against.
      const passwordSha = row.password
        ? createHmac('sha256', this.digestKey).update(row.password).digest('hex')
        : '';
      people.push({
        line,
        sourcedId: row.sourcedId,
        name,
        username,
        email: email.data,
        password: row.password,
        approved: enabled && active,
        active,
        hash: rowHash([name, username, email.data, enabled, passwordSha, active]),
      });
    }
    return people;
  }

  /** The batch's new accounts, in one statement; identity.user.created for each, as UsersService announces one. */
  private async create(
    tx: EntityManager,
    batch: Batch,
    people: readonly Person[],
    hashes: Map<Person, string>,
  ): Promise<void> {
    const byId = new Map<string, Person>(people.map((p) => [randomUUID(), p]));
    const created = await this.rostered.insertMany(
      tx,
      [...byId].map(([id, p]) => ({
        id,
        name: p.name,
        username: p.username,
        email: p.email,
        passwordHash: hashes.get(p) ?? null,
        approved: p.approved,
        sourcedId: p.sourcedId,
        hash: p.hash,
      })),
    );
    for (const user of created) {
      byId.delete(user.id);
      batch.events.push([Subjects.identityUserCreated, toUserChangedEvent(user, ['created'])]);
      batch.versions.push({ userId: user.id, tokenVersion: user.tokenVersion });
      batch.roleCheck.add(user.id);
      batch.counts.created++;
    }
    // Taken meanwhile by someone else (a registration racing the import).
    for (const person of byId.values())
      batch.error(person.line, 'email', `duplicate email ${person.email}: another account has it`);
  }

  /** `passwordHash`: the new hash when the row's password is not the account's (undefined: no password given). */
  private async update(
    tx: EntityManager,
    batch: Batch,
    person: Person,
    before: RosteredUser,
    passwordHash: string | null | undefined,
  ): Promise<void> {
    const user = await this.users.findForUpdate(tx, before.id);
    if (!user) return;
    const changes: UserChange[] = [];
    if (user.name !== person.name) {
      user.name = person.name;
      changes.push('name');
    }
    if (user.username.toLowerCase() !== person.username || user.email !== person.email) {
      user.username = person.username;
      user.email = person.email;
      changes.push('profile');
    }
    if (passwordHash) {
      user.passwordHash = passwordHash;
      changes.push('password');
    }
    if (changes.length > 0) {
      user.tokenVersion += 1;
      if (changes.includes('password')) user.sessionsValidFromVersion = user.tokenVersion;
      await this.users.save(tx, user);
      batch.events.push([Subjects.identityUserUpdated, toUserChangedEvent(user, changes)]);
      batch.versions.push({ userId: user.id, tokenVersion: user.tokenVersion });
    }
    await this.rostered.setHash(tx, user.id, person.hash);
    if (user.approved !== person.approved)
      batch.approvals.push({ userId: user.id, approved: person.approved });
    batch.roleCheck.add(user.id);
    if (user.approved && !person.approved) batch.counts.deactivated++;
    else if (changes.length > 0 || user.approved !== person.approved) batch.counts.updated++;
  }

  /**
   * The argon2id hashes the changed rows need: a new account's password, or a changed row whose password is not
   * the account's (checked against the stored hash, so a row changed for its name keeps the sessions). Unchanged
   * rows are never here, so a re-import hashes nothing.
   */
  private async hashPasswords(
    changed: readonly { person: Person; before: RosteredUser | undefined }[],
  ): Promise<Map<Person, string>> {
    const hashes = new Map<Person, string>();
    const work = changed.filter((c) => c.person.password);
    let next = 0;
    const worker = async () => {
      while (next < work.length) {
        const { person, before } = work[next++];
        if (before) {
          const current = (await this.users.findById(before.id))?.passwordHash;
          if (current && (await this.passwords.verify(current, person.password))) continue;
        }
        hashes.set(person, await this.passwords.hash(person.password));
      }
    };
    await Promise.all(Array.from({ length: HASHING_CONCURRENCY }, worker));
    return hashes;
  }
}
