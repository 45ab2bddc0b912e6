import { describe, expect, it } from 'vitest';
import { ChatLiveMessages, type ChatServerEvent } from '@district/contracts/chat';
import {
  chatLogReducer,
  chatMessages,
  emptyChatLog,
  type ChatLogAction,
  type ChatLogState,
} from './chat-log';
import { joined, message, presence } from './chat-events.testing';

const apply = (state: ChatLogState, ...actions: ChatLogAction[]) => actions.reduce(chatLogReducer, state);
const ev = (event: ChatServerEvent): ChatLogAction => ({ type: 'event', event });

describe('chatLogReducer', () => {
  it('takes participants, moderation and slow mode from joined', () => {
    const state = apply(
      emptyChatLog,
      ev(
        joined({
          participants: [
            { name: 'Zoe', role: 'student' },
            { name: 'Ana', role: 'teacher' },
          ],
          canModerate: true,
          slowModeSeconds: 10,
        }),
      ),
    );
    expect(state.participants.map((p) => p.name)).toEqual(['Ana', 'Zoe']);
    expect(state.canModerate).toBe(true);
    expect(state.slowModeSeconds).toBe(10);
    expect(state.self).toEqual({ name: 'Sam Student', role: 'student' });
  });

  it('merges replayed messages without duplicates, in seq order', () => {
    const state = apply(
      emptyChatLog,
      ev(joined()),
      ev(message(1, 'uno')),
      ev(message(2, 'dos')),
      ev(message(4, 'cuatro')),
      // a reconnect's replay
      ev(message(2, 'dos')),
      ev(message(3, 'tres')),
      ev(message(4, 'cuatro')),
      ev(message(5, 'cinco')),
    );
    expect(chatMessages(state).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps the messages shown, before the new ones, when the room’s numbering starts again', () => {
    const state = apply(
      emptyChatLog,
      ev(joined()),
      ev(message(7, 'viejo')),
      ev(message(8, 'más viejo')),
      ev(joined({ seq: 0, truncated: true })),
      ev(message(1, 'nuevo')),
    );
    expect(chatMessages(state).map((m) => m.text)).toEqual(['viejo', 'más viejo', 'nuevo']);
    expect(new Set(state.entries.map((e) => e.key)).size).toBe(state.entries.length);
  });

  it('adds and removes participants with user_joined and user_left, with a line each', () => {
    const state = apply(
      emptyChatLog,
      ev(joined()),
      ev(presence('user_joined', 'Luis')),
      ev(presence('user_joined', 'Luis')),
      ev(presence('user_left', 'Luis')),
    );
    expect(state.participants.map((p) => p.name)).toEqual(['Sam Student']);
    expect(state.entries.map((e) => e.kind === 'presence' && e.text)).toEqual([
      ChatLiveMessages.userJoined('Luis'),
      ChatLiveMessages.userJoined('Luis'),
      ChatLiveMessages.userLeft('Luis'),
    ]);
  });

  it('announces its own join once, not again after a reconnect', () => {
    const state = apply(
      emptyChatLog,
      ev(joined()),
      ev(presence('user_joined', 'Sam Student')),
      ev(joined()),
      ev(presence('user_joined', 'Sam Student')),
    );
    expect(state.entries).toHaveLength(1);
  });

  it('removes a message on message_removed and notes slow mode changes', () => {
    const state = apply(
      emptyChatLog,
      ev(joined()),
      ev(message(1, 'uno')),
      ev(message(2, 'dos')),
      { type: 'event', event: { type: 'message_removed', chatroom: 'r', seq: 1, id: 'msg-1' } },
      { type: 'event', event: { type: 'slow_mode', chatroom: 'r', seconds: 30, name: 'Tia' } },
    );
    expect(chatMessages(state).map((m) => m.text)).toEqual(['dos']);
    expect(state.slowModeSeconds).toBe(30);
    expect(state.entries.at(-1)).toMatchObject({ kind: 'notice', text: ChatLiveMessages.slowMode(30) });
  });

  it('notes a truncated history and resets to empty', () => {
    const state = apply(emptyChatLog, ev(joined({ truncated: true })));
    expect(state.entries[0]).toMatchObject({ kind: 'notice', text: ChatLiveMessages.historyTruncated });
    expect(chatLogReducer(state, { type: 'reset' })).toBe(emptyChatLog);
  });
});
