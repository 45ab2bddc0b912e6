import { randomUUID } from 'node:crypto';
import {
  CHAT_MESSAGE_MAX,
  CHAT_MESSAGE_REF_TTL_MS,
  ChatLiveMessages,
  type ChatSend,
  type ChatSentEvent,
} from '@district/contracts';
import type { EphemeralStore, PubSub } from '@district/nest-common';
import type { AccountLimits } from './account-limits';
import { LiveKeys } from '../live-channels';
import type { LiveConfig } from './live.config';
import { notice } from './live-frames';
import type { LiveConnection } from './live-connection';
import type { RoomDelivery } from './room-delivery';

/**
 * A member's message (ADR 0018): checked (length, mute, the account's rate, slow mode), then numbered, kept and
 * published in one step, so every replica delivers the room's messages in number order.
 */
export class MessageSending {
  /** Messages accepted from this replica's sockets (numbered and published). */
  accepted = 0;

  constructor(
    private readonly pubsub: PubSub,
    private readonly store: EphemeralStore,
    private readonly limits: AccountLimits,
    private readonly config: LiveConfig,
    private readonly rooms: RoomDelivery,
  ) {}

  async message(c: LiveConnection, send: ChatSend): Promise<void> {
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
          : {
              once: { key: LiveKeys.sent(m.roomId, c.person.id, send.ref), ttlMs: CHAT_MESSAGE_REF_TTL_MS },
            }),
      },
    );
    if (seq < 0 && send.ref !== undefined) {
      const sent: ChatSentEvent = { type: 'sent', chatroom: m.roomId, ref: send.ref, seq: -seq };
      return c.send(sent);
    }
    this.accepted++;
  }
}
