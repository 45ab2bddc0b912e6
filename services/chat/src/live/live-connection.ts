import type { Writable } from 'node:stream';
import type { WebSocket } from 'ws';
import type { ChatRole, ChatServerEvent } from '@district/contracts';

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

/** A whole server-to-client WebSocket frame, header included: what `textFrame` builds. */
export type WireFrame = Buffer & { readonly wireFrame: true };

/**
 * `payload` as one final, unmasked text frame (RFC 6455 §5.2: FIN + opcode 1, then the length in 7, 7+16 or
 * 7+64 bits). A server's frames are never masked, so every member of a room can be sent the very same bytes:
 * the frame is built once per message and replica, and each delivery is one socket write.
 */
export function textFrame(payload: string | Buffer): WireFrame {
  return frameOf([payload]);
}

/**
 * One text frame of `parts` put end to end, written straight into the frame's buffer: no string or buffer of the
 * whole payload is made first (a join's frame with its participants is ~50 KB in a room of 950).
 */
export function frameOf(parts: readonly (string | Buffer)[]): WireFrame {
  let n = 0;
  for (const part of parts) n += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  const head = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81;
  if (head === 2) frame[1] = n;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  let at = head;
  for (const part of parts) at += typeof part === 'string' ? frame.write(part, at) : part.copy(frame, at);
  return frame as WireFrame;
}

/**
 * Frames sent to one socket in one turn of the event loop go out in one write. The first goes at once (the usual
 * case: one message, one write); a second in the same turn corks the socket, and it is uncorked — the rest written
 * together — before the loop goes on (`process.nextTick`). Join and leave storms send each member many presence
 * events per turn (a turn's read from Redis holds many), which were a write each.
 */
let turn = 0;
let turnOpen = false;
const corked: Writable[] = [];

function endTurn(): void {
  turnOpen = false;
  for (const socket of corked.splice(0)) socket.uncork();
}

function currentTurn(): number {
  if (!turnOpen) {
    turnOpen = true;
    turn += 1;
    process.nextTick(endTurn);
  }
  return turn;
}

/**
 * How long a socket's presence frames (user_joined, user_left) may wait to go out together. The first after a quiet
 * spell goes at once; while one was written less than this ago, the next ones are held (the socket corked) and go in
 * one write when the hold ends, or at once with the next other frame (a message never waits, nor lets presence
 * frames overtake it). In a join or leave storm a member of a room of 950 is told of hundreds of arrivals a second:
 * a write each was most of a replica's CPU (50 % of it the sockets' writes, at 19,000 clients joining); held, it is
 * at most four writes a second.
 */
export const PRESENCE_HOLD_MS = 250;

const held: LiveConnection[] = [];
let holdTimer: NodeJS.Timeout | null = null;

function endHolds(): void {
  holdTimer = null;
  const now = Date.now();
  for (const c of held.splice(0)) c.release(now);
}

/**
 * One WebSocket: its person, its room and its send-side limits. Frames go out whole (`textFrame`), written to the
 * upgraded socket itself: ws frames nothing of ours then (a header and a cork per delivery was a fifth of a
 * delivery's CPU at 19,000 clients). That is sound because this server never compresses (perMessageDeflate off),
 * so ws's own sender writes every frame of its own (pings, closes) at once and whole too: frames cannot interleave.
 * A client that does not read is cut off once its unsent bytes pass `sendBufferMax`, before the replica's memory
 * grows without bound.
 */
export class LiveConnection {
  membership: Membership | null = null;
  /** Its place in the hub's sweeps (pings, session checks): which slice of the period visits it. */
  slot = 0;
  alive = true;
  closing = false;
  /** The turn of the loop this socket was last written in, and whether it is corked for the rest of it. */
  private writtenIn = 0;
  private corkedIn = 0;
  /** When presence frames were last written to this socket (ms), and whether some are held now (corked). */
  private presenceAt = 0;
  private holding = false;

  constructor(
    readonly ws: WebSocket,
    /** The upgraded socket `ws` runs on (perMessageDeflate must be off: see the class). */
    private readonly socket: Writable,
    readonly person: LivePerson,
    private readonly sendBufferMax: number,
    private readonly onTooSlow: (connection: LiveConnection) => void,
  ) {}

  send(event: ChatServerEvent): void {
    this.sendFrame(textFrame(JSON.stringify(event)));
  }

  sendFrame(frame: WireFrame): void {
    if (!this.mayWrite()) return;
    const now = currentTurn();
    if (this.writtenIn === now && this.corkedIn !== now) {
      this.corkedIn = now;
      this.socket.cork();
      corked.push(this.socket);
    }
    this.writtenIn = now;
    this.socket.write(frame);
    // Held presence frames go with it, before it.
    if (this.holding) this.release(Date.now());
  }

  /** A user_joined / user_left: at once after a quiet spell, else held with the others (`PRESENCE_HOLD_MS`). */
  sendPresence(frame: WireFrame, now: number): void {
    if (!this.holding && now - this.presenceAt >= PRESENCE_HOLD_MS) {
      this.presenceAt = now;
      this.sendFrame(frame);
      return;
    }
    if (!this.mayWrite()) return;
    if (!this.holding) {
      this.holding = true;
      this.socket.cork();
      held.push(this);
      holdTimer ??= setTimeout(endHolds, PRESENCE_HOLD_MS);
    }
    this.socket.write(frame);
  }

  /** Open and not closing, and not so far behind that it is cut off instead (`onTooSlow`). */
  private mayWrite(): boolean {
    if (this.closing || this.ws.readyState !== this.ws.OPEN) return false;
    if (this.ws.bufferedAmount <= this.sendBufferMax) return true;
    this.onTooSlow(this);
    return false;
  }

  /** The held frames go out (one write). */
  release(now: number): void {
    if (!this.holding) return;
    this.holding = false;
    this.presenceAt = now;
    this.socket.uncork();
  }
}
