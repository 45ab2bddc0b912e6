import { ChatLiveMessages, type ChatRole, type ChatServerEvent } from '@district/contracts/chat';
import { CHAT_LOG_MAX_ENTRIES, ChatRoomTexts } from '../chat.constants';

export interface Participant {
  name: string;
  role: ChatRole;
}

export interface ChatMessageEntry {
  kind: 'message';
  key: string;
  seq: number;
  id: string;
  name: string;
  role: ChatRole;
  text: string;
  timestamp: string;
}
export interface ChatPresenceEntry {
  kind: 'presence';
  key: string;
  name: string;
  text: string;
  timestamp: string;
}
/** A line from the screen itself (history gaps, slow mode changes). */
export interface ChatNoticeEntry {
  kind: 'notice';
  key: string;
  text: string;
}
export type ChatEntry = ChatMessageEntry | ChatPresenceEntry | ChatNoticeEntry;

/** What the message window, the participants list and the moderation controls show. */
export interface ChatLogState {
  entries: ChatEntry[];
  participants: Participant[];
  /** The name and role the server confirmed in `joined`. */
  self: Participant | null;
  canModerate: boolean;
  slowModeSeconds: number;
  /** Own "joined" line shown once; a reconnect's rejoin does not repeat it. */
  announcedSelf: boolean;
  nextKey: number;
}

export const emptyChatLog: ChatLogState = {
  entries: [],
  participants: [],
  self: null,
  canModerate: false,
  slowModeSeconds: 0,
  announcedSelf: false,
  nextKey: 1,
};

export type ChatLogAction = { type: 'event'; event: ChatServerEvent } | { type: 'reset' };

const byName = (a: Participant, b: Participant) => a.name.localeCompare(b.name);
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function withEntry(
  state: ChatLogState,
  entry: Omit<ChatPresenceEntry, 'key'> | Omit<ChatNoticeEntry, 'key'>,
): ChatLogState {
  const key = `${entry.kind}-${state.nextKey}`;
  return {
    ...state,
    entries: cap([...state.entries, { ...entry, key } as ChatEntry]),
    nextKey: state.nextKey + 1,
  };
}

function cap(entries: ChatEntry[]): ChatEntry[] {
  return entries.length > CHAT_LOG_MAX_ENTRIES
    ? entries.slice(entries.length - CHAT_LOG_MAX_ENTRIES)
    : entries;
}

/**
 * Adds a message unless its number is already shown (a reconnect's replay repeats what the server cannot know
 * this screen has). Messages stay in number order: a late one is slotted in before the first with a higher number.
 */
function mergeMessage(state: ChatLogState, entry: ChatMessageEntry): ChatLogState {
  const { entries } = state;
  if (entries.some((e) => e.kind === 'message' && e.seq === entry.seq)) return state;
  const later = entries.findIndex((e) => e.kind === 'message' && e.seq > entry.seq);
  const next = later < 0 ? [...entries, entry] : [...entries.slice(0, later), entry, ...entries.slice(later)];
  return { ...state, entries: cap(next) };
}

/**
 * The room's numbering went back below what this screen holds (the server lost its shared state): the messages
 * shown stay, re-numbered below zero in their order, so the new numbers neither collide with nor sort before them.
 */
function archiveMessages(state: ChatLogState, newest: number): ChatLogState {
  const shift = newest + 1;
  return {
    ...state,
    entries: state.entries.map((e) =>
      e.kind === 'message' ? { ...e, seq: e.seq - shift, key: `a${shift}-${e.key}` } : e,
    ),
  };
}

/** The chat screen's state as a pure function of the server's events (tested without a socket). */
export function chatLogReducer(state: ChatLogState, action: ChatLogAction): ChatLogState {
  if (action.type === 'reset') return emptyChatLog;
  const event = action.event;
  switch (event.type) {
    case 'joined': {
      const newest = Math.max(0, ...state.entries.map((e) => (e.kind === 'message' ? e.seq : 0)));
      let next: ChatLogState = {
        ...(newest > event.seq ? archiveMessages(state, newest) : state),
        self: { name: event.name, role: event.role },
        participants: [...event.participants].sort(byName),
        canModerate: event.canModerate,
        slowModeSeconds: event.slowModeSeconds,
      };
      if (event.truncated)
        next = withEntry(next, { kind: 'notice', text: ChatLiveMessages.historyTruncated });
      return next;
    }
    case 'message':
      if (!Number.isInteger(event.seq)) return state;
      return mergeMessage(state, {
        kind: 'message',
        key: `m-${event.seq}`,
        seq: event.seq,
        id: event.id,
        name: event.name,
        role: event.role,
        text: event.text,
        timestamp: event.timestamp,
      });
    case 'user_joined': {
      const own = state.self !== null && sameName(event.name, state.self.name);
      const participants = state.participants.some((p) => sameName(p.name, event.name))
        ? state.participants
        : [...state.participants, { name: event.name, role: event.role }].sort(byName);
      const next = { ...state, participants, announcedSelf: state.announcedSelf || own };
      if (own && state.announcedSelf) return next;
      return withEntry(next, {
        kind: 'presence',
        name: event.name,
        text: ChatLiveMessages.userJoined(event.name),
        timestamp: event.timestamp,
      });
    }
    case 'user_left': {
      const own = state.self !== null && sameName(event.name, state.self.name);
      const next = {
        ...state,
        participants: state.participants.filter((p) => !sameName(p.name, event.name)),
      };
      if (own) return next;
      return withEntry(next, {
        kind: 'presence',
        name: event.name,
        text: ChatLiveMessages.userLeft(event.name),
        timestamp: event.timestamp,
      });
    }
    case 'message_removed':
      return {
        ...state,
        entries: state.entries.filter(
          (e) => !(e.kind === 'message' && (e.seq === event.seq || e.id === event.id)),
        ),
      };
    case 'slow_mode':
      if (event.seconds === state.slowModeSeconds) return state;
      return withEntry(
        { ...state, slowModeSeconds: event.seconds },
        {
          kind: 'notice',
          text: event.seconds > 0 ? ChatLiveMessages.slowMode(event.seconds) : ChatRoomTexts.slowModeOff,
        },
      );
    default:
      // join_rejected and notices are shown as toasts by the screen; they change nothing here.
      return state;
  }
}

/** The messages in the window, oldest first (what the PDF export prints). */
export function chatMessages(state: ChatLogState): ChatMessageEntry[] {
  return state.entries.filter((e): e is ChatMessageEntry => e.kind === 'message');
}
