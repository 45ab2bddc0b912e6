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
  /** A participant's mute: `muteValue` (its end, and the name it was given under). */
  mute: (roomId: string, userId: string) => `chat:mute:${roomId}:${userId}`,
  /** A room's slow mode, in seconds. */
  slowMode: (roomId: string) => `chat:slow:${roomId}`,
  /** A participant's slow-mode gate (set while they must wait). */
  slowGate: (roomId: string, userId: string) => `chat:slowgate:${roomId}:${userId}`,
  /** A message a participant appended with its `ref` (its number), so the same message sent again is not appended twice. */
  sent: (roomId: string, userId: string, ref: string) => `chat:sent:${roomId}:${userId}:${ref}`,
  /** An account's token bucket for messages or for joins and leaves (every replica takes from it). */
  rate: (kind: 'message' | 'presence', userId: string) => `chat:rate:${kind}:${userId}`,
  /** Set while a room has been told of an account's arrival (or departure): repeats within it come quiet. */
  announced: (roomId: string, userId: string, type: 'user_joined' | 'user_left') =>
    `chat:announced:${roomId}:${userId}:${type}`,
  /** Seats: an account's open sockets, each held by its replica (the cap per account). */
  sockets: (userId: string) => `chat:sockets:${userId}`,
  /** Pub/sub: changes every replica acts on (a person's session, a room's state). */
  control: 'chat:control',
} as const;

/**
 * A stored mute: when it ends (epoch ms) and the seat (compared name) the student held when muted — the one name
 * they may come back under while it lasts (ADR 0031). A value of only a number (no seat) allows none.
 */
export function muteValue(until: number, seat: string): string {
  return `${until} ${seat}`;
}

export function parseMute(value: string | null): { until: number; seat: string | null } {
  if (value === null) return { until: 0, seat: null };
  const space = value.indexOf(' ');
  const until = Number(space === -1 ? value : value.slice(0, space));
  return { until: Number.isFinite(until) ? until : 0, seat: space === -1 ? null : value.slice(space + 1) };
}

/** Told to every replica: re-check the sockets of a person, or of a room; close those of a signed-out session. */
export type LiveControlMessage =
  | { kind: 'user'; userId: string; deleted: boolean }
  | { kind: 'room'; roomId: string }
  | { kind: 'session'; userId: string; sessionId: string };

export function parseControl(message: string): LiveControlMessage | null {
  try {
    const value = JSON.parse(message) as Partial<LiveControlMessage>;
    if (value.kind === 'user' && typeof value.userId === 'string')
      return { kind: 'user', userId: value.userId, deleted: value.deleted === true };
    if (value.kind === 'room' && typeof value.roomId === 'string')
      return { kind: 'room', roomId: value.roomId };
    if (value.kind === 'session' && typeof value.userId === 'string' && typeof value.sessionId === 'string')
      return { kind: 'session', userId: value.userId, sessionId: value.sessionId };
  } catch {
    // Not ours: ignored below.
  }
  return null;
}
