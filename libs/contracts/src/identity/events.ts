import { z } from 'zod';
import { userSchema } from './schemas';

/** identity.user.created.v1 / identity.user.updated.v1 — the user's public fields and new token version. */
export const userChangedEventSchema = z.object({
  user: userSchema,
  tokenVersion: z.number().int(),
  /** What changed, for consumers that only care about some fields. */
  changed: z.array(z.enum(['created', 'name', 'approval', 'role', 'admin', 'password', 'profile'])),
});
export type UserChangedEvent = z.infer<typeof userChangedEventSchema>;

/** identity.user.deleted.v1 — every service removes or anonymises that user's data. */
export const userDeletedEventSchema = z.object({ userId: z.string().uuid() });
export type UserDeletedEvent = z.infer<typeof userDeletedEventSchema>;

/**
 * identity.session.ended.v1 — a session was signed out: everything still open on it (chat sockets) closes. The
 * session id is the token's `sid`, shared by every copy /me refreshed from it.
 */
export const sessionEndedEventSchema = z.object({
  userId: z.string().uuid(),
  sessionId: z.string().min(1).max(200),
});
export type SessionEndedEvent = z.infer<typeof sessionEndedEventSchema>;

/** Most people in one identity.users.list answer: a district's ~8,000 accounts in one NATS message would pass its 1 MB limit. */
export const USERS_LIST_PAGE_MAX = 1000;

/**
 * identity.users.list.v1 request/reply (chat invite list). Admins are excluded when asked; a request without
 * data (null on the wire) asks for everyone. With `limit`, one page in id order after `after`, and `next` (the
 * last id) while more may follow; without it, everyone at once (what replicas from before paging ask).
 */
export const usersListRequestSchema = z.preprocess(
  (data) => data ?? {},
  z.object({
    excludeAdmins: z.boolean().default(false),
    limit: z.number().int().min(1).max(USERS_LIST_PAGE_MAX).optional(),
    after: z.string().uuid().optional(),
  }),
);
export type UsersListRequest = z.infer<typeof usersListRequestSchema>;
export const usersListReplySchema = z.object({
  users: z.array(userSchema.pick({ id: true, name: true, username: true, role: true, isAdmin: true })),
  next: z.string().uuid().nullable().optional(),
});
export type UsersListReply = z.infer<typeof usersListReplySchema>;
