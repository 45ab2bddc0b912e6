import { holdsRight, type AuthUser } from '@district/nest-common';

type Caller = Pick<AuthUser, 'id' | 'role' | 'approved' | 'isAdmin'>;

/** Approved teachers and administrators (ADR 0011: an unapproved account's flags give no rights). */
export function isStaff(user: Omit<Caller, 'id'>): boolean {
  return holdsRight(user, 'teacher') || holdsRight(user, 'admin');
}

/**
 * Who may edit and delete an item (ADR 0020), decided from the stored row: an administrator, or the teacher who
 * created it while they still hold a teacher's or admin's rights, or (issue #36) an administrator of the item's
 * school (`administered`: the schools the caller administers, from classroom's roster projection, SchoolRights).
 * An anonymised item (creator deleted) is the district's and its school's administrators' alone.
 */
export function canChange(
  user: Caller,
  item: { creatorId: string | null; schoolId: string | null },
  administered: readonly string[] = [],
): boolean {
  if (holdsRight(user, 'admin')) return true;
  if (!isStaff(user)) return false;
  if (item.creatorId !== null && item.creatorId === user.id.toLowerCase()) return true;
  return item.schoolId !== null && administered.includes(item.schoolId);
}

/** An item as the caller sees it: with `canEdit`, the server's decision for the Edit and Delete buttons. */
export function withRights<T extends { creatorId: string | null; schoolId: string | null }>(
  user: Caller,
  item: T,
  administered: readonly string[] = [],
): T & { canEdit: boolean } {
  return { ...item, canEdit: canChange(user, item, administered) };
}
