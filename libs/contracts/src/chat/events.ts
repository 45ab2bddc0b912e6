import { z } from 'zod';
import { chatroomSchema } from './schemas';

/** chat.room.created.v1 / chat.room.updated.v1 — the room as it now is (an update may be a removed invitee). */
export const chatroomChangedEventSchema = z.object({ room: chatroomSchema });
export type ChatroomChangedEvent = z.infer<typeof chatroomChangedEventSchema>;

/** chat.room.deleted.v1 */
export const chatroomDeletedEventSchema = z.object({ roomId: z.string().uuid() });
export type ChatroomDeletedEvent = z.infer<typeof chatroomDeletedEventSchema>;
