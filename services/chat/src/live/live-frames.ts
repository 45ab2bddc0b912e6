import { randomUUID } from 'node:crypto';
import {
  ChatLiveMessages,
  type ChatJoinedEvent,
  type ChatJoinRejectedEvent,
  type ChatNoticeEvent,
  type ChatPresenceEvent,
  type ChatRole,
} from '@district/contracts';
import { checkChatName } from './chat-names';
import { frameOf, textFrame, type LiveConnection, type Membership, type WireFrame } from './live-connection';
import type { Roster } from './roster';

/** Who holds a name (the seat's data). */
export interface SeatData {
  name: string;
  role: ChatRole;
  userId: string;
}

/** Every message's JSON starts so; the seq is put in after it when the numbered entry is delivered. */
const MESSAGE_HEAD = '{"type":"message",';

// ---- frames --------------------------------------------------------------------------------------------

export function notice(code: ChatNoticeEvent['code'], text: string, chatroom?: string): ChatNoticeEvent {
  return chatroom === undefined ? { type: 'notice', code, text } : { type: 'notice', code, text, chatroom };
}

export function rejected(
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
export function applyPresence(room: { roster: Roster }, event: ChatPresenceEvent): void {
  const name = checkChatName(event.name);
  if (!name.ok) return;
  if (event.type === 'user_joined') room.roster.set(name.seat, event.name, event.role);
  else room.roster.delete(name.seat);
}

/**
 * The `joined` answer: `event` with the room's participants (from its roster, written into the frame), or without
 * them when the client `holdsList` already.
 */
export function joinedFrame(
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

export function presence(type: ChatPresenceEvent['type'], m: Membership, role: ChatRole): ChatPresenceEvent {
  return presenceOf(type, m.roomId, m.name, role);
}

export function presenceOf(
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
export interface Numbered {
  seq: number;
  message: string;
  frame?: WireFrame | null;
}

export function numbered(message: string): Numbered {
  return { seq: Number(message.slice(0, message.indexOf(' '))), message };
}

/** `"<userId> <json>"` of a kept or published entry → the client's frame with `seq` put in. */
export function numberedFrame(seq: number, entry: string): WireFrame | null {
  const json = entry.slice(entry.indexOf(' ') + 1);
  if (!json.startsWith(MESSAGE_HEAD)) return null;
  return textFrame(`${MESSAGE_HEAD}"seq":${seq},${json.slice(MESSAGE_HEAD.length)}`);
}

export function parseEntry(entry: string): { id: string } | null {
  try {
    return JSON.parse(entry.slice(entry.indexOf(' ') + 1)) as { id: string };
  } catch {
    return null;
  }
}

export function seatData(data: string | undefined): SeatData | null {
  if (data === undefined) return null;
  try {
    return JSON.parse(data) as SeatData;
  } catch {
    return null;
  }
}

/** Closes a connection with a last notice saying why; one that does not answer the close is dropped a second later. */
export function closeWith(c: LiveConnection, code: number, last: ChatNoticeEvent): void {
  if (c.closing) return;
  c.send(last);
  c.closing = true;
  c.ws.close(code, last.code);
  setTimeout(() => c.ws.terminate(), 1000).unref();
}
