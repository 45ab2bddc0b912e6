import {
  ChatLiveMessages,
  chatMuteSchema,
  chatRemoveSchema,
  chatSlowModeSchema,
  type ChatMute,
  type ChatRemove,
  type ChatSlowMode,
  type ChatSlowModeEvent,
} from '@district/contracts';
import type { EphemeralStore, PubSub } from '@district/nest-common';
import { checkChatName } from './chat-names';
import { LiveKeys, muteValue, parseMute } from '../live-channels';
import type { LiveConfig } from './live.config';
import { notice, parseEntry, seatData } from './live-frames';
import type { LiveConnection, LivePerson, Membership } from './live-connection';
import type { RoomDelivery } from './room-delivery';

/**
 * A muted student may not come in under another name (each arrival puts it on every screen), only the one
 * they were muted under (a dropped connection, a reload). The mute's end (ISO) when this join is refused, else null.
 */
export async function mutedAtJoin(
  store: EphemeralStore,
  person: LivePerson,
  roomId: string,
  seat: string,
): Promise<string | null> {
  const mute = person.canModerate ? null : parseMute(await store.get(LiveKeys.mute(roomId, person.id)));
  if (mute && mute.until > Date.now() && mute.seat !== seat) return new Date(mute.until).toISOString();
  return null;
}

/** Moderation requests: removing a message, muting a student, slow mode (ADR 0018). */
export class Moderation {
  constructor(
    private readonly pubsub: PubSub,
    private readonly store: EphemeralStore,
    private readonly config: LiveConfig,
    private readonly rooms: RoomDelivery,
  ) {}

  /** A `remove` request. */
  onRemove(c: LiveConnection, value: unknown): Promise<void> {
    return this.moderate(c, value, chatRemoveSchema, (m, r) => this.remove(c, m, r));
  }

  /** A `mute` request. */
  onMute(c: LiveConnection, value: unknown): Promise<void> {
    return this.moderate(c, value, chatMuteSchema, (m, r) => this.mute(c, m, r));
  }

  /** A `slow_mode` request. */
  onSlowMode(c: LiveConnection, value: unknown): Promise<void> {
    return this.moderate(c, value, chatSlowModeSchema, (m, r) => this.slowMode(c, m, r));
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
    await this.rooms.publishEvent(m.roomId, {
      type: 'message_removed',
      chatroom: m.roomId,
      seq: request.seq,
      id,
    });
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
    await this.rooms.publishEvent(m.roomId, event);
  }
}
