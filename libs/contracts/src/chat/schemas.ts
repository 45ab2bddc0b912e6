import { z } from 'zod';
import { roleSchema } from '../identity/schemas';
import { CHATROOM_DESCRIPTION_MAX, CHATROOM_MAX_INVITED, CHATROOM_NAME_MAX, ChatMessages } from './messages';

const id = z.string().uuid();

/** Spec §3 Chatroom, as admins see it. `invitedUserIds` are canonical (lower-case) user ids. */
export const chatroomSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  invitedUserIds: z.array(id),
  isActive: z.boolean(),
  createdAt: z.string(),
  /**
   * A class chatroom (issue #36): the class it is for, whose roster (teachers and students) is its invited list,
   * and the class's title as chat's roster projection knows it. Absent on the spec's rooms.
   */
  classId: id.optional(),
  classTitle: z.string().optional(),
});
export type Chatroom = z.infer<typeof chatroomSchema>;
export const chatroomListSchema = z.array(chatroomSchema);

/**
 * A room as the chat screen lists it (tools spec §3: id, name, description). Who else is invited is not shown
 * to the people choosing a room.
 */
export const chatroomSummarySchema = chatroomSchema.pick({ id: true, name: true, description: true });
export type ChatroomSummary = z.infer<typeof chatroomSummarySchema>;
export const chatroomSummaryListSchema = z.array(chatroomSummarySchema);

/** Duplicates dropped, first occurrence kept, each id in its one (lower-case) spelling. */
export function uniqueUserIds(ids: readonly string[]): string[] {
  return [...new Set(ids.map((v) => v.toLowerCase()))];
}

const nameSchema = z
  .string({ error: ChatMessages.enterChatroomName })
  .trim()
  .min(1, ChatMessages.enterChatroomName)
  .max(CHATROOM_NAME_MAX, ChatMessages.chatroomNameTooLong);

/** Optional text; null counts as empty. */
const descriptionSchema = z
  .string({ error: ChatMessages.chatroomDescriptionNotText })
  .trim()
  .max(CHATROOM_DESCRIPTION_MAX, ChatMessages.chatroomDescriptionTooLong)
  .nullable()
  .transform((v) => v ?? '');

/** User ids in any letter case, each at most once in the result. */
const invitedUserIdsSchema = z
  .array(z.string({ error: ChatMessages.invitedUserIdInvalid }).uuid(ChatMessages.invitedUserIdInvalid), {
    error: ChatMessages.invitedUserIdsNotAList,
  })
  .max(CHATROOM_MAX_INVITED, ChatMessages.tooManyInvitedUsers)
  .transform(uniqueUserIds);

const isActiveSchema = z.boolean({ error: ChatMessages.isActiveNotBoolean });

/** POST /api/admin/chatrooms (spec §7: name, description, invitedUserIds). New rooms are active. */
export const createChatroomRequestSchema = z.object(
  {
    name: nameSchema,
    description: descriptionSchema.default(''),
    invitedUserIds: invitedUserIdsSchema.default([]),
    isActive: isActiveSchema.default(true),
    /**
     * A chatroom for a class (issue #36): its invited list is the class roster and follows it, so `invitedUserIds`
     * may not be sent with it. Also open to the class's teachers and its school's administrators.
     */
    classId: z
      .string({ error: ChatMessages.classIdInvalid })
      .uuid(ChatMessages.classIdInvalid)
      .transform((v) => v.toLowerCase())
      .optional(),
  },
  { error: ChatMessages.chatroomBodyNotObject },
);
export type CreateChatroomRequest = z.input<typeof createChatroomRequestSchema>;
export type NewChatroom = z.output<typeof createChatroomRequestSchema>;

/** PUT /api/admin/chatrooms/{id}: the spec's screen sends `isActive`; the other fields may change too. */
export const updateChatroomRequestSchema = z
  .object(
    {
      name: nameSchema.optional(),
      description: descriptionSchema.optional(),
      invitedUserIds: invitedUserIdsSchema.optional(),
      isActive: isActiveSchema.optional(),
    },
    { error: ChatMessages.chatroomBodyNotObject },
  )
  .refine(
    (v) =>
      v.name !== undefined ||
      v.description !== undefined ||
      v.invitedUserIds !== undefined ||
      v.isActive !== undefined,
    ChatMessages.nothingToChange,
  );
export type UpdateChatroomRequest = z.input<typeof updateChatroomRequestSchema>;
export type ChatroomChanges = z.output<typeof updateChatroomRequestSchema>;

/** GET /api/admin/chatrooms/invitable-users: everyone but administrators (spec §6), by name. */
export const invitableUserSchema = z.object({
  id,
  name: z.string(),
  username: z.string(),
  role: roleSchema,
});
export type InvitableUser = z.infer<typeof invitableUserSchema>;
export const invitableUsersResponseSchema = z.array(invitableUserSchema);
