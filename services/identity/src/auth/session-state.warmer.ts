import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_LOGGER, SessionStateStore, type Logger } from '@district/nest-common';
import { UsersRepository } from '../users/users.repository';
import { RevokedSessionsRepository } from './revoked-sessions.repository';

/** How often identity checks that the shared store still holds the session state. */
export const SESSION_STATE_CHECK_MS = 2000;

/**
 * Restores the shared session state — every user's token version and every live sign-out — from identity's
 * database whenever the store has lost it (a fresh in-memory store in standalone, a Redis without persistence
 * restarted). Until it is restored, guards refuse to decide (503), because a missing entry no longer means "valid".
 *
 * It skips the restore while the marker is there: each replica starting in a rolling deploy would otherwise
 * overwrite the store with versions read a moment earlier, undoing a change an admin made in between.
 */
@Injectable()
export class SessionStateWarmer implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(RevokedSessionsRepository) private readonly revoked: RevokedSessionsRepository,
    @Inject(SessionStateStore) private readonly sessions: SessionStateStore,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.restoreIfLost();
    this.timer = setInterval(() => {
      this.restoreIfLost().catch((err: unknown) =>
        this.logger.error({ err }, 'session state restore failed'),
      );
    }, SESSION_STATE_CHECK_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One restore at a time per process. */
  restoreIfLost(): Promise<void> {
    this.running ??= this.restore().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async restore(): Promise<void> {
    if (await this.sessions.isRestored()) return;
    let users = 0;
    for await (const versions of this.users.tokenVersions()) {
      await this.sessions.warm(versions);
      users += Object.keys(versions).length;
    }
    const signedOut = await this.revoked.live();
    for (const session of signedOut)
      await this.sessions.revokeSession(session.sid, session.expiresAt.getTime());
    // Written last, so a replica that dies half-way leaves the next one to restore again.
    await this.sessions.markRestored();
    this.logger.info({ users, signedOut: signedOut.length }, 'session state restored');
  }
}
