import { holdsRight, type AuthUser } from '@district/nest-common';

type Caller = Pick<AuthUser, 'id' | 'role' | 'approved' | 'isAdmin'>;

/** Approved teachers and administrators (ADR 0011: an unapproved account's flags give no rights). */
export function isStaff(user: Omit<Caller, 'id'>): boolean {
  return holdsRight(user, 'teacher') || holdsRight(user, 'admin');
}

/**
 * Who may edit and delete an item (ADR 0020), decided from the stored row: an administrator, or the teacher who
 * created it while they still hold a teacher's or admin's rights. An anonymised item (creator deleted) is the
 * administrators' alone.
 */
export function canChange(user: Caller, creatorId: string | null): boolean {
  if (holdsRight(user, 'admin')) return true;
  return isStaff(user) && creatorId !== null && creatorId === user.id.toLowerCase();
}

/** An item as the caller sees it: with `canEdit`, the server's decision for the Edit and Delete buttons. */
export function withRights<T extends { creatorId: string | null }>(
  user: Caller,
  item: T,
): T & { canEdit: boolean } {
  return { ...item, canEdit: canChange(user, item.creatorId) };
}
