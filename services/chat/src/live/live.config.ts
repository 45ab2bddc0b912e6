import { CHAT_HISTORY_DEFAULT, CHAT_SOCKETS_PER_ACCOUNT_DEFAULT } from '@district/contracts';
import { defineConfig, envInt, envList } from '@district/nest-common';

const int = (min: number, max: number, fallback: number) => envInt(fallback, { min, max });

/**
 * chat's settings, all the live chat's (ADR 0018), read once by the root module (ChatModule) and provided under
 * LIVE_CONFIG. An empty value is unset, as everywhere (ADR 0038). The defaults suit a district; tests shorten the liveness times.
 * - CHAT_HISTORY_SIZE / CHAT_HISTORY_TTL_MINUTES: messages kept per room for catch-up, and how long after the
 *   room's last message they are kept.
 * - CHAT_SEND_BUFFER_MAX_BYTES: a client whose unsent frames exceed this is cut off (4408) instead of growing
 *   the replica's memory.
 * - CHAT_HEARTBEAT_MS: how often a replica says it is alive; its names count as taken for 3 heartbeats, so a
 *   killed replica's names come free within about 3 × this.
 * - CHAT_PING_MS: WebSocket pings; a client that misses one is dropped (dead network paths free their names).
 *   Each socket is pinged once a period, the sockets spread over it a slice a second (`Sweep`), as are the
 *   session checks below.
 * - CHAT_SESSION_CHECK_MS: how often every socket's session is checked again against the shared state, so a
 *   sign-out elsewhere (which no event announces) ends the socket too. Suspensions and deletions close at once.
 * - CHAT_ROSTER_REFRESH_MS: how often a replica reads the seats of each room it has open again, mending its roster
 *   (kept from presence events) if pub/sub lost one.
 * - CHAT_MAX_SOCKETS_PER_ACCOUNT: open chat sockets one account may hold across every replica (a few tabs); one
 *   more is closed with 4429 and says why.
 * - GATEWAY_ALLOWED_ORIGINS: origins besides the public URL's whose pages may open the socket (the gateway's list).
 */
export const chatConfig = defineConfig('chat', {
  CHAT_HISTORY_SIZE: int(1, 10_000, CHAT_HISTORY_DEFAULT),
  CHAT_HISTORY_TTL_MINUTES: int(1, 7 * 24 * 60, 24 * 60),
  CHAT_SEND_BUFFER_MAX_BYTES: int(64 * 1024, 64 * 1024 * 1024, 1024 * 1024),
  CHAT_HEARTBEAT_MS: int(100, 60_000, 5_000),
  CHAT_PING_MS: int(100, 300_000, 30_000),
  CHAT_SESSION_CHECK_MS: int(100, 3_600_000, 60_000),
  CHAT_ROSTER_REFRESH_MS: int(1_000, 3_600_000, 30_000),
  CHAT_MAX_SOCKETS_PER_ACCOUNT: int(1, 100, CHAT_SOCKETS_PER_ACCOUNT_DEFAULT),
  GATEWAY_ALLOWED_ORIGINS: envList(),
});

export type LiveConfig = ReturnType<typeof chatConfig.load>;

export const LIVE_CONFIG = chatConfig.token;
