import { CHAT_NAME_MAX, ChatLiveMessages, type ChatRole, type SessionClaims } from '@district/contracts';
import { holdsRight } from '@district/nest-common';
import { RAW_NAME_MAX_UNITS, chatNameKey, normaliseChatName } from './chat-name-normaliser';

export type NameCheck = { ok: true; display: string; seat: string } | { ok: false; text: string };

/**
 * A chat name as shown (`normaliseChatName`: NFKC, invisible characters out, spaces collapsed) and as compared
 * (`seat`: its confusable skeleton without case, so "Ana", "ANA", "Ａｎａ" and Cyrillic "Аnа" are one name in a room).
 * Empty once normalised, or holding a character no name needs, is refused.
 */
export function checkChatName(raw: unknown): NameCheck {
  if (typeof raw !== 'string') return { ok: false, text: ChatLiveMessages.enterName };
  if (raw.length > RAW_NAME_MAX_UNITS) return { ok: false, text: ChatLiveMessages.nameTooLong };
  const display = normaliseChatName(raw);
  if (!display) return { ok: false, text: ChatLiveMessages.enterName };
  if ([...display].length > CHAT_NAME_MAX) return { ok: false, text: ChatLiveMessages.nameTooLong };
  return { ok: true, display, seat: chatNameKey(display) };
}

/**
 * The role shown beside a person's messages, from their session and never from the client: the rights they hold
 * (an unapproved teacher holds a student's, ADR 0011), so no pupil can appear as a teacher.
 */
export function chatRoleOf(claims: Pick<SessionClaims, 'role' | 'approved' | 'isAdmin'>): ChatRole {
  if (holdsRight(claims, 'admin')) return 'admin';
  if (holdsRight(claims, 'teacher')) return 'teacher';
  return 'student';
}
