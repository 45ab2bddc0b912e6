/**
 * Screen texts of the chat feature that are not already in @district/contracts/chat (ChatMessages for the admin
 * screen, ChatLiveMessages for the live room). Spec: blog-accounts-admin.md §8 and classroom-tools.md §8.
 */
export const ChatAdminMessages = {
  /** Spec §8 'Error: {message}': a failure the server explained. */
  serverError: (message: string) => `Error: ${message}`,
  chatroomCreated: 'Chatroom created successfully',
  chatroomDeleted: 'Chatroom deleted successfully',
  chatroomsLoadFailed: 'Failed to load chatrooms',
  invitableUsersFailed: 'The list of people to invite could not be loaded.',
  noInvitableUsers: 'Nobody to invite yet.',
} as const;

/** Texts of the live room that neither the spec nor the protocol words. */
export const ChatRoomTexts = {
  reconnecting: 'Reconnecting…',
  slowModeOff: 'Slow mode is off.',
  roomsLoadFailed: 'Failed to load chatrooms',
  noRooms: 'No chatrooms are available to you yet.',
  sending: 'Sending…',
  notSent: 'Not sent',
  sendAgain: 'Send again',
} as const;

/** Reconnect back-off after an unexpected close: up to 0.5 s, 1 s, 2 s, … at most 10 s (with jitter), then give up. */
export const CHAT_RECONNECT_BASE_MS = 500;
export const CHAT_RECONNECT_MAX_MS = 10_000;
/** About 80 s of trying before the screen says the connection is lost. */
export const CHAT_RECONNECT_MAX_ATTEMPTS = 12;
/** A message not heard back this long after it was sent on a joined connection is shown as not sent. */
export const CHAT_SEND_CONFIRM_MS = 10_000;
/** Messages kept on screen (and exported); the oldest go first. */
export const CHAT_LOG_MAX_ENTRIES = 1000;

/** The embedded PDF font (Noto Sans Regular, subset to Latin-1 + Latin Extended-A; OFL). */
export const CHAT_PDF_FONT_URL = '/fonts/NotoSans-Regular-Latin.ttf';
