import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { WebSocket } from 'ws';
import {
  CHAT_MESSAGE_REF,
  ChatCloseCodes,
  ChatLiveMessages,
  chatJoinSchema,
  chatSendSchema,
  type Chatroom,
} from '@district/contracts';
import {
  EPHEMERAL_STORE,
  PLATFORM_LOGGER,
  PUBSUB,
  ServiceMetrics,
  SessionStateStore,
  type EphemeralStore,
  type Logger,
  type PubSub,
} from '@district/nest-common';
import { ChatroomsRepository } from '../chatrooms/chatrooms.repository';
import { FreshReads } from '../chatrooms/fresh-reads';
import { AccountLimits } from './account-limits';
import { AccountSockets } from './account-sockets';
import { Joining } from './joining';
import { LiveKeys, parseControl } from '../live-channels';
import { LIVE_CONFIG, type LiveConfig } from './live.config';
import { closeWith, notice, rejected } from './live-frames';
import { LiveConnection, type LivePerson } from './live-connection';
import { LiveControl } from './live-control';
import { registerLiveMetrics } from './live-metrics';
import { Liveness } from './liveness';
import { Moderation } from './moderation';
import { RoomDelivery } from './room-delivery';
import { MessageSending } from './sending';

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
  private readonly byUser = new Map<string, Set<LiveConnection>>();
  private readonly connections = new Set<LiveConnection>();
  private readonly sessions: SessionStateStore;
  /** Limits per account, shared by every replica (ADR 0031). */
  private readonly limits: AccountLimits;
  private readonly accountSockets: AccountSockets;
  private timers: NodeJS.Timeout[] = [];
  /** Connections are numbered as they come; their number places them in the liveness sweeps. */
  private nextSlot = 0;
  private stopControl?: () => Promise<void>;
  private stopping = false;
  /** The rooms with members here: their subscriptions, rosters and delivery. */
  private readonly rooms: RoomDelivery;
  private readonly joining: Joining;
  private readonly sending: MessageSending;
  private readonly moderation: Moderation;
  private readonly liveness: Liveness;
  private readonly control: LiveControl;

  constructor(
    @Inject(PUBSUB) private readonly pubsub: PubSub,
    @Inject(EPHEMERAL_STORE) private readonly store: EphemeralStore,
    @Inject(ChatroomsRepository) chatrooms: ChatroomsRepository,
    @Inject(LIVE_CONFIG) private readonly config: LiveConfig,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(ServiceMetrics) metrics: ServiceMetrics,
  ) {
    this.sessions = new SessionStateStore(store);
    this.limits = new AccountLimits(store);
    this.accountSockets = new AccountSockets(store, this.processId, config.CHAT_MAX_SOCKETS_PER_ACCOUNT);
    this.rooms = new RoomDelivery(pubsub, store, logger);
    const roomReads = new FreshReads<string, Chatroom | null>((id) => chatrooms.findById(id));
    this.joining = new Joining(this.processId, pubsub, store, this.limits, roomReads, this.rooms);
    this.sending = new MessageSending(pubsub, store, this.limits, config, this.rooms);
    this.moderation = new Moderation(pubsub, store, config, this.rooms);
    this.liveness = new Liveness(
      this.processId,
      store,
      this.sessions,
      config,
      logger,
      this.connections,
      this.rooms,
    );
    this.control = new LiveControl(this.sessions, chatrooms, this.rooms, this.joining, this.byUser);
    registerLiveMetrics(metrics.registry, {
      connections: () => this.connections.size,
      rooms: () => this.rooms.size,
      deliveries: () => this.deliveries,
      messages: () => this.messages,
    });
  }

  /** Deliveries to sockets (metrics and the benchmark). */
  get deliveries(): number {
    return this.rooms.deliveries;
  }

  /** Messages accepted from this replica's sockets (numbered and published). */
  get messages(): number {
    return this.sending.accepted;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.store.heartbeat(this.processId, this.config.CHAT_HEARTBEAT_MS * 3);
    this.stopControl = await this.pubsub.subscribe(LiveKeys.control, (m) => {
      const control = parseControl(m);
      if (control)
        void this.control
          .onControl(control)
          .catch((err: unknown) => this.logger.error({ err }, 'chat control failed'));
    });
    this.timers = this.liveness.start();
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** A socket whose session was checked at the upgrade. */
  connect(ws: WebSocket, socket: Writable, person: LivePerson): void {
    const connection = new LiveConnection(ws, socket, person, this.config.CHAT_SEND_BUFFER_MAX_BYTES, (c) =>
      this.liveness.cutOff(c),
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
        closeWith(
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
        .then(() => this.joining.leave(connection, true))
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
        await this.joining.leave(c, true).catch(() => undefined);
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
      return closeWith(c, ChatCloseCodes.serviceRestart, notice('reconnect', ChatLiveMessages.reconnecting));
    }
    if (!admitted) {
      const max = this.accountSockets.max;
      closeWith(
        c,
        ChatCloseCodes.tooManyConnections,
        notice('too_many_connections', ChatLiveMessages.tooManyConnections(max)),
      );
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
        return this.joining.join(c, join.data);
      }
      case 'message': {
        const send = chatSendSchema.safeParse(value);
        if (send.success)
          return this.sending.message(c, send.data).catch((err: unknown) => {
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
        return this.joining.leave(c, true, !!c.membership && (await this.limits.presence(c.person.id)) > 0);
      case 'remove':
        return this.moderation.onRemove(c, value);
      case 'mute':
        return this.moderation.onMute(c, value);
      case 'slow_mode':
        return this.moderation.onSlowMode(c, value);
      default:
        return c.send(notice('invalid', ChatLiveMessages.unknownRequest));
    }
  }
}
