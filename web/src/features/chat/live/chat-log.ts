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
/**
 * One of this screen's own messages not yet heard back from the room (`sending`), or given up on (`failed`: the
 * screen offers to send it again). It stays below the room's lines until its broadcast replaces it.
 */
export interface ChatOutgoingEntry {
  kind: 'outgoing';
  key: string;
  ref: string;
  text: string;
  state: 'sending' | 'failed';
}
/** A line from the screen itself (history gaps, slow mode changes). */
export interface ChatNoticeEntry {
  kind: 'notice';
  key: string;
  text: string;
}
export type ChatEntry = ChatMessageEntry | ChatPresenceEntry | ChatNoticeEntry | ChatOutgoingEntry;

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

export type ChatLogAction =
  | { type: 'event'; event: ChatServerEvent }
  | { type: 'reset' }
  /** This screen sent (or sent again) a message with `ref`. */
  | { type: 'outgoing'; ref: string; text: string }
  /** The message with `ref` was not sent (refused, never heard back, or the connection ended). */
  | { type: 'unsent'; ref: string };

const byName = (a: Participant, b: Participant) => a.name.localeCompare(b.name);
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function withEntry(
  state: ChatLogState,
  entry: Omit<ChatPresenceEntry, 'key'> | Omit<ChatNoticeEntry, 'key'>,
): ChatLogState {
  const key = `${entry.kind}-${state.nextKey}`;
  return {
    ...state,
    entries: cap(insertAt(state.entries, firstOutgoing(state.entries), { ...entry, key } as ChatEntry)),
    nextKey: state.nextKey + 1,
  };
}

/** Where the room's lines end and this screen's unconfirmed messages begin (they stay at the bottom). */
function firstOutgoing(entries: readonly ChatEntry[]): number {
  const at = entries.findIndex((e) => e.kind === 'outgoing');
  return at < 0 ? entries.length : at;
}

function insertAt(entries: readonly ChatEntry[], at: number, entry: ChatEntry): ChatEntry[] {
  return [...entries.slice(0, at), entry, ...entries.slice(at)];
}

function withoutOutgoing(state: ChatLogState, ref: string | undefined): ChatLogState {
  if (ref === undefined || !state.entries.some((e) => e.kind === 'outgoing' && e.ref === ref)) return state;
  return { ...state, entries: state.entries.filter((e) => !(e.kind === 'outgoing' && e.ref === ref)) };
}

function outgoing(state: ChatLogState, ref: string, text: string, sent: 'sending' | 'failed'): ChatLogState {
  const held = state.entries.findIndex((e) => e.kind === 'outgoing' && e.ref === ref);
  if (held < 0) {
    if (sent === 'failed') return state;
    const entry: ChatOutgoingEntry = { kind: 'outgoing', key: `o-${ref}`, ref, text, state: sent };
    return { ...state, entries: cap([...state.entries, entry]) };
  }
  const entries = [...state.entries];
  entries[held] = { ...(entries[held] as ChatOutgoingEntry), state: sent };
  return { ...state, entries };
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
  return { ...state, entries: cap(insertAt(entries, later < 0 ? firstOutgoing(entries) : later, entry)) };
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
  if (action.type === 'outgoing') return outgoing(state, action.ref, action.text, 'sending');
  if (action.type === 'unsent') return outgoing(state, action.ref, '', 'failed');
  const event = action.event;
  switch (event.type) {
    case 'joined': {
      const newest = Math.max(0, ...state.entries.map((e) => (e.kind === 'message' ? e.seq : 0)));
      let next: ChatLogState = {
        ...(newest > event.seq ? archiveMessages(state, newest) : state),
        self: { name: event.name, role: event.role },
        // Without a list the server found this screen's current (the rejoin's roster digest matched).
        participants: event.participants ? [...event.participants].sort(byName) : state.participants,
        canModerate: event.canModerate,
        slowModeSeconds: event.slowModeSeconds,
      };
      if (event.truncated)
        next = withEntry(next, { kind: 'notice', text: ChatLiveMessages.historyTruncated });
      return next;
    }
    case 'message':
      if (!Number.isInteger(event.seq)) return state;
      // One of this screen's own, back from the room: it takes its place among the numbered messages.
      return mergeMessage(withoutOutgoing(state, event.ref), {
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
      // A repeat the server coalesced (one account joining again and again): the list changes, no line.
      if ((own && state.announcedSelf) || event.quiet) return next;
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
      if (own || event.quiet) return next;
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
    case 'sent':
      // A message sent again that the room already had: it is shown by its number (the replay, or already).
      return withoutOutgoing(state, event.ref);
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
