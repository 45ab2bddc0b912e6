/**
 * Names in the shared store and pub/sub (Redis in the cluster, memory in standalone) of the live chat, and the
 * control messages every replica listens to. Plain functions, so the chatroom use cases and identity's event
 * handlers can tell the replicas about a change without depending on the WebSocket module.
 */
export const LiveKeys = {
  /** Pub/sub: a room's messages (numbered, `"<seq> <userId> <json>"`) and events (`"- <json>"`). */
  roomChannel: (roomId: string) => `chat:room:${roomId}`,
  /** The numbered log of a room's last messages (catch-up). */
  log: (roomId: string) => `chat:log:${roomId}`,
  logPrefix: 'chat:log:',
  /**
   * What marks an author's entries in a log (`"<userId> {"type":"message"…`): a message's text cannot contain it
   * (JSON escapes its quotes), so removing a person's messages never takes someone else's.
   */
  authorMark: (userId: string) => `${userId} {"type":"message"`,
  /** Seats: the names taken in a room. */
  names: (roomId: string) => `chat:names:${roomId}`,
  /** A participant's mute: the end, in epoch ms. */
  mute: (roomId: string, userId: string) => `chat:mute:${roomId}:${userId}`,
  /** A room's slow mode, in seconds. */
  slowMode: (roomId: string) => `chat:slow:${roomId}`,
  /** A participant's slow-mode gate (set while they must wait). */
  slowGate: (roomId: string, userId: string) => `chat:slowgate:${roomId}:${userId}`,
  /** A message a participant appended with its `ref` (its number), so the same message sent again is not appended twice. */
  sent: (roomId: string, userId: string, ref: string) => `chat:sent:${roomId}:${userId}:${ref}`,
  /** Pub/sub: changes every replica acts on (a person's session, a room's state). */
  control: 'chat:control',
} as const;

/** Told to every replica: re-check the sockets of a person, or of a room. */
export type LiveControlMessage =
  { kind: 'user'; userId: string; deleted: boolean } | { kind: 'room'; roomId: string };

export function parseControl(message: string): LiveControlMessage | null {
  try {
    const value = JSON.parse(message) as Partial<LiveControlMessage>;
    if (value.kind === 'user' && typeof value.userId === 'string')
      return { kind: 'user', userId: value.userId, deleted: value.deleted === true };
    if (value.kind === 'room' && typeof value.roomId === 'string')
      return { kind: 'room', roomId: value.roomId };
  } catch {
    // Not ours: ignored below.
  }
  return null;
}
