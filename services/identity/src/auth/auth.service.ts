import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  DEMO_ACCOUNTS,
  Subjects,
  demoAccount,
  quickLoginRequestSchema,
  registerRequestSchema,
  type LoginRequest,
  type SessionEndedEvent,
} from '@district/contracts';
import {
  OutboxService,
  PLATFORM_LOGGER,
  type CheckedSession,
  SessionStateStore,
  sessionEnd,
  TokenService,
  type Logger,
  type VerifiedToken,
} from '@district/nest-common';
import type { z } from 'zod';
import {
  AccountTakenError,
  InvalidCredentialsError,
  NotDemoAccountError,
  UserNotFoundError,
} from '../identity.errors';
import { PasswordHasher } from '../users/password-hasher.service';
import type { UserEntity } from '../users/user.entity';
import { sessionIsAdmin } from '../users/user.mapper';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { LoginThrottle } from './login-throttle.service';
import { RevokedSessionsRepository } from './revoked-sessions.repository';

export type RegisterInput = z.output<typeof registerRequestSchema>;
export type QuickLoginChoice = z.output<typeof quickLoginRequestSchema>;

export interface ResumedSession {
  user: UserEntity;
  sessionId: string;
  /** Carried into the refreshed token, so refreshing never extends the session's absolute lifetime. */
  sessionStartedAt: number;
  /** The token no longer says what is true of the user, or is old enough to slide forward. */
  needsNewToken: boolean;
}

/** /me re-signs a current token only after this long, so frequent calls do not each pay for a signature. */
export const TOKEN_REFRESH_AFTER_SECONDS = 10 * 60;

function claimsMatch(claims: VerifiedToken, user: UserEntity): boolean {
  return (
    claims.tv === user.tokenVersion &&
    claims.role === user.role &&
    claims.approved === user.approved &&
    claims.isAdmin === sessionIsAdmin(user) &&
    claims.name === user.name &&
    claims.username === user.username &&
    claims.email === user.email
  );
}

/** Signing in and out, registering, and resuming a session at /me. Cookies are the controller's business. */
@Injectable()
export class AuthService {
  constructor(
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(UsersRepository) private readonly usersRepository: UsersRepository,
    @Inject(PasswordHasher) private readonly passwords: PasswordHasher,
    @Inject(LoginThrottle) private readonly throttle: LoginThrottle,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(SessionStateStore) private readonly sessions: SessionStateStore,
    @Inject(RevokedSessionsRepository) private readonly revoked: RevokedSessionsRepository,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxService) private readonly outbox: OutboxService,
  ) {}

  /** Unknown email and wrong password look the same, in answer and in time. */
  async login(credentials: LoginRequest, address: string): Promise<UserEntity> {
    const attempt = await this.throttle.begin(credentials.email, address);
    const user = await this.usersRepository.findByEmail(credentials.email);
    const valid = user?.passwordHash
      ? await this.passwords.verify(user.passwordHash, credentials.password)
      : await this.passwords.verifyNothing(credentials.password);
    // A failure needs no bookkeeping: begin() counted the attempt, and only a success is forgiven.
    if (!user || !valid) {
      this.logger.info({ address }, 'sign-in failed');
      throw new InvalidCredentialsError();
    }
    await this.throttle.succeeded(attempt);
    this.logger.info({ userId: user.id }, 'signed in');
    return user;
  }

  /**
   * New accounts are unapproved students or teachers; an admin approves them. Counted per address before the
   * taken-check, so probing which emails exist is limited too.
   */
  async register(input: RegisterInput, address: string): Promise<UserEntity> {
    await this.throttle.registration(address);
    const taken = await this.usersRepository.takenField(input.email, input.username);
    if (taken) throw new AccountTakenError(taken);
    return this.users.create({
      name: input.name,
      username: input.username,
      email: input.email,
      password: input.password,
      role: input.role,
      approved: false,
      isAdmin: false,
    });
  }

  /**
   * The session the guard checked (its token and that token's state, from one look at the shared state), if
   * it may continue: well signed, unexpired, not signed out, its user still there, and issued after the
   * user's last password reset. A token made stale by an approval, role or admin
   * change does continue here (the fresh token then carries the new state); every other route refuses it.
   */
  async resume(checked: CheckedSession | undefined): Promise<ResumedSession | null> {
    if (!checked || checked.state === 'revoked') return null;
    const { claims, state } = checked;
    // A current token names the user's current version, whose row may already be in memory; a stale one
    // (the user changed since it was signed) is refreshed from the database.
    const user =
      state === 'valid'
        ? await this.usersRepository.findAtVersion(claims.sub, claims.tv)
        : await this.usersRepository.findById(claims.sub);
    if (!user || claims.tv < user.sessionsValidFromVersion) return null;
    const age = Date.now() / 1000 - claims.iat;
    return {
      user,
      sessionId: claims.sid,
      sessionStartedAt: claims.sst,
      needsNewToken: age >= TOKEN_REFRESH_AFTER_SECONDS || !claimsMatch(claims, user),
    };
  }

  /**
   * The demo account a quick sign-in asks for (teacher by default). Never anyone else: an email must be a demo
   * account's, and never an administrator — neither the demo admin nor a demo account an admin has since promoted
   * (the stored row decides).
   */
  async demoAccount(choice: QuickLoginChoice): Promise<UserEntity> {
    const email = choice.email?.toLowerCase();
    const account = email
      ? DEMO_ACCOUNTS.find((a) => a.email === email)
      : demoAccount(choice.type ?? 'teacher');
    if (!account || account.isAdmin) throw new NotDemoAccountError();
    const user = await this.usersRepository.findByEmail(account.email);
    if (!user) throw new UserNotFoundError();
    if (user.isAdmin) throw new NotDemoAccountError();
    return user;
  }

  /**
   * Sign-out: the session — this token and every copy /me refreshed from it — is refused everywhere until its
   * absolute lifetime ends. Written to the database first, so a restart of the shared store cannot undo it, with
   * identity.session.ended in the same transaction: what stays open on the session elsewhere (chat sockets) is
   * closed when it arrives, not at its next check (ADR 0031).
   */
  async logout(token: string | undefined): Promise<void> {
    const claims: VerifiedToken | null = await this.tokens.verify(token);
    if (!claims) return;
    const until = new Date(sessionEnd(claims.sst) * 1000);
    const ended: SessionEndedEvent = { userId: claims.sub.toLowerCase(), sessionId: claims.sid };
    await this.dataSource.transaction(async (tx) => {
      await this.revoked.add(claims.sid, until, tx);
      await this.outbox.enqueue(tx, Subjects.identitySessionEnded, ended);
    });
    await this.sessions.revokeSession(claims.sid, until.getTime());
    this.logger.info({ userId: claims.sub }, 'signed out');
  }
}
