import type { WebSocket } from 'ws';
import {
  CHAT_RATE_MESSAGES,
  CHAT_RATE_WINDOW_MS,
  type ChatRole,
  type ChatServerEvent,
} from '@district/contracts';

/** Who is on the other end of a socket, as the session said at the upgrade. */
export interface LivePerson {
  id: string;
  role: ChatRole;
  /** Approved accounts only get a chatroom (spec: "approved users get a profile and a chatroom"). */
  approved: boolean;
  canModerate: boolean;
  tokenVersion: number;
  sessionId: string;
  /** When the session token expires (epoch ms): the socket does not outlive it. */
  expiresAt: number;
}

/** A connection's room, once joined. */
export interface Membership {
  roomId: string;
  name: string;
  seat: string;
  token: string;
  /** Live messages numbered at or below this were before the join or already sent. */
  lastSeq: number;
  /** While the join replays the log, live messages wait here (sent after, without duplicates). */
  pending: string[] | null;
  mutedUntil: number;
  slowModeSeconds: number;
}

/**
 * One WebSocket: its person, its room and its send-side limits. Frames go out as buffers built once per message
 * (every member of a room gets the same bytes). A client that does not read is cut off once its unsent bytes
 * pass `sendBufferMax`, before the replica's memory grows without bound.
 */
export class LiveConnection {
  membership: Membership | null = null;
  alive = true;
  closing = false;
  /** Token bucket: up to CHAT_RATE_MESSAGES at once, refilled at CHAT_RATE_MESSAGES per CHAT_RATE_WINDOW_MS. */
  private tokens = CHAT_RATE_MESSAGES;
  private refilledAt: number | null = null;

  constructor(
    readonly ws: WebSocket,
    readonly person: LivePerson,
    private readonly sendBufferMax: number,
    private readonly onTooSlow: (connection: LiveConnection) => void,
  ) {}

  send(event: ChatServerEvent): void {
    this.sendFrame(Buffer.from(JSON.stringify(event)));
  }

  sendFrame(frame: Buffer): void {
    if (this.closing || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > this.sendBufferMax) {
      this.onTooSlow(this);
      return;
    }
    this.ws.send(frame, { binary: false });
  }

  /** Milliseconds until another message is allowed, or 0 now (and the message counted). */
  takeRateSlot(now: number): number {
    const perMs = CHAT_RATE_MESSAGES / CHAT_RATE_WINDOW_MS;
    if (this.refilledAt !== null)
      this.tokens = Math.min(CHAT_RATE_MESSAGES, this.tokens + (now - this.refilledAt) * perMs);
    this.refilledAt = now;
    // A hair of tolerance: 999 ms of refill is 0.999… tokens in floating point, not 0.9989….
    if (this.tokens >= 1 - 1e-9) {
      this.tokens = Math.max(0, this.tokens - 1);
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / perMs - 1e-6));
  }
}
