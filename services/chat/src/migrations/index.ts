import { CreateChatrooms1733200000000 } from './1733200000000-create-chatrooms.migration';

/** Every migration of chat, in order (the platform adds the outbox and inbox tables before them). */
export const chatMigrations = [CreateChatrooms1733200000000];
