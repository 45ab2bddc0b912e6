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

/** A class room asked of someone who neither teaches the class nor administers its school (issue #36). */
export class NotClassManagerError extends ChatError {
  constructor() {
    super(ChatMessages.classManagersOnly);
  }
}

/** The class named by a new room is not in chat's roster projection, or has ended. */
export class ClassNotFoundError extends ChatError {
  constructor() {
    super(ChatMessages.classNotFound);
  }
}

/** `invitedUserIds` sent for a class room, whose invited list is its class roster. */
export class ClassRoomInvitesError extends ChatError {
  constructor() {
    super(ChatMessages.classRoomInvitesFollowRoster);
  }
}
