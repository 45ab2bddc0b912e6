import { ChatMessages } from '@district/contracts';

/**
 * Expected failures of chat's use cases. Services throw these; chat-errors.interceptor.ts maps them to HTTP,
 * so the domain code never speaks HTTP.
 */
export abstract class ChatError extends Error {}

export class ChatroomNotFoundError extends ChatError {
  constructor() {
    super(ChatMessages.chatroomNotFound);
  }
}

/** identity did not answer the invite list request (down, slow, or an answer that breaks the contract). */
export class UsersUnavailableError extends ChatError {
  constructor() {
    super(ChatMessages.usersUnavailable);
  }
}
