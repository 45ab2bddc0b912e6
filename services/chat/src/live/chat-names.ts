import { CHAT_NAME_MAX, ChatLiveMessages, type ChatRole, type SessionClaims } from '@district/contracts';
import { holdsRight } from '@district/nest-common';

// Control characters, and the bidirectional overrides and isolates that let a name display as another one.
const FORBIDDEN = /[\p{Cc}\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;

export type NameCheck = { ok: true; display: string; seat: string } | { ok: false; text: string };

/**
 * A chat name as shown (NFC, trimmed, inner spaces collapsed) and as compared (`seat`: NFKC and lower case, so
 * "Ana", "ANA" and "Ａｎａ" are one name in a room).
 */
export function checkChatName(raw: unknown): NameCheck {
  if (typeof raw !== 'string') return { ok: false, text: ChatLiveMessages.enterName };
  const display = raw.normalize('NFC').trim().replace(/\s+/gu, ' ');
  if (display === '' || FORBIDDEN.test(display)) return { ok: false, text: ChatLiveMessages.enterName };
  if ([...display].length > CHAT_NAME_MAX) return { ok: false, text: ChatLiveMessages.nameTooLong };
  return { ok: true, display, seat: display.normalize('NFKC').toLowerCase() };
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
