import { CreateChatrooms1733200000000 } from './1733200000000-create-chatrooms.migration';
import { AddChatroomClass1733800000100 } from './1733800000100-add-chatroom-class.migration';

/**
 * Every migration of chat, in order (the platform adds the outbox and inbox tables, and the roster projection's,
 * before them).
 */
export const chatMigrations = [CreateChatrooms1733200000000, AddChatroomClass1733800000100];
