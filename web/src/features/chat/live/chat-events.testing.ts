// Test-only builders for the server's chat events (shapes from @district/contracts/chat live.ts).
import type {
  ChatJoinRejectedEvent,
  ChatJoinedEvent,
  ChatMessageEvent,
  ChatPresenceEvent,
  ChatRole,
} from '@district/contracts/chat';

export const ROOM_ID = '11111111-1111-4111-8111-111111111111';
const at = (minute: number) => new Date(Date.UTC(2025, 2, 10, 9, minute)).toISOString();

export function joined(overrides: Partial<ChatJoinedEvent> = {}): ChatJoinedEvent {
  return {
    type: 'joined',
    chatroom: ROOM_ID,
    name: 'Sam Student',
    role: 'student',
    resume: 'resume-token-1',
    seq: 0,
    roster: '0.0',
    participants: [{ name: 'Sam Student', role: 'student' }],
    slowModeSeconds: 0,
    canModerate: false,
    ...overrides,
  };
}

export function message(
  seq: number,
  text: string,
  name = 'Tia Teacher',
  role: ChatRole = 'teacher',
): ChatMessageEvent {
  return {
    type: 'message',
    seq,
    id: `msg-${seq}`,
    name,
    role,
    text,
    timestamp: at(seq % 60),
    chatroom: ROOM_ID,
  };
}

export function presence(
  type: 'user_joined' | 'user_left',
  name: string,
  role: ChatRole = 'student',
): ChatPresenceEvent {
  return { type, id: `${type}-${name}`, name, role, text: '', timestamp: at(0), chatroom: ROOM_ID };
}

export function rejected(
  reason: ChatJoinRejectedEvent['reason'],
  name = 'Sam Student',
): ChatJoinRejectedEvent {
  return {
    type: 'join_rejected',
    reason,
    id: 'rej',
    name,
    role: 'student',
    text: '',
    timestamp: at(0),
    chatroom: ROOM_ID,
  };
}
