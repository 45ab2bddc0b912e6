import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  EPHEMERAL_STORE,
  PLATFORM_LOGGER,
  SessionStateStore,
  type EphemeralStore,
  type Logger,
} from '@district/nest-common';
import { UsersService } from '../users/users.service';

/** Present while the shared store still holds what the last warm-up wrote. */
const WARMED_MARKER = 'identity:session-state:warmed';

/**
 * Fills the shared session state with every user's token version when the store has lost it (a fresh
 * in-memory store in standalone, a Redis without persistence restarted); without this, tokens made stale
 * before the loss would pass every guard until they expire.
 *
 * It skips the warm-up while the marker is there: each replica starting in a rolling deploy would otherwise
 * overwrite the store with versions read a moment earlier, undoing a change an admin made in between.
 */
@Injectable()
export class SessionStateWarmer implements OnApplicationBootstrap {
  constructor(
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(SessionStateStore) private readonly sessions: SessionStateStore,
    @Inject(EPHEMERAL_STORE) private readonly store: EphemeralStore,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (await this.store.get(WARMED_MARKER)) return;
    let count = 0;
    for await (const versions of this.users.tokenVersions()) {
      await this.sessions.warm(versions);
      count += Object.keys(versions).length;
    }
    // Written last, so a replica that dies half-way leaves the next one to warm up again.
    await this.store.set(WARMED_MARKER, new Date().toISOString());
    this.logger.info({ users: count }, 'session state warmed');
  }
}
