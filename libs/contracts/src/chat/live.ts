import { z } from 'zod';

/**
 * The live chat room's WebSocket protocol (tools spec §7: `WebSocket /ws`; ADR 0018). JSON text frames.
 *
 * The spec's part is exact: the client sends `join {type, name, role, chatroom}` and `message {type, text,
 * chatroom}`; the server sends `join_rejected`, `user_joined`, `user_left` and `message` with id, name, role, text,
 * timestamp and chatroom. The rest is what the spec leaves "not shown" and a classroom needs: catching up after
 * a dropped connection (`since`, `resume`, per-room `seq`), notices instead of silence, teacher moderation, and
 * telling clients to reconnect when a replica stops.
 *
 * The server never believes the client's `role`: it is accepted for the spec's sake and ignored; the role shown
 * comes from the session.
 */
export const CHAT_WS_PATH = '/ws';
/** Characters of a message after trimming. */
export const CHAT_MESSAGE_MAX = 2000;
/** Largest WebSocket frame the server reads; a bigger one closes the connection (1009). */
export const CHAT_FRAME_MAX_BYTES = 64 * 1024;
/** Characters of a display name after trimming. */
export const CHAT_NAME_MAX = 50;
/**
 * Per account, across all its sockets and every replica: a burst of up to CHAT_RATE_MESSAGES, refilled at
 * CHAT_RATE_MESSAGES per CHAT_RATE_WINDOW_MS (a token bucket), so a steady message a second is always accepted
 * whatever the jitter of the sender's timer, and a hundred tabs send no more than one.
 */
export const CHAT_RATE_MESSAGES = 5;
export const CHAT_RATE_WINDOW_MS = 5000;
/**
 * Joins and leaves per account, across its sockets and replicas: a burst of CHAT_PRESENCE_BURST (a failover's
 * rejoins of a few tabs, a pupil trying names), then one every CHAT_PRESENCE_INTERVAL_MS.
 */
export const CHAT_PRESENCE_BURST = 20;
export const CHAT_PRESENCE_INTERVAL_MS = 3000;
/**
 * A room is told one account arrived (or left) at most once in this long; its other arrivals and departures
 * within it come `quiet` (the participants change, no line is shown).
 */
export const CHAT_PRESENCE_COALESCE_MS = 60_000;
/** Open chat sockets per account across every replica (the server's default; operators may change it). */
export const CHAT_SOCKETS_PER_ACCOUNT_DEFAULT = 5;
/** Messages kept per room for catch-up (the server's default; operators may change it). */
export const CHAT_HISTORY_DEFAULT = 200;
/** The spec's constants for the screen (§9). */
export const CHAT_JOIN_DELAY_MS = 100;
export const CHAT_NAME_CLASH_TOAST_MS = 10_000;
export const CHAT_LIST_RETRY_MS = 1000;
export const CHAT_LIST_MAX_RETRIES = 2;
export const CHAT_LIST_REFETCH_MS = 2000;
export const CHAT_WINDOW_HEIGHT_PX = 300;
/** Moderation choices offered to teachers. */
export const CHAT_MUTE_MINUTES = [1, 5, 10, 30] as const;
export const CHAT_MUTE_MAX_MINUTES = 60;
export const CHAT_SLOW_MODE_SECONDS = [0, 5, 10, 30, 60] as const;
export const CHAT_SLOW_MODE_MAX_SECONDS = 300;

/** Close codes the screen acts on (4000–4999 are the application's). */
export const ChatCloseCodes = {
  /** The replica is stopping: reconnect at once (to another replica) and catch up. */
  serviceRestart: 1012,
  /** The frame was larger than CHAT_FRAME_MAX_BYTES. */
  tooBig: 1009,
  /** The session ended or changed (signed out, suspended, role changed): refresh it (`/api/auth/me`), then reconnect. */
  sessionChanged: 4401,
  /** The room was closed or deleted, or the person is no longer invited. */
  roomClosed: 4404,
  /** The client read too slowly and its queue grew past the limit. */
  tooSlow: 4408,
  /** The account has the chat open on too many sockets already: this one is closed (close a tab, then retry). */
  tooManyConnections: 4429,
} as const;

/** Spec texts (tools spec §8) and the server's own, in the spec's tone. */
export const ChatLiveMessages = {
  nameTaken: (name: string) =>
    `Name ${name} is already taken! Please choose a different name to join this chatroom.`,
  connectionLost: 'Chat connection lost. Please rejoin.',
  connectionFailed: 'Connection failed. Please try again.',
  noMessagesToExport: 'No messages to export',
  exportFailed: 'Failed to export PDF. Please try again.',
  exportSucceeded: 'Chat conversation exported successfully!',
  onlyTeachersExport: 'Only teachers can export chat conversations',
  // Not worded by the spec.
  userJoined: (name: string) => `${name} joined the chatroom`,
  userLeft: (name: string) => `${name} left the chatroom`,
  enterName: 'Please enter a name to join the chatroom',
  nameTooLong: `Names can be at most ${CHAT_NAME_MAX} characters`,
  chooseRoom: 'Please choose a chatroom',
  notInvited: 'You are not invited to this chatroom',
  notApproved: 'Your account must be approved before you can join a chatroom.',
  roomUnavailable: 'This chatroom is not available',
  roomClosed: 'This chatroom has been closed.',
  notJoined: 'Join the chatroom before sending messages',
  emptyMessage: 'Please type a message',
  messageTooLong: `Messages can be at most ${CHAT_MESSAGE_MAX} characters`,
  rateLimited: 'You are sending messages too quickly. Please wait a moment.',
  joinRateLimited: 'You are joining and leaving too quickly. Please wait a moment.',
  mutedJoin: (until: string) =>
    `A teacher has muted you until ${until}. Until then you can only come back under the name you had.`,
  tooManyConnections: (max: number) =>
    `You have the chat open in too many tabs (at most ${max}). Close one and try again.`,
  slowMode: (seconds: number) => `Slow mode is on: one message every ${seconds} seconds.`,
  muted: (until: string) => `A teacher has muted you until ${until}.`,
  unmuted: 'A teacher has unmuted you.',
  moderatorsOnly: 'Only teachers can moderate the chatroom',
  noSuchParticipant: (name: string) => `Nobody called ${name} is in this chatroom`,
  unknownRequest: 'Unknown request',
  invalidMessageRef: 'A message ref is 8 to 64 letters, digits, _ or -',
  invalidRequest: 'Send JSON objects with a type',
  notSent: 'Your message could not be sent. Please try again.',
  historyTruncated: 'Some earlier messages are no longer available.',
  reconnecting: 'The chat server is restarting. Reconnecting…',
  sessionChanged: 'Your session changed. Please sign in again to keep chatting.',
  tooSlow: 'The connection was too slow to keep up.',
} as const;

// ---- client → server -------------------------------------------------------------------------------------

const roomId = z.string().uuid();

/**
 * join: `since` = the last `seq` this client saw in the room (catch-up); `resume` = the token of its previous
 * joined; `roster` = the digest (`chatRosterDigestOf`) of the participants it shows — when it is the room's, the
 * `joined` answer leaves the list out.
 */
export const chatJoinSchema = z.object({
  type: z.literal('join'),
  name: z.string(),
  role: z.unknown().optional(),
  chatroom: z.string(),
  since: z.number().int().nonnegative().optional(),
  resume: z.string().max(64).optional(),
  roster: z.string().max(32).optional(),
});
/** A message's `ref`: the sender's own name for it (8–64 of A–Z a–z 0–9 _ -), unique among the sender's messages. */
export const CHAT_MESSAGE_REF = /^[A-Za-z0-9_-]{8,64}$/;
/** How long the server remembers a `ref` it appended, so the same message sent again is not appended twice. */
export const CHAT_MESSAGE_REF_TTL_MS = 10 * 60_000;
/**
 * message: `ref` (optional) lets the sender know its message arrived — the broadcast carries it back — and send it
 * again after a dropped connection without it showing twice (the server appends a ref once, `sent` answers a repeat).
 */
export const chatSendSchema = z.object({
  type: z.literal('message'),
  text: z.string(),
  chatroom: z.string(),
  ref: z.string().regex(CHAT_MESSAGE_REF).optional(),
});
export const chatLeaveSchema = z.object({ type: z.literal('leave'), chatroom: z.string().optional() });
/** Teachers and admins: take a message out of the room (everyone's screen and the kept history). */
export const chatRemoveSchema = z.object({
  type: z.literal('remove'),
  chatroom: roomId,
  seq: z.number().int().positive(),
});
/** Teachers and admins: mute a participant by name for `minutes` (0 unmutes). */
export const chatMuteSchema = z.object({
  type: z.literal('mute'),
  chatroom: roomId,
  name: z.string().max(200),
  minutes: z.number().int().min(0).max(CHAT_MUTE_MAX_MINUTES),
});
/** Teachers and admins: at most one message per `seconds` for students in the room (0 turns it off). */
export const chatSlowModeSchema = z.object({
  type: z.literal('slow_mode'),
  chatroom: roomId,
  seconds: z.number().int().min(0).max(CHAT_SLOW_MODE_MAX_SECONDS),
});
export type ChatJoin = z.infer<typeof chatJoinSchema>;
export type ChatSend = z.infer<typeof chatSendSchema>;
export type ChatRemove = z.infer<typeof chatRemoveSchema>;
export type ChatMute = z.infer<typeof chatMuteSchema>;
export type ChatSlowMode = z.infer<typeof chatSlowModeSchema>;

// ---- server → client -------------------------------------------------------------------------------------

export type ChatRole = 'student' | 'teacher' | 'admin';

interface ChatEventBase {
  id: string;
  name: string;
  role: ChatRole;
  text: string;
  timestamp: string;
  chatroom: string;
}
/** A chat message; `seq` increases by one per message in the room (a removed message leaves its number unused). */
export interface ChatMessageEvent extends ChatEventBase {
  type: 'message';
  seq: number;
  /** The sender's `ref`, when it sent one. */
  ref?: string;
}
/** Only to the sender of a `message` whose `ref` was already appended (a resend): it is message number `seq`. */
export interface ChatSentEvent {
  type: 'sent';
  chatroom: string;
  ref: string;
  seq: number;
}
export interface ChatPresenceEvent extends ChatEventBase {
  type: 'user_joined' | 'user_left';
  /**
   * A repeat of one account's arrival or departure within CHAT_PRESENCE_COALESCE_MS: the participants change, but
   * screens show no line for it (a join flood is one line a minute, not hundreds).
   */
  quiet?: true;
}
export interface ChatJoinRejectedEvent extends ChatEventBase {
  type: 'join_rejected';
  reason:
    'name_taken' | 'invalid_name' | 'no_room' | 'not_invited' | 'not_approved' | 'rate_limited' | 'muted';
  /** rate_limited: milliseconds until a join is accepted again. */
  retryAfterMs?: number;
  /** muted: when the mute ends (ISO). */
  until?: string;
}
/**
 * Only to the joining client, before the replayed messages and its user_joined: who is in the room, the room's
 * current settings, and the token a reconnect presents to take the same name back (`resume`).
 */
export interface ChatJoinedEvent {
  type: 'joined';
  chatroom: string;
  name: string;
  role: ChatRole;
  resume: string;
  /** The room's last message number when the join was handled (0 when none yet). */
  seq: number;
  /**
   * Who is in the room, the joiner included. Left out when the join's `roster` digest was this list's: the
   * client's list is current (a rejoin after a dropped connection; at 9,500 rejoins with 950 participants each,
   * the lists were ~460 MB of JSON to send and parse).
   */
  participants?: { name: string; role: ChatRole }[];
  /** The digest of the participants (`chatRosterDigestOf`), for the next rejoin. */
  roster: string;
  slowModeSeconds: number;
  canModerate: boolean;
  /** Set when `since` was older than the kept history: some messages could not be replayed. */
  truncated?: boolean;
}
export interface ChatMessageRemovedEvent {
  type: 'message_removed';
  chatroom: string;
  seq: number;
  id: string;
}
export interface ChatSlowModeEvent {
  type: 'slow_mode';
  chatroom: string;
  seconds: number;
  name: string;
}
export interface ChatNoticeEvent {
  type: 'notice';
  code:
    | 'rate_limited'
    | 'slow_mode'
    | 'muted'
    | 'unmuted'
    | 'not_joined'
    | 'empty'
    | 'too_long'
    | 'invalid'
    | 'forbidden'
    | 'not_found'
    | 'room_closed'
    | 'session_changed'
    | 'reconnect'
    | 'unavailable'
    | 'too_many_connections';
  text: string;
  chatroom?: string;
  /** For mutes: when it ends (ISO). */
  until?: string;
  /** For rate limits and slow mode: milliseconds until a message is accepted again. */
  retryAfterMs?: number;
  /** When the notice refuses a `message` that carried a `ref`: that ref (the message was not sent). */
  ref?: string;
}
export type ChatServerEvent =
  | ChatMessageEvent
  | ChatPresenceEvent
  | ChatJoinRejectedEvent
  | ChatJoinedEvent
  | ChatMessageRemovedEvent
  | ChatSlowModeEvent
  | ChatSentEvent
  | ChatNoticeEvent;

// ---- roster digests --------------------------------------------------------------------------------------

/** FNV-1a over the string's UTF-16 code units, from `basis`: 32 bits. */
function fnv1a(text: string, basis: number): number {
  let h = basis;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One participant's share of a roster digest: two independent 32-bit hashes of its role and name. */
export function chatParticipantHash(p: { name: string; role: string }): [number, number] {
  const key = `${p.role}\u0000${p.name}`;
  return [fnv1a(key, 0x811c9dc5), fnv1a(key, 0x050c5d1f)];
}

/** Adds (`sign` 1) or takes away (-1) a participant's hash from a digest's two sums. */
export function chatRosterAdd(
  sums: [number, number],
  hash: readonly [number, number],
  sign: 1 | -1 = 1,
): void {
  sums[0] = (sums[0] + sign * hash[0]) >>> 0;
  sums[1] = (sums[1] + sign * hash[1]) >>> 0;
}

/** The digest of two sums (as `chatRosterAdd` keeps them). */
export function chatRosterDigest(sums: readonly [number, number]): string {
  return `${sums[0].toString(36)}.${sums[1].toString(36)}`;
}

/**
 * A participants list's digest (`joined.roster`, `join.roster`): the sums, modulo 2^32, of its members' two
 * hashes. It does not depend on the list's order, and one member joining or leaving changes it by that member's
 * hash alone, so every replica (and a client) computes the same one from the same people.
 */
export function chatRosterDigestOf(participants: readonly { name: string; role: string }[]): string {
  const sums: [number, number] = [0, 0];
  for (const p of participants) chatRosterAdd(sums, chatParticipantHash(p));
  return chatRosterDigest(sums);
}
