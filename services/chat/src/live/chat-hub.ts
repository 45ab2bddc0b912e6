import { randomBytes, randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import type { WebSocket } from 'ws';
import {
  CHAT_MESSAGE_MAX,
  CHAT_MESSAGE_REF,
  CHAT_MESSAGE_REF_TTL_MS,
  ChatCloseCodes,
  ChatLiveMessages,
  chatJoinSchema,
  chatMuteSchema,
  chatRemoveSchema,
  chatSendSchema,
  chatSlowModeSchema,
  type ChatJoin,
  type ChatJoinedEvent,
  type ChatJoinRejectedEvent,
  type ChatMute,
  type ChatNoticeEvent,
  type ChatPresenceEvent,
  type ChatRemove,
  type ChatRole,
  type ChatSend,
  type ChatSentEvent,
  type ChatSlowMode,
  type ChatSlowModeEvent,
  type Chatroom,
} from '@district/contracts';
import {
  EPHEMERAL_STORE,
  PLATFORM_LOGGER,
  PUBSUB,
  ServiceMetrics,
  canonicalUuid,
  SessionStateStore,
  type EphemeralStore,
  type Logger,
  type PubSub,
} from '@district/nest-common';
import { ChatroomsRepository } from '../chatrooms/chatrooms.repository';
import { FreshReads } from '../chatrooms/fresh-reads';
import { AccountLimits } from './account-limits';
import { AccountSockets } from './account-sockets';
import { checkChatName } from './chat-names';
import { LiveKeys, muteValue, parseControl, parseMute, type LiveControlMessage } from './live-channels';
import { LIVE_CONFIG, type LiveConfig } from './live.config';
import { Sweep } from './sweep';
import { frameOf, LiveConnection, textFrame, type LivePerson, type Membership, type WireFrame } from './live-connection';
import { Roster } from './roster';

/** What a room's members on this replica share: one subscription to the room's channel. */
interface LocalRoom {
  id: string;
  members: Set<LiveConnection>;
  ready: Promise<void>;
  unsubscribe?: () => Promise<void>;
  /** The highest message number heard on the channel (0: none yet). */
  lastSeq: number;
  /** While a gap is filled from the log, what arrives waits here. */
  repairing: string[] | null;
  /**
   * Who is in the room on every replica, by seat: read from the store once when the room opens here, then kept
   * from the user_joined / user_left events every replica publishes (and read again at each heartbeat, so a lost
   * pub/sub message is mended within seconds). A join answers its participants from it: O(1) reads per join
   * instead of reading every seat of the room.
   */
  roster: Roster;
  /** Events heard while the roster is being read, applied after it. */
  rosterEvents: ChatPresenceEvent[] | null;
  /** When the roster was last read from the store (ms). */
  rosterReadAt: number;
}

/** Who holds a name (the seat's data). */
interface SeatData {
  name: string;
  role: ChatRole;
  userId: string;
}

const RESUME_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;
/** Every message's JSON starts so; the seq is put in after it when the numbered entry is delivered. */
const MESSAGE_HEAD = '{"type":"message",';

/**
 * The live chat on this replica (ADR 0018): its sockets, its rooms' subscriptions, joins, messages, moderation
 * and the control messages every replica hears. Shared state lives in the platform's store and pub/sub, so any
 * number of replicas act as one room:
 *
 * - a message is numbered, kept and published in one step (`appendAndPublish`), so every replica delivers a
 *   room's messages in number order and a rejoining client gets exactly what it missed from the kept log;
 * - names are seats held by a live replica (heartbeat), so a killed replica's names come free by themselves;
 * - mutes and slow mode are stored (with their expiry) and announced on the room's channel.
 */
@Injectable()
export class ChatHub implements OnApplicationBootstrap {
  /** This replica, as seat holder. */
  readonly processId = randomUUID();
  private readonly rooms = new Map<string, LocalRoom>();
  private readonly byUser = new Map<string, Set<LiveConnection>>();
  private readonly connections = new Set<LiveConnection>();
  private readonly sessions: SessionStateStore;
  /** Limits per account, shared by every replica (ADR 0031). */
  private readonly limits: AccountLimits;
  private readonly accountSockets: AccountSockets;
  private timers: NodeJS.Timeout[] = [];
  /** Connections are numbered as they come; their number places them in the sweeps below. */
  private nextSlot = 0;
  private readonly pingSweep: Sweep;
  private readonly sessionSweep: Sweep;
  private stopControl?: () => Promise<void>;
  private stopping = false;
  /** Joins' reads of their room's row, shared by the joins waiting at once (a failover's rejoins). */
  private readonly roomReads: FreshReads<string, Chatroom | null>;
  /**
   * Room changes heard on the control channel, counted. A change closes the room's members when it is heard; a
   * join that read its room before a change and entered it after was not among them, so it reads the room again.
   */
  private roomChanges = 0;
  /** Deliveries to sockets (metrics and the benchmark). */
  deliveries = 0;
  /** Messages accepted from this replica's sockets (numbered and published). */
  messages = 0;

  constructor(
    @Inject(PUBSUB) private readonly pubsub: PubSub,
    @Inject(EPHEMERAL_STORE) private readonly store: EphemeralStore,
    @Inject(ChatroomsRepository) private readonly chatrooms: ChatroomsRepository,
    @Inject(LIVE_CONFIG) private readonly config: LiveConfig,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(ServiceMetrics) metrics: ServiceMetrics,
  ) {
    this.sessions = new SessionStateStore(store);
    this.limits = new AccountLimits(store);
    this.accountSockets = new AccountSockets(store, this.processId, config.CHAT_MAX_SOCKETS_PER_ACCOUNT);
    this.roomReads = new FreshReads((id) => chatrooms.findById(id));
    this.pingSweep = new Sweep(config.CHAT_PING_MS);
    this.sessionSweep = new Sweep(config.CHAT_SESSION_CHECK_MS);
    // Read when scraped: nothing is counted per message beyond a number (the autoscaler scales chat on connections).
    const registers = [metrics.registry];
    const connections: Gauge = new Gauge({
      name: 'chat_connections',
      help: 'Open chat WebSockets on this replica',
      registers,
      collect: () => connections.set(this.connections.size),
    });
    const rooms: Gauge = new Gauge({
      name: 'chat_rooms_active',
      help: 'Chatrooms with members on this replica',
      registers,
      collect: () => rooms.set(this.rooms.size),
    });
    const deliveries: Counter = new Counter({
      name: 'chat_deliveries_total',
      help: 'Chat frames sent to sockets by this replica',
      registers,
      collect: () => {
        deliveries.reset();
        deliveries.inc(this.deliveries);
      },
    });
    const messages: Counter = new Counter({
      name: 'chat_messages_total',
      help: 'Chat messages accepted from sockets on this replica (rate() gives messages per second)',
      registers,
      collect: () => {
        messages.reset();
        messages.inc(this.messages);
      },
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.store.heartbeat(this.processId, this.config.CHAT_HEARTBEAT_MS * 3);
    this.stopControl = await this.pubsub.subscribe(LiveKeys.control, (m) => {
      const control = parseControl(m);
      if (control)
        void this.onControl(control).catch((err: unknown) =>
          this.logger.error({ err }, 'chat control failed'),
        );
    });
    const heartbeat = setInterval(() => void this.beat(), this.config.CHAT_HEARTBEAT_MS);
    const ping = setInterval(() => this.ping(), this.pingSweep.tickMs);
    const sessions = setInterval(() => void this.recheckSessions(), this.sessionSweep.tickMs);
    for (const t of [heartbeat, ping, sessions]) t.unref();
    this.timers = [heartbeat, ping, sessions];
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** A socket whose session was checked at the upgrade. */
  connect(ws: WebSocket, socket: Writable, person: LivePerson): void {
    const connection = new LiveConnection(ws, socket, person, this.config.CHAT_SEND_BUFFER_MAX_BYTES, (c) =>
      this.cutOff(c),
    );
    connection.slot = this.nextSlot++;
    this.connections.add(connection);
    let mine = this.byUser.get(person.id);
    if (!mine) this.byUser.set(person.id, (mine = new Set()));
    mine.add(connection);
    // One request at a time per socket, in the order sent: a person's messages keep their order. The first is
    // the socket's admission under its account's cap.
    let chain = this.admit(connection);
    ws.on('message', (data, isBinary) => {
      chain = chain
        .then(() => this.onFrame(connection, isBinary ? null : data.toString()))
        .catch((err: unknown) => {
          this.logger.error({ err, userId: person.id }, 'chat request failed');
          connection.send(notice('invalid', 'Something went wrong. Please try again.'));
        });
    });
    ws.on('pong', () => (connection.alive = true));
    // The session token's end ends the socket; the client refreshes its session and reconnects.
    const expiry = setTimeout(
      () =>
        this.closeWith(
          connection,
          ChatCloseCodes.sessionChanged,
          notice('session_changed', ChatLiveMessages.sessionChanged),
        ),
      Math.min(Math.max(0, person.expiresAt - Date.now()), 2 ** 31 - 1),
    );
    expiry.unref();
    ws.on('error', () => undefined);
    ws.on('close', () => {
      clearTimeout(expiry);
      connection.closing = true;
      this.connections.delete(connection);
      mine.delete(connection);
      if (mine.size === 0) this.byUser.delete(person.id);
      chain = chain
        .then(() => this.leave(connection, true))
        .then(() => this.accountSockets.release(connection))
        .catch((err: unknown) => this.logger.warn({ err }, 'chat leave failed'));
    });
  }

  /**
   * SIGTERM: tell every client to reconnect (to another replica), free their names, and close with 1012. Joins
   * are refused from here on (the upgrade handler asks `isStopping`).
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    const all = [...this.connections];
    await Promise.all(
      all.map(async (c) => {
        c.send(notice('reconnect', ChatLiveMessages.reconnecting));
        await this.leave(c, true).catch(() => undefined);
        // Its place under the account's cap is free for the reconnect to another replica.
        await this.accountSockets.release(c).catch(() => undefined);
        c.closing = true;
        c.ws.close(ChatCloseCodes.serviceRestart, 'restarting');
      }),
    );
    await this.stopControl?.().catch(() => undefined);
    // Clients normally answer the close at once; one that does not is dropped.
    const deadline = Date.now() + 1000;
    while (all.some((c) => c.ws.readyState !== c.ws.CLOSED) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    for (const c of all) if (c.ws.readyState !== c.ws.CLOSED) c.ws.terminate();
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  /** A socket over its account's cap is closed saying why; a store that is away closes it to be retried. */
  private async admit(c: LiveConnection): Promise<void> {
    let admitted: boolean;
    try {
      admitted = await this.accountSockets.admit(c, c.person.id);
    } catch (err) {
      this.logger.warn({ err, userId: c.person.id }, 'chat socket not admitted');
      return this.closeWith(c, ChatCloseCodes.serviceRestart, notice('reconnect', ChatLiveMessages.reconnecting));
    }
    if (!admitted) {
      const max = this.accountSockets.max;
      this.closeWith(c, ChatCloseCodes.tooManyConnections, notice('too_many_connections', ChatLiveMessages.tooManyConnections(max)));
    }
  }

  // ---- requests ------------------------------------------------------------------------------------------

  private async onFrame(c: LiveConnection, text: string | null): Promise<void> {
    if (c.closing) return;
    let value: unknown;
    try {
      value = text === null ? undefined : JSON.parse(text);
    } catch {
      value = undefined;
    }
    const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    if (typeof type !== 'string') return c.send(notice('invalid', ChatLiveMessages.invalidRequest));
    switch (type) {
      case 'join': {
        const join = chatJoinSchema.safeParse(value);
        if (!join.success) {
          const named = typeof (value as { name?: unknown }).name === 'string';
          return c.send(
            named
              ? rejected(value, 'no_room', ChatLiveMessages.chooseRoom)
              : rejected(value, 'invalid_name', ChatLiveMessages.enterName),
          );
        }
        return this.join(c, join.data);
      }
      case 'message': {
        const send = chatSendSchema.safeParse(value);
        if (send.success)
          return this.message(c, send.data).catch((err: unknown) => {
            // Not appended (the store is away): said to the sender with the ref, so its client shows it unsent.
            this.logger.error({ err, userId: c.person.id }, 'chat message not sent');
            const ref = send.data.ref === undefined ? {} : { ref: send.data.ref };
            c.send({ ...notice('unavailable', ChatLiveMessages.notSent), ...ref });
          });
        const ref = (value as { ref?: unknown }).ref;
        return c.send(
          ref !== undefined && (typeof ref !== 'string' || !CHAT_MESSAGE_REF.test(ref))
            ? notice('invalid', ChatLiveMessages.invalidMessageRef)
            : notice('invalid', ChatLiveMessages.emptyMessage),
        );
      }
      case 'leave':
        // Always done (nobody is kept in a room), but over the account's budget it is not announced.
        return this.leave(c, true, !!c.membership && (await this.limits.presence(c.person.id)) > 0);
      case 'remove':
        return this.moderate(c, value, chatRemoveSchema, (m, r) => this.remove(c, m, r));
      case 'mute':
        return this.moderate(c, value, chatMuteSchema, (m, r) => this.mute(c, m, r));
      case 'slow_mode':
        return this.moderate(c, value, chatSlowModeSchema, (m, r) => this.slowMode(c, m, r));
      default:
        return c.send(notice('invalid', ChatLiveMessages.unknownRequest));
    }
  }

  private async join(c: LiveConnection, join: ChatJoin): Promise<void> {
    if (!c.person.approved) return c.send(rejected(join, 'not_approved', ChatLiveMessages.notApproved));
    const wait = await this.limits.presence(c.person.id);
    if (wait > 0) return c.send({ ...rejected(join, 'rate_limited', ChatLiveMessages.joinRateLimited), retryAfterMs: wait });
    const name = checkChatName(join.name);
    if (!name.ok) return c.send(rejected(join, 'invalid_name', name.text));
    const roomId = canonicalUuid(join.chatroom);
    if (!roomId) return c.send(rejected(join, 'no_room', ChatLiveMessages.roomUnavailable));
    const changesBefore = this.roomChanges;
    const room = await this.roomReads.read(roomId);
    if (!room || !room.isActive) return c.send(rejected(join, 'no_room', ChatLiveMessages.roomUnavailable));
    if (!this.mayJoin(c.person, room))
      return c.send(rejected(join, 'not_invited', ChatLiveMessages.notInvited));
    // A muted student may not come in under another name (each arrival puts it on every screen), only the one
    // they were muted under (a dropped connection, a reload).
    const mute = c.person.canModerate ? null : parseMute(await this.store.get(LiveKeys.mute(roomId, c.person.id)));
    if (mute && mute.until > Date.now() && mute.seat !== name.seat) {
      const until = new Date(mute.until).toISOString();
      return c.send({ ...rejected(join, 'muted', ChatLiveMessages.mutedJoin(until)), until });
    }
    if (c.membership) await this.leave(c, true);

    const token = randomBytes(18).toString('base64url');
    const data: SeatData = { name: name.display, role: c.person.role, userId: c.person.id };
    const resume = join.resume !== undefined && RESUME_TOKEN.test(join.resume) ? join.resume : undefined;
    const claim = await this.store.claimSeat(
      LiveKeys.names(roomId),
      name.seat,
      { process: this.processId, token, data: JSON.stringify(data) },
      resume,
    );
    if (claim.taken)
      return c.send(rejected(join, 'name_taken', ChatLiveMessages.nameTaken(name.display), name.display));

    const membership: Membership = {
      roomId,
      name: name.display,
      seat: name.seat,
      token,
      lastSeq: 0,
      pending: [],
      mutedUntil: 0,
      slowModeSeconds: 0,
    };
    c.membership = membership;
    await this.enterRoom(roomId, c);
    if (this.roomChanges !== changesBefore && !(await this.mayStay(c, membership))) {
      // Deactivated, deleted or uninvited while this join was on its way in: closed as the members were. A seat
      // taken back with its token was announced before, so the room hears it go; a new one was never announced.
      await this.leave(c, claim.resumed);
      return this.closeWith(c, ChatCloseCodes.roomClosed, notice('room_closed', ChatLiveMessages.roomClosed, roomId));
    }
    const [[muted, slow], log] = await Promise.all([
      this.store.mget([LiveKeys.mute(roomId, c.person.id), LiveKeys.slowMode(roomId)]),
      this.pubsub.readLog(LiveKeys.log(roomId), join.since ?? Number.MAX_SAFE_INTEGER),
    ]);
    const local = this.rooms.get(roomId);
    // The socket closed (or joined elsewhere) while this was read: its leave has run or will, nothing to send.
    if (c.membership !== membership || c.closing) return;
    membership.mutedUntil = parseMute(muted).until;
    membership.slowModeSeconds = Number(slow ?? 0);
    const roster = local?.roster ?? new Roster();
    const self = { name: name.display, role: c.person.role };
    const digest = roster.digestFor(name.seat, self);
    c.sendFrame(
      joinedFrame(
        roster,
        name.seat,
        {
          type: 'joined',
          chatroom: roomId,
          name: name.display,
          role: c.person.role,
          resume: token,
          seq: log.last,
          roster: digest,
          slowModeSeconds: membership.slowModeSeconds,
          canModerate: c.person.canModerate,
          ...(log.truncated || (join.since !== undefined && join.since > log.last) ? { truncated: true } : {}),
        },
        // The client shows this list already (a rejoin): it is not sent again.
        join.roster === digest,
      ),
    );
    let last = log.last;
    for (const entry of log.entries) {
      const frame = numberedFrame(entry.seq, entry.entry);
      if (frame) c.sendFrame(frame);
      last = Math.max(last, entry.seq);
    }
    membership.lastSeq = last;
    const pending = membership.pending ?? [];
    membership.pending = null;
    for (const m of pending) this.deliverNumbered(c, numbered(m));
    // A seat taken back with its token, unchanged, was never given up: the room saw no user_left, so it hears no
    // second user_joined (after a replica dies, its clients' rejoins would each tell the whole room again).
    if (!claim.resumed) await this.announce(roomId, c.person.id, presence('user_joined', membership, c.person.role));
  }

  /** A person's arrival or departure: a line for the room the first time in a while, else quiet (ADR 0031). */
  private async announce(roomId: string, userId: string, event: ChatPresenceEvent, quiet = false): Promise<void> {
    if (quiet || !(await this.limits.announces(roomId, userId, event.type))) event.quiet = true;
    await this.publishEvent(roomId, event);
  }

  private async message(c: LiveConnection, send: ChatSend): Promise<void> {
    const m = c.membership;
    // A refusal names the message's ref, so a client holding it to send again knows it was not sent.
    const ref = send.ref === undefined ? {} : { ref: send.ref };
    if (!m || m.pending || send.chatroom.toLowerCase() !== m.roomId)
      return c.send({ ...notice('not_joined', ChatLiveMessages.notJoined), ...ref });
    const text = send.text.trim();
    if (text === '') return c.send({ ...notice('empty', ChatLiveMessages.emptyMessage, m.roomId), ...ref });
    if (text.length > CHAT_MESSAGE_MAX && [...text].length > CHAT_MESSAGE_MAX)
      return c.send({ ...notice('too_long', ChatLiveMessages.messageTooLong, m.roomId), ...ref });
    const now = Date.now();
    if (m.mutedUntil > now) {
      const until = new Date(m.mutedUntil).toISOString();
      return c.send({ ...notice('muted', ChatLiveMessages.muted(until), m.roomId), until, ...ref });
    }
    const wait = await this.limits.message(c.person.id);
    if (wait > 0)
      return c.send({
        ...notice('rate_limited', ChatLiveMessages.rateLimited, m.roomId),
        retryAfterMs: wait,
        ...ref,
      });
    if (m.slowModeSeconds > 0 && !c.person.canModerate) {
      const gate = LiveKeys.slowGate(m.roomId, c.person.id);
      if (!(await this.store.setIfAbsent(gate, '1', m.slowModeSeconds * 1000))) {
        const left = await this.store.pttl(gate);
        return c.send({
          ...notice('slow_mode', ChatLiveMessages.slowMode(m.slowModeSeconds), m.roomId),
          retryAfterMs: Math.max(left, 1),
          ...ref,
        });
      }
    }
    const json = JSON.stringify({
      type: 'message',
      id: randomUUID(),
      name: m.name,
      role: c.person.role,
      text,
      timestamp: new Date(now).toISOString(),
      chatroom: m.roomId,
      ...ref,
    });
    const seq = await this.pubsub.appendAndPublish(
      LiveKeys.roomChannel(m.roomId),
      LiveKeys.log(m.roomId),
      `${c.person.id} ${json}`,
      {
        keep: this.config.CHAT_HISTORY_SIZE,
        ttlMs: this.config.CHAT_HISTORY_TTL_MINUTES * 60_000,
        // Numbers go on above what this replica has delivered, even after Redis lost the room's numbering.
        floor: this.rooms.get(m.roomId)?.lastSeq ?? 0,
        // A ref is appended once: the same message sent again after a dropped connection is answered, not repeated.
        ...(send.ref === undefined
          ? {}
          : { once: { key: LiveKeys.sent(m.roomId, c.person.id, send.ref), ttlMs: CHAT_MESSAGE_REF_TTL_MS } }),
      },
    );
    if (seq < 0 && send.ref !== undefined) {
      const sent: ChatSentEvent = { type: 'sent', chatroom: m.roomId, ref: send.ref, seq: -seq };
      return c.send(sent);
    }
    this.messages++;
  }

  /** Moderation: teachers and admins (from the session), in the room they joined. */
  private async moderate<T extends { chatroom: string }>(
    c: LiveConnection,
    value: unknown,
    schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
    act: (m: Membership, request: T) => Promise<void>,
  ): Promise<void> {
    if (!c.person.canModerate) return c.send(notice('forbidden', ChatLiveMessages.moderatorsOnly));
    const parsed = schema.safeParse(value);
    if (!parsed.success) return c.send(notice('invalid', ChatLiveMessages.invalidRequest));
    const m = c.membership;
    if (!m || parsed.data.chatroom.toLowerCase() !== m.roomId)
      return c.send(notice('not_joined', ChatLiveMessages.notJoined));
    return act(m, parsed.data);
  }

  private async remove(_c: LiveConnection, m: Membership, request: ChatRemove): Promise<void> {
    const key = LiveKeys.log(m.roomId);
    const kept = (await this.pubsub.readLog(key, request.seq - 1)).entries.find((e) => e.seq === request.seq);
    await this.pubsub.removeFromLog(key, request.seq);
    const id = kept ? (parseEntry(kept.entry)?.id ?? '') : '';
    await this.publishEvent(m.roomId, { type: 'message_removed', chatroom: m.roomId, seq: request.seq, id });
  }

  private async mute(c: LiveConnection, m: Membership, request: ChatMute): Promise<void> {
    const wanted = checkChatName(request.name);
    const seats = wanted.ok ? await this.store.seats(LiveKeys.names(m.roomId)) : [];
    const target = wanted.ok ? seatData(seats.find((s) => s.seat === wanted.seat)?.holder.data) : null;
    if (!target || target.role !== 'student' || target.userId === c.person.id)
      return c.send(notice('not_found', ChatLiveMessages.noSuchParticipant(request.name), m.roomId));
    const key = LiveKeys.mute(m.roomId, target.userId);
    const until = request.minutes === 0 ? 0 : Date.now() + request.minutes * 60_000;
    if (until === 0) await this.store.del(key);
    else await this.store.set(key, muteValue(until, wanted.ok ? wanted.seat : ''), request.minutes * 60_000);
    await this.pubsub.publish(
      LiveKeys.roomChannel(m.roomId),
      `- ${JSON.stringify({ type: '_mute', userId: target.userId, until })}`,
    );
  }

  private async slowMode(_c: LiveConnection, m: Membership, request: ChatSlowMode): Promise<void> {
    const key = LiveKeys.slowMode(m.roomId);
    if (request.seconds === 0) await this.store.del(key);
    else await this.store.set(key, String(request.seconds), this.config.CHAT_HISTORY_TTL_MINUTES * 60_000);
    const event: ChatSlowModeEvent = {
      type: 'slow_mode',
      chatroom: m.roomId,
      seconds: request.seconds,
      name: m.name,
    };
    await this.publishEvent(m.roomId, event);
  }

  /** Leaves the connection's room: its name comes free and (`announce`) the room hears user_left (`quiet`: no line). */
  private async leave(c: LiveConnection, announce: boolean, quiet = false): Promise<void> {
    const m = c.membership;
    if (!m) return;
    c.membership = null;
    this.exitRoom(m.roomId, c);
    const released = await this.store.releaseSeat(LiveKeys.names(m.roomId), m.seat, m.token);
    if (released && announce) await this.announce(m.roomId, c.person.id, presence('user_left', m, c.person.role), quiet);
  }

  private mayJoin(person: LivePerson, room: Chatroom): boolean {
    return person.canModerate || room.invitedUserIds.includes(person.id);
  }

  /** Whether a member may stay, by a read of its room made now (after the change that asked). */
  private async mayStay(c: LiveConnection, membership: Membership): Promise<boolean> {
    const room = await this.roomReads.read(membership.roomId);
    // Gone meanwhile (closed, or joined elsewhere): its own leave has run or will.
    if (c.membership !== membership || c.closing) return true;
    return !!room && room.isActive && this.mayJoin(c.person, room);
  }

  // ---- fan-out -------------------------------------------------------------------------------------------

  private async enterRoom(roomId: string, c: LiveConnection): Promise<void> {
    let room = this.rooms.get(roomId);
    if (!room) {
      const created: LocalRoom = {
        id: roomId,
        members: new Set(),
        ready: Promise.resolve(),
        lastSeq: 0,
        repairing: null,
        roster: new Roster(),
        rosterEvents: null,
        rosterReadAt: 0,
      };
      created.ready = this.pubsub
        .subscribe(LiveKeys.roomChannel(roomId), (message) => this.onRoomMessage(created, message))
        .then((unsubscribe) => {
          created.unsubscribe = unsubscribe;
          // Everyone left while subscribing.
          if (created.members.size === 0 && this.rooms.get(roomId) !== created) void unsubscribe();
        })
        // Subscribed first, so no event between the read and the subscription is missed.
        .then(() => this.readRoster(created));
      this.rooms.set(roomId, created);
      room = created;
    }
    room.members.add(c);
    await room.ready;
  }

  /** The room's seats from the store; presence events heard meanwhile are applied on top. */
  private async readRoster(room: LocalRoom): Promise<void> {
    room.rosterEvents ??= [];
    room.rosterReadAt = Date.now();
    try {
      const seats = await this.store.seats(LiveKeys.names(room.id));
      room.roster.replace(
        seats.flatMap((s) => {
          const d = seatData(s.holder.data);
          return d ? [{ seat: s.seat, name: d.name, role: d.role }] : [];
        }),
      );
    } finally {
      const heard = room.rosterEvents ?? [];
      room.rosterEvents = null;
      for (const event of heard) applyPresence(room, event);
    }
  }

  private exitRoom(roomId: string, c: LiveConnection): void {
    const room = this.rooms.get(roomId);
    if (!room || !room.members.delete(c) || room.members.size > 0) return;
    this.rooms.delete(roomId);
    if (room.unsubscribe) void room.unsubscribe().catch(() => undefined);
  }

  private onRoomMessage(room: LocalRoom, message: string): void {
    if (message.charCodeAt(0) !== 45 /* '-' */) return this.onNumbered(room, message);
    const json = message.slice(2);
    if (json.startsWith('{"type":"_')) return this.onInternal(room, json);
    let frame: WireFrame | undefined;
    let slow: ChatSlowModeEvent | undefined;
    let presenceAt = 0;
    if (json.startsWith('{"type":"slow_mode"')) slow = JSON.parse(json) as ChatSlowModeEvent;
    else if (json.startsWith('{"type":"user_joined"') || json.startsWith('{"type":"user_left"')) {
      const event = JSON.parse(json) as ChatPresenceEvent;
      if (room.rosterEvents) room.rosterEvents.push(event);
      else applyPresence(room, event);
      presenceAt = Date.now();
    }
    for (const c of room.members) {
      if (!c.membership) continue;
      if (slow) c.membership.slowModeSeconds = slow.seconds;
      frame ??= textFrame(json);
      // Presence may wait a moment to go with the next ones (a join storm); everything else goes at once.
      if (presenceAt) c.sendPresence(frame, presenceAt);
      else c.sendFrame(frame);
      this.deliveries++;
    }
  }

  /**
   * A numbered message from the channel. Numbers are published in order, so a jump means pub/sub lost some (its
   * delivery is at most once, e.g. while the subscriber reconnected): they are read from the log first. A number
   * lower than one heard means Redis lost the room's numbering: the members reconnect and start afresh.
   */
  private onNumbered(room: LocalRoom, message: string): void {
    if (room.repairing) {
      room.repairing.push(message);
      return;
    }
    const n = numbered(message);
    const seq = n.seq;
    if (room.lastSeq > 0 && seq > room.lastSeq + 1) {
      room.repairing = [message];
      void this.repair(room, room.lastSeq);
      return;
    }
    if (seq <= room.lastSeq) {
      this.logger.warn(
        { chatroomId: room.id, seq, heard: room.lastSeq },
        'chat numbering restarted; members reconnect',
      );
      room.lastSeq = seq;
      for (const c of [...room.members])
        this.closeWith(c, ChatCloseCodes.serviceRestart, notice('reconnect', ChatLiveMessages.reconnecting));
      return;
    }
    room.lastSeq = seq;
    // Every member gets the same bytes: the number is read once, the frame built for the first member and reused.
    for (const c of room.members) this.deliverNumbered(c, n);
  }

  private async repair(room: LocalRoom, after: number): Promise<void> {
    try {
      const read = await this.pubsub.readLog(LiveKeys.log(room.id), after);
      this.logger.warn(
        { chatroomId: room.id, after, recovered: read.entries.length },
        'chat messages missed on pub/sub, read from the log',
      );
      for (const entry of read.entries) {
        room.lastSeq = Math.max(room.lastSeq, entry.seq);
        const n = numbered(`${entry.seq} ${entry.entry}`);
        for (const c of room.members) this.deliverNumbered(c, n);
      }
    } catch (err) {
      this.logger.error({ err, chatroomId: room.id }, 'chat gap not repaired');
    }
    const waiting = room.repairing ?? [];
    room.repairing = null;
    for (const m of waiting) {
      const n = numbered(m);
      room.lastSeq = Math.max(room.lastSeq, n.seq);
      for (const c of room.members) this.deliverNumbered(c, n);
    }
  }

  /** A numbered message to one member: held while it catches up, skipped when it already has it. */
  private deliverNumbered(c: LiveConnection, n: Numbered): void {
    const m = c.membership;
    if (!m) return;
    if (m.pending) {
      m.pending.push(n.message);
      return;
    }
    if (n.seq <= m.lastSeq) return;
    m.lastSeq = n.seq;
    if (n.frame === undefined) n.frame = numberedFrame(n.seq, n.message.slice(n.message.indexOf(' ') + 1));
    if (!n.frame) return;
    c.sendFrame(n.frame);
    this.deliveries++;
  }

  private onInternal(room: LocalRoom, json: string): void {
    const event = JSON.parse(json) as { type: string; userId?: string; until?: number };
    if (event.type !== '_mute' || typeof event.userId !== 'string') return;
    const until = Number(event.until ?? 0);
    for (const c of room.members) {
      if (!c.membership || c.person.id !== event.userId) continue;
      c.membership.mutedUntil = until;
      if (until === 0) c.send(notice('unmuted', ChatLiveMessages.unmuted, c.membership.roomId));
      else {
        const iso = new Date(until).toISOString();
        c.send({ ...notice('muted', ChatLiveMessages.muted(iso), c.membership.roomId), until: iso });
      }
    }
  }

  private publishEvent(roomId: string, event: object): Promise<void> {
    return this.pubsub.publish(LiveKeys.roomChannel(roomId), `- ${JSON.stringify(event)}`);
  }

  // ---- liveness and control ------------------------------------------------------------------------------

  private async beat(): Promise<void> {
    try {
      await this.store.heartbeat(this.processId, this.config.CHAT_HEARTBEAT_MS * 3);
      // Names held by replicas that died: freed, and their rooms told (each seat reaped by one replica).
      for (const roomId of this.rooms.keys()) {
        for (const { holder } of await this.store.reapSeats(LiveKeys.names(roomId))) {
          const data = seatData(holder.data);
          if (data) await this.publishEvent(roomId, presenceOf('user_left', roomId, data.name, data.role));
        }
        const room = this.rooms.get(roomId);
        if (room && !room.rosterEvents && Date.now() - room.rosterReadAt >= this.config.CHAT_ROSTER_REFRESH_MS)
          await this.readRoster(room);
      }
    } catch (err) {
      this.logger.warn({ err }, 'chat heartbeat failed');
    }
  }

  /** This turn's slice of the sockets: dropped if they missed the last ping, pinged again otherwise. */
  private ping(): void {
    const due = this.pingSweep.next();
    for (const c of this.connections) {
      if (!due(c.slot)) continue;
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }

  /** This turn's slice of the sockets, their sessions checked again a hundred at a time: a sign-out in another tab ends the chat too. */
  private async recheckSessions(): Promise<void> {
    const due = this.sessionSweep.next();
    const all: LiveConnection[] = [];
    for (const c of this.connections) if (due(c.slot)) all.push(c);
    try {
      // One read of the store per 500 sockets (at 19,000 clients, a command per socket was 158 a second each).
      for (let i = 0; i < all.length; i += 500) {
        const batch = all.slice(i, i + 500);
        const states = await this.sessions.checkMany(
          batch.map((c) => ({ userId: c.person.id, tokenVersion: c.person.tokenVersion, sid: c.person.sessionId })),
        );
        batch.forEach((c, k) => {
          if (states[k] === 'revoked' || states[k] === 'stale')
            this.closeWith(
              c,
              ChatCloseCodes.sessionChanged,
              notice('session_changed', ChatLiveMessages.sessionChanged),
            );
        });
      }
    } catch (err) {
      this.logger.warn({ err }, 'chat session check failed');
    }
  }

  private cutOff(c: LiveConnection): void {
    if (c.closing) return;
    c.closing = true;
    this.logger.warn({ userId: c.person.id, buffered: c.ws.bufferedAmount }, 'chat client too slow, cut off');
    c.ws.close(ChatCloseCodes.tooSlow, 'too slow');
    setTimeout(() => c.ws.terminate(), 1000).unref();
  }

  private async onControl(control: LiveControlMessage): Promise<void> {
    if (control.kind === 'session') {
      // Signed out (identity's event, after its commit): that session's sockets end, the person's others stay.
      for (const c of [...(this.byUser.get(control.userId.toLowerCase()) ?? [])])
        if (c.person.sessionId === control.sessionId)
          this.closeWith(c, ChatCloseCodes.sessionChanged, notice('session_changed', ChatLiveMessages.sessionChanged));
      return;
    }
    if (control.kind === 'user') {
      const mine = [...(this.byUser.get(control.userId.toLowerCase()) ?? [])];
      for (const c of mine) {
        const state = control.deleted
          ? 'revoked'
          : await this.sessions.check(c.person.id, c.person.tokenVersion, c.person.sessionId);
        if (state === 'valid' || state === 'unknown') continue;
        this.closeWith(
          c,
          ChatCloseCodes.sessionChanged,
          notice('session_changed', ChatLiveMessages.sessionChanged),
        );
      }
      return;
    }
    this.roomChanges += 1;
    const local = this.rooms.get(control.roomId);
    if (!local) return;
    const room = await this.chatrooms.findById(control.roomId);
    for (const c of [...local.members]) {
      if (room && room.isActive && this.mayJoin(c.person, room)) continue;
      this.closeWith(
        c,
        ChatCloseCodes.roomClosed,
        notice('room_closed', ChatLiveMessages.roomClosed, control.roomId),
      );
    }
  }

  private closeWith(c: LiveConnection, code: number, last: ChatNoticeEvent): void {
    if (c.closing) return;
    c.send(last);
    c.closing = true;
    c.ws.close(code, last.code);
    setTimeout(() => c.ws.terminate(), 1000).unref();
  }
}

// ---- frames --------------------------------------------------------------------------------------------

function notice(code: ChatNoticeEvent['code'], text: string, chatroom?: string): ChatNoticeEvent {
  return chatroom === undefined ? { type: 'notice', code, text } : { type: 'notice', code, text, chatroom };
}

function rejected(
  join: unknown,
  reason: ChatJoinRejectedEvent['reason'],
  text: string,
  name?: string,
): ChatJoinRejectedEvent {
  const j = (typeof join === 'object' && join !== null ? join : {}) as { name?: unknown; chatroom?: unknown };
  return {
    type: 'join_rejected',
    reason,
    id: randomUUID(),
    name: name ?? (typeof j.name === 'string' ? j.name.slice(0, 100) : ''),
    role: 'student',
    text,
    timestamp: new Date().toISOString(),
    chatroom: typeof j.chatroom === 'string' ? j.chatroom.slice(0, 64) : '',
  };
}

/** A user_joined / user_left heard on the room's channel, applied to its roster. */
function applyPresence(room: LocalRoom, event: ChatPresenceEvent): void {
  const name = checkChatName(event.name);
  if (!name.ok) return;
  if (event.type === 'user_joined') room.roster.set(name.seat, event.name, event.role);
  else room.roster.delete(name.seat);
}

/**
 * The `joined` answer: `event` with the room's participants (from its roster, written into the frame), or without
 * them when the client `holdsList` already.
 */
function joinedFrame(
  roster: Roster,
  seat: string,
  event: Omit<ChatJoinedEvent, 'participants'>,
  holdsList: boolean,
): WireFrame {
  if (holdsList) return textFrame(JSON.stringify(event));
  const { type, chatroom, name, role, resume, seq, ...rest } = event;
  const head = JSON.stringify({ type, chatroom, name, role, resume, seq }).slice(0, -1) + ',';
  const tail = ',' + JSON.stringify(rest).slice(1);
  return frameOf([head, '"participants":', ...roster.participantsFor(seat, { name, role }), tail]);
}

function presence(type: ChatPresenceEvent['type'], m: Membership, role: ChatRole): ChatPresenceEvent {
  return presenceOf(type, m.roomId, m.name, role);
}

function presenceOf(
  type: ChatPresenceEvent['type'],
  roomId: string,
  name: string,
  role: ChatRole,
): ChatPresenceEvent {
  return {
    type,
    id: randomUUID(),
    name,
    role,
    text: type === 'user_joined' ? ChatLiveMessages.userJoined(name) : ChatLiveMessages.userLeft(name),
    timestamp: new Date().toISOString(),
    chatroom: roomId,
  };
}

/** A numbered channel message ("<seq> <entry>"): its number read once, its frame built once for every member. */
interface Numbered {
  seq: number;
  message: string;
  frame?: WireFrame | null;
}

function numbered(message: string): Numbered {
  return { seq: Number(message.slice(0, message.indexOf(' '))), message };
}

/** `"<userId> <json>"` of a kept or published entry → the client's frame with `seq` put in. */
function numberedFrame(seq: number, entry: string): WireFrame | null {
  const json = entry.slice(entry.indexOf(' ') + 1);
  if (!json.startsWith(MESSAGE_HEAD)) return null;
  return textFrame(`${MESSAGE_HEAD}"seq":${seq},${json.slice(MESSAGE_HEAD.length)}`);
}

function parseEntry(entry: string): { id: string } | null {
  try {
    return JSON.parse(entry.slice(entry.indexOf(' ') + 1)) as { id: string };
  } catch {
    return null;
  }
}

function seatData(data: string | undefined): SeatData | null {
  if (data === undefined) return null;
  try {
    return JSON.parse(data) as SeatData;
  } catch {
    return null;
  }
}
