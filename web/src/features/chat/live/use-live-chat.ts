import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  CHAT_NAME_CLASH_TOAST_MS,
  CHAT_SOCKETS_PER_ACCOUNT_DEFAULT,
  ChatLiveMessages,
  chatRosterDigestOf,
  type ChatJoinRejectedEvent,
  type ChatNoticeEvent,
  type ChatRole,
  type ChatroomSummary,
} from '@district/contracts/chat';
import { userSchema } from '@district/contracts/identity';
import { useToast, type ToastOptions } from '@/components/ui';
import { USER_UPDATED_EVENT } from '@/config/constants';
import { api } from '@/lib/api-client';
import { chatroomsQueryKey } from '../api/chatrooms';
import { ChatConnection, type ConnectionStatus, type StopReason } from './chat-connection';
import { chatLogReducer, emptyChatLog, type ChatLogState } from './chat-log';

/**
 * After a 4401 close: GET /api/auth/me once. A good answer is announced to the session (the role may have changed)
 * and the chat reconnects; a failed one ends the chat with the protocol's message.
 */
async function refreshSession(): Promise<boolean> {
  try {
    const user = await api.get('/api/auth/me', { schema: userSchema, noCache: true });
    window.dispatchEvent(new CustomEvent(USER_UPDATED_EVENT, { detail: user }));
    return true;
  } catch {
    return false;
  }
}

function rejectionToast(event: ChatJoinRejectedEvent, triedName: string): ToastOptions {
  switch (event.reason) {
    case 'name_taken':
      return {
        type: 'error',
        message: ChatLiveMessages.nameTaken(triedName),
        durationMs: CHAT_NAME_CLASH_TOAST_MS,
      };
    case 'not_invited':
      return { type: 'error', message: ChatLiveMessages.notInvited };
    case 'no_room':
      return { type: 'error', message: ChatLiveMessages.roomUnavailable };
    case 'rate_limited':
      return { type: 'warning', message: event.text || ChatLiveMessages.joinRateLimited };
    case 'muted':
      return { type: 'warning', message: event.text };
    default:
      return { type: 'error', message: event.text || ChatLiveMessages.enterName };
  }
}

/** Notices the close codes already explain (the close that follows says it once). */
const SILENT_NOTICES = new Set<ChatNoticeEvent['code']>([
  'reconnect',
  'room_closed',
  'session_changed',
  'too_many_connections',
]);

function noticeToast(event: ChatNoticeEvent): ToastOptions | null {
  if (SILENT_NOTICES.has(event.code) || !event.text) return null;
  // One of this screen's messages, held: it goes again when the connection rejoins.
  if (event.code === 'not_joined' && event.ref !== undefined) return null;
  switch (event.code) {
    case 'unmuted':
      return { type: 'info', message: event.text };
    case 'rate_limited':
    case 'slow_mode':
    case 'muted':
    case 'empty':
    case 'too_long':
      return { type: 'warning', message: event.text };
    default:
      return { type: 'error', message: event.text };
  }
}

const stopMessages: Partial<Record<StopReason, ToastOptions>> = {
  failed: { type: 'error', message: ChatLiveMessages.connectionFailed },
  lost: { type: 'warning', message: ChatLiveMessages.connectionLost },
  session: { type: 'error', message: ChatLiveMessages.sessionChanged },
  room_closed: { type: 'warning', message: ChatLiveMessages.roomClosed },
  // The server's notice names its own cap; this is said if it did not arrive.
  too_many_tabs: {
    type: 'error',
    message: ChatLiveMessages.tooManyConnections(CHAT_SOCKETS_PER_ACCOUNT_DEFAULT),
  },
};

export interface LiveChat {
  /** null: not joined (no connection). */
  status: Exclude<ConnectionStatus, { kind: 'stopped' }> | null;
  log: ChatLogState;
  /** The room joined (or being joined). */
  room: ChatroomSummary | null;
  /** Why the last connection ended, shown next to the join form until the next join. */
  problem: string | null;
  join: (room: ChatroomSummary, name: string, role: ChatRole) => void;
  leave: () => void;
  /** False when nothing was sent (empty text, or not joined). */
  send: (text: string) => boolean;
  /** Sends again one of this screen's messages shown as not sent (`ref` of its entry). */
  sendAgain: (ref: string) => void;
  removeMessage: (seq: number) => void;
  mute: (name: string, minutes: number) => void;
  setSlowMode: (seconds: number) => void;
}

/** The live room for the chat screen: one ChatConnection at a time, its events folded into ChatLogState. */
export function useLiveChat(): LiveChat {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [log, dispatch] = useReducer(chatLogReducer, emptyChatLog);
  const [status, setStatus] = useState<LiveChat['status']>(null);
  const [room, setRoom] = useState<ChatroomSummary | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const connection = useRef<ChatConnection | null>(null);
  // The text of the notice that came before a close, for the stop that follows (4429: the server's own cap).
  const closingText = useRef<string | null>(null);
  // The participants shown, for the rejoin's roster digest (read when the connection rejoins, not at render).
  const participants = useRef(log.participants);
  useEffect(() => {
    participants.current = log.participants;
  }, [log.participants]);

  // Leaving the page leaves the room.
  useEffect(
    () => () => {
      const current = connection.current;
      connection.current = null;
      current?.leave();
    },
    [],
  );

  const clear = useCallback(() => {
    setStatus(null);
    setRoom(null);
    dispatch({ type: 'reset' });
  }, []);

  const join = useCallback(
    (target: ChatroomSummary, name: string, role: ChatRole) => {
      const previous = connection.current;
      connection.current = null;
      previous?.leave();
      dispatch({ type: 'reset' });
      setProblem(null);
      setRoom(target);
      const conn: ChatConnection = new ChatConnection({
        target: { chatroom: target.id, name, role },
        refreshSession,
        rosterDigest: () => chatRosterDigestOf(participants.current),
        onEvent: (event) => {
          if (connection.current !== conn) return;
          if (event.type === 'join_rejected') toast(rejectionToast(event, name));
          else if (event.type === 'notice') {
            if (event.code === 'too_many_connections') closingText.current = event.text;
            const options = noticeToast(event);
            if (options) toast(options);
          }
          dispatch({ type: 'event', event });
        },
        onUnsent: (ref) => {
          if (connection.current === conn) dispatch({ type: 'unsent', ref });
        },
        onStatus: (next) => {
          if (connection.current !== conn) return;
          if (next.kind !== 'stopped') {
            setStatus(next);
            return;
          }
          connection.current = null;
          clear();
          const stated = stopMessages[next.reason];
          const message =
            stated && next.reason === 'too_many_tabs' && closingText.current
              ? { ...stated, message: closingText.current }
              : stated;
          closingText.current = null;
          if (message) {
            toast(message);
            setProblem(message.message);
          }
          if (next.reason === 'room_closed')
            void queryClient.invalidateQueries({ queryKey: chatroomsQueryKey });
        },
      });
      connection.current = conn;
      conn.start();
    },
    [toast, clear, queryClient],
  );

  const leave = useCallback(() => {
    const current = connection.current;
    connection.current = null;
    current?.leave();
    setProblem(null);
    clear();
  }, [clear]);

  const send = useCallback(
    (text: string) => {
      const trimmed = text.trim();
      if (!trimmed) return false;
      // Null when there is no joined connection to send it on.
      const ref = connection.current?.sendMessage(trimmed) ?? null;
      if (ref === null) {
        toast({ type: 'warning', message: ChatLiveMessages.notJoined });
        return false;
      }
      dispatch({ type: 'outgoing', ref, text: trimmed });
      return true;
    },
    [toast],
  );

  const sendAgain = useCallback(
    (ref: string) => {
      const entry = log.entries.find((e) => e.kind === 'outgoing' && e.ref === ref);
      if (!entry || entry.kind !== 'outgoing') return;
      if ((connection.current?.sendMessage(entry.text, ref) ?? null) === null) {
        toast({ type: 'warning', message: ChatLiveMessages.notJoined });
        return;
      }
      dispatch({ type: 'outgoing', ref, text: entry.text });
    },
    [log.entries, toast],
  );

  const moderate = useCallback(
    (frame: { type: 'remove' | 'mute' | 'slow_mode'; [key: string]: unknown }) => {
      if (!room) return;
      connection.current?.send({ ...frame, chatroom: room.id });
    },
    [room],
  );

  return {
    status,
    log,
    room,
    problem,
    join,
    leave,
    send,
    sendAgain,
    removeMessage: useCallback((seq: number) => moderate({ type: 'remove', seq }), [moderate]),
    mute: useCallback(
      (name: string, minutes: number) => moderate({ type: 'mute', name, minutes }),
      [moderate],
    ),
    setSlowMode: useCallback((seconds: number) => moderate({ type: 'slow_mode', seconds }), [moderate]),
  };
}
