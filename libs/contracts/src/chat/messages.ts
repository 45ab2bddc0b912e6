/** Limits the spec leaves open (its §9 says "not shown"); the messages below word them. */
export const CHATROOM_NAME_MAX = 100;
export const CHATROOM_DESCRIPTION_MAX = 500;
/** A few classes per room; the admin screen's invite list scrolls, so far more would be unusable anyway. */
export const CHATROOM_MAX_INVITED = 1000;

/** Texts of the spec (shared/spec/blog-accounts-admin.md §5, §8), shared by the chat service and web. */
export const ChatMessages = {
  enterChatroomName: 'Please enter a chatroom name',
  createChatroomFailed: 'Failed to create chatroom',
  deleteChatroomFailed: 'Failed to delete chatroom',
  updateChatroomStatusFailed: 'Failed to update chatroom status',
  // Server answers the spec does not word; kept short and in the spec's tone.
  chatroomNotFound: 'Chatroom not found',
  chatroomNameTooLong: `Chatroom name must be at most ${CHATROOM_NAME_MAX} characters`,
  chatroomDescriptionTooLong: `Description must be at most ${CHATROOM_DESCRIPTION_MAX} characters`,
  chatroomDescriptionNotText: 'Description must be text',
  invitedUserIdsNotAList: 'invitedUserIds must be a list of user ids',
  invitedUserIdInvalid: 'Each invited user must be a user id',
  tooManyInvitedUsers: `At most ${CHATROOM_MAX_INVITED} people can be invited to a chatroom`,
  isActiveNotBoolean: 'isActive must be true or false',
  chatroomBodyNotObject: 'Send the chatroom as a JSON object',
  nothingToChange: 'Send isActive, name, description or invitedUserIds to change',
  // Class chatrooms (issue #36).
  classIdInvalid: 'classId must be a class id',
  classNotFound: 'Class not found',
  classManagersOnly:
    "Only the class's teachers, its school's administrators and district administrators can do this",
  classRoomInvitesFollowRoster:
    "A class chatroom's invited list is the class roster: it cannot be set by hand",
  usersUnavailable: 'The list of people to invite is unavailable right now. Please try again in a moment.',
} as const;
