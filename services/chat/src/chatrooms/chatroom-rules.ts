import { holdsRight, type AuthUser } from '@district/nest-common';

/** Which active rooms a signed-in person may see and join. */
export type RoomScope = { all: true } | { inviteeId: string };

/**
 * Teachers and administrators see every active room; everyone else (students, and any unapproved account,
 * which holds only a student's rights — ADR 0011) sees the active rooms they are invited to.
 */
export function roomScopeOf(viewer: Pick<AuthUser, 'id' | 'role' | 'approved' | 'isAdmin'>): RoomScope {
  if (holdsRight(viewer, 'teacher') || holdsRight(viewer, 'admin')) return { all: true };
  return { inviteeId: viewer.id.toLowerCase() };
}
