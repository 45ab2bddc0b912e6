import {
  CHAT_PRESENCE_BURST,
  CHAT_PRESENCE_COALESCE_MS,
  CHAT_PRESENCE_INTERVAL_MS,
  CHAT_RATE_MESSAGES,
  CHAT_RATE_WINDOW_MS,
  type ChatPresenceEvent,
} from '@district/contracts';
import type { EphemeralStore } from '@district/nest-common';
import { LiveKeys } from '../live-channels';

/**
 * The live chat's limits per account (ADR 0031), kept in the shared store so that every socket of an account, on
 * every replica, takes from one budget: a hundred tabs send what one tab may.
 */
export class AccountLimits {
  constructor(private readonly store: EphemeralStore) {}

  /** 0 when the account may send a message now (and it is counted), else the ms until it may. */
  message(userId: string): Promise<number> {
    return this.store.takeToken(
      LiveKeys.rate('message', userId),
      CHAT_RATE_MESSAGES,
      CHAT_RATE_WINDOW_MS / CHAT_RATE_MESSAGES,
    );
  }

  /** The same for a join or a leave. */
  presence(userId: string): Promise<number> {
    return this.store.takeToken(
      LiveKeys.rate('presence', userId),
      CHAT_PRESENCE_BURST,
      CHAT_PRESENCE_INTERVAL_MS,
    );
  }

  /**
   * Whether the room is to be told of this arrival (or departure) as a line: the first of the account's in the
   * room within CHAT_PRESENCE_COALESCE_MS is; the others come quiet (the participants still change).
   */
  announces(roomId: string, userId: string, type: ChatPresenceEvent['type']): Promise<boolean> {
    return this.store.setIfAbsent(LiveKeys.announced(roomId, userId, type), '1', CHAT_PRESENCE_COALESCE_MS);
  }
}
