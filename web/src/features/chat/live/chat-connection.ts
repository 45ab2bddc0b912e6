import {
  CHAT_JOIN_DELAY_MS,
  CHAT_WS_PATH,
  ChatCloseCodes,
  type ChatJoin,
  type ChatRole,
  type ChatServerEvent,
} from '@district/contracts/chat';
import {
  CHAT_SEND_CONFIRM_MS,
  CHAT_RECONNECT_BASE_MS,
  CHAT_RECONNECT_MAX_ATTEMPTS,
  CHAT_RECONNECT_MAX_MS,
} from '../chat.constants';

/** Why the connection is being re-made. */
export type ReconnectReason = 'restart' | 'lost' | 'session' | 'slow';
/** Why the connection ended for good (the screen goes back to "not joined"). */
export type StopReason =
  'left' | 'failed' | 'lost' | 'session' | 'room_closed' | 'rejected' | 'too_many_tabs';

export type ConnectionStatus =
  | { kind: 'connecting' }
  | { kind: 'joined' }
  | { kind: 'reconnecting'; reason: ReconnectReason; attempt: number }
  | { kind: 'stopped'; reason: StopReason };

export interface ChatJoinTarget {
  chatroom: string;
  name: string;
  /** Sent because the spec's join carries it; the server takes the role from the session. */
  role: ChatRole;
}

export interface ChatConnectionOptions {
  target: ChatJoinTarget;
  onEvent: (event: ChatServerEvent) => void;
  onStatus: (status: ConnectionStatus) => void;
  /** GET /api/auth/me after a 4401 close; resolves true when the session is still good. */
  refreshSession: () => Promise<boolean>;
  /** ws(s)://<page host>/ws by default. */
  url?: string;
  /** Draws the reconnect jitter (0 ≤ x < 1); Math.random by default. */
  random?: () => number;
  /**
   * A message from `sendMessage` was not sent: refused (the notice says why), not heard back within
   * CHAT_SEND_CONFIRM_MS of a joined connection, or the connection ended for good.
   */
  onUnsent?: (ref: string) => void;
  /**
   * The digest (`chatRosterDigestOf`) of the participants the screen shows, sent with a rejoin: when it is the
   * room's, `joined` comes without the list (the screen's is current).
   */
  rosterDigest?: () => string | undefined;
}

/** A message sent with its ref and not yet heard back (the broadcast, or `sent` for a repeat). */
interface Outgoing {
  text: string;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * A fresh message ref: 32 hex digits (the protocol takes 8–64 of A–Z a–z 0–9 _ -). From getRandomValues, which
 * pages served over plain http have too (randomUUID is only there in secure contexts).
 */
export function newMessageRef(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

/** ws: or wss: by the page's protocol, on the page's own host (the gateway serves both). */
export function chatSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${CHAT_WS_PATH}`;
}

/**
 * The wait before the n-th consecutive attempt (0-based): up to 0.5 s, 1 s, 2 s, 4 s … capped at 10 s, drawn from
 * the upper half of that ("equal jitter"), so the clients of a replica that died do not all come back to the others
 * in the same instant, and do not retry in step when the first try fails.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(CHAT_RECONNECT_MAX_MS, CHAT_RECONNECT_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function parseEvent(data: unknown): ChatServerEvent | null {
  if (typeof data !== 'string') return null;
  try {
    const value: unknown = JSON.parse(data);
    if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string')
      return value as ChatServerEvent;
  } catch {
    // Not JSON: ignored, like any frame the screen does not understand.
  }
  return null;
}

/**
 * One person's membership of one room over `WebSocket /ws` (tools spec §7, protocol in
 * `@district/contracts/chat` live.ts): opens the socket, sends the join 100 ms after it opens, and keeps the
 * membership alive across dropped connections — reconnecting with `since` (the newest message number it has) and
 * `resume` (the token of its last `joined`) so the server replays what was missed and gives the same name back.
 *
 * Close codes: 1012 → reconnect within 0.5 s (a random moment: every client of the restarting replica gets 1012 at
 * once); 4408 → reconnect at once; 4401 → ask GET /api/auth/me once, reconnect if the session holds, else stop;
 * 4404 → stop (room closed); 4429 → stop (the account has the chat open in too many tabs: another connection
 * would be refused the same); anything else after a join → back off 0.5 s, 1 s, 2 s … ≤ 10 s with jitter
 * (`backoffDelay`) and give up after CHAT_RECONNECT_MAX_ATTEMPTS. A first connection that never joins stops as
 * 'failed'.
 *
 * Messages (`sendMessage`) carry a ref and are held until they come back: a connection that drops between the send
 * and the broadcast loses nothing, because the rejoin sends the held ones again with their refs and the server
 * appends a ref once (a repeat is answered with `sent`). One not heard back is reported through `onUnsent`.
 */
export class ChatConnection {
  private socket: WebSocket | null = null;
  private joinTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private everJoined = false;
  private joinedNow = false;
  private attempts = 0;
  private sessionChecked = false;
  private resumeToken: string | undefined;
  private cursor = 0;
  private readonly outbox = new Map<string, Outgoing>();
  private readonly url: string;
  private readonly random: () => number;

  constructor(private readonly options: ChatConnectionOptions) {
    this.url = options.url ?? chatSocketUrl();
    this.random = options.random ?? Math.random;
  }

  /** The newest message number seen (what a rejoin sends as `since`). */
  get lastSeq(): number {
    return this.cursor;
  }

  get joined(): boolean {
    return this.joinedNow && !this.stopped;
  }

  start(): void {
    this.options.onStatus({ kind: 'connecting' });
    this.open();
  }

  /** Sends a frame while joined; false when there is no joined connection to send it on. */
  send(frame: { type: string; [key: string]: unknown }): boolean {
    const socket = this.socket;
    if (!this.joined || !socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  /**
   * Sends a chat message with `ref` (a new one by default) and holds it until it comes back: sent again after a
   * rejoin, reported through `onUnsent` if it never does. Returns the ref, or null when not joined.
   */
  sendMessage(text: string, ref: string = newMessageRef()): string | null {
    if (!this.joined) return null;
    const before = this.outbox.get(ref);
    if (before?.timer) clearTimeout(before.timer);
    this.outbox.set(ref, { text, timer: null });
    this.transmit(ref);
    return ref;
  }

  /** Refs sent and not yet heard back, oldest first. */
  get unconfirmed(): string[] {
    return [...this.outbox.keys()];
  }

  /** Leave: tell the server (when connected), close the socket, stop every timer. */
  leave(): void {
    if (this.stopped) return;
    const socket = this.socket;
    if (socket && socket.readyState === WebSocket.OPEN && this.joinedNow) {
      socket.send(JSON.stringify({ type: 'leave', chatroom: this.options.target.chatroom }));
    }
    this.stop('left');
  }

  private open(): void {
    this.joinedNow = false;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.handleClose(1006);
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      if (this.socket !== socket || this.stopped) return;
      this.joinTimer = setTimeout(() => {
        this.joinTimer = null;
        this.sendJoin(socket);
      }, CHAT_JOIN_DELAY_MS);
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      if (this.socket !== socket || this.stopped) return;
      const parsed = parseEvent(event.data);
      if (parsed) this.handleEvent(parsed);
    });
    socket.addEventListener('close', (event: CloseEvent) => {
      if (this.socket !== socket || this.stopped) return;
      this.handleClose(event.code);
    });
  }

  private sendJoin(socket: WebSocket): void {
    if (this.socket !== socket || this.stopped || socket.readyState !== WebSocket.OPEN) return;
    const { chatroom, name, role } = this.options.target;
    const join: ChatJoin = { type: 'join', name, role, chatroom };
    if (this.everJoined) {
      join.since = this.cursor;
      if (this.resumeToken) join.resume = this.resumeToken;
      const roster = this.options.rosterDigest?.();
      if (roster !== undefined) join.roster = roster;
    }
    socket.send(JSON.stringify(join));
  }

  /** Sends an outbox message on the joined socket and gives it CHAT_SEND_CONFIRM_MS to come back. */
  private transmit(ref: string): void {
    const held = this.outbox.get(ref);
    if (
      !held ||
      !this.send({ type: 'message', text: held.text, chatroom: this.options.target.chatroom, ref })
    )
      return;
    held.timer = setTimeout(() => this.unsent(ref), CHAT_SEND_CONFIRM_MS);
  }

  /** The message is settled (back, answered `sent`, or given up on): no longer held. */
  private forget(ref: string | undefined): void {
    const held = ref === undefined ? undefined : this.outbox.get(ref);
    if (!held || ref === undefined) return;
    if (held.timer) clearTimeout(held.timer);
    this.outbox.delete(ref);
  }

  private unsent(ref: string): void {
    if (!this.outbox.has(ref)) return;
    this.forget(ref);
    this.options.onUnsent?.(ref);
  }

  private handleEvent(event: ChatServerEvent): void {
    switch (event.type) {
      case 'joined': {
        // On the first join the room's current number is where this client starts: a later rejoin asks only for
        // what came after it (not the room's older history). On a rejoin the replay that follows moves it on.
        // The first join starts from the room's number; a rejoin whose room number is below the cursor means the
        // server lost the room's numbering, so the cursor follows it down (or nothing new would ever be newer).
        if (!this.everJoined || event.seq < this.cursor) this.cursor = event.seq;
        this.everJoined = true;
        this.joinedNow = true;
        this.attempts = 0;
        this.sessionChecked = false;
        this.resumeToken = event.resume;
        this.options.onStatus({ kind: 'joined' });
        this.options.onEvent(event);
        // What was sent and not heard back goes again (the replay that follows may hold it: the server answers a
        // repeated ref with `sent` instead of a second message).
        for (const ref of this.outbox.keys()) this.transmit(ref);
        return;
      }
      case 'message':
        if (Number.isInteger(event.seq)) this.cursor = Math.max(this.cursor, event.seq);
        this.forget(event.ref);
        this.options.onEvent(event);
        return;
      case 'sent':
        this.forget(event.ref);
        this.options.onEvent(event);
        return;
      case 'notice':
        this.options.onEvent(event);
        // A refused message was not sent (the notice says why) — unless it came while the server had this socket
        // out of the room (a replica stopping): it stays held and goes again with the rejoin.
        if (event.ref !== undefined && event.code !== 'not_joined') this.unsent(event.ref);
        return;
      case 'join_rejected':
        this.options.onEvent(event);
        this.stop('rejected');
        return;
      default:
        this.options.onEvent(event);
    }
  }

  private handleClose(code: number): void {
    this.clearTimers();
    // Held messages wait for the rejoin, which sends them again.
    for (const held of this.outbox.values()) {
      if (held.timer) clearTimeout(held.timer);
      held.timer = null;
    }
    this.socket = null;
    this.joinedNow = false;
    if (code === ChatCloseCodes.roomClosed) return this.stop('room_closed');
    if (code === ChatCloseCodes.tooManyConnections) return this.stop('too_many_tabs');
    if (code === ChatCloseCodes.sessionChanged) return void this.recheckSession();
    const restart = code === ChatCloseCodes.serviceRestart;
    // A connection that never got as far as a join is a failed attempt, not a lost room (a restarting replica aside).
    if (!this.everJoined && !restart) return this.stop('failed');
    if (this.attempts >= CHAT_RECONNECT_MAX_ATTEMPTS) return this.stop(this.everJoined ? 'lost' : 'failed');
    const slow = code === ChatCloseCodes.tooSlow;
    const delay = this.retryDelay(restart, slow);
    this.attempts += 1;
    this.reconnect(restart ? 'restart' : slow ? 'slow' : 'lost', delay);
  }

  /**
   * A restart's first retry comes within 0.5 s (spread: the replica's other clients got the same close), a slow
   * reader's at once; any other retry, or one after those failed, waits its back-off.
   */
  private retryDelay(restart: boolean, slow: boolean): number {
    if (this.attempts === 0 && restart) return Math.round(this.random() * CHAT_RECONNECT_BASE_MS);
    if (this.attempts === 0 && slow) return 0;
    return backoffDelay(this.attempts, this.random);
  }

  private async recheckSession(): Promise<void> {
    if (this.sessionChecked) return this.stop('session');
    this.sessionChecked = true;
    this.options.onStatus({ kind: 'reconnecting', reason: 'session', attempt: this.attempts });
    let ok: boolean;
    try {
      ok = await this.options.refreshSession();
    } catch {
      ok = false;
    }
    if (this.stopped) return;
    if (!ok) return this.stop('session');
    this.reconnect('session', 0);
  }

  private reconnect(reason: ReconnectReason, delayMs: number): void {
    if (this.stopped) return;
    this.options.onStatus({ kind: 'reconnecting', reason, attempt: this.attempts });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.open();
    }, delayMs);
  }

  private stop(reason: StopReason): void {
    if (this.stopped) return;
    this.stopped = true;
    this.joinedNow = false;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) {
      try {
        socket.close(1000);
      } catch {
        // Already closing.
      }
    }
    for (const ref of [...this.outbox.keys()]) this.unsent(ref);
    this.options.onStatus({ kind: 'stopped', reason });
  }

  private clearTimers(): void {
    if (this.joinTimer) clearTimeout(this.joinTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.joinTimer = null;
    this.retryTimer = null;
  }
}
