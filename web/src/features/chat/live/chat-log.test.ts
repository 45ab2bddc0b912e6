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

  it('keeps the participants from quiet (coalesced) presence events without a line', () => {
    const state = apply(
      emptyChatLog,
      ev(joined()),
      ev(presence('user_joined', 'Luis')),
      ev(presence('user_left', 'Luis')),
      ev({ ...presence('user_joined', 'Luis'), quiet: true }),
      ev({ ...presence('user_left', 'Luis'), quiet: true }),
      ev({ ...presence('user_joined', 'Luis'), quiet: true }),
    );
    expect(state.participants.map((p) => p.name)).toEqual(['Luis', 'Sam Student']);
    expect(state.entries.map((e) => e.kind === 'presence' && e.text)).toEqual([
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

  it('keeps its own unconfirmed messages at the bottom until their broadcast or sent replaces them', () => {
    const mine = (seq: number, text: string, ref: string) => ({
      ...message(seq, text, 'Sam Student', 'student'),
      ref,
    });
    let state = apply(
      emptyChatLog,
      ev(joined()),
      ev(message(1, 'uno')),
      { type: 'outgoing', ref: 'ref-a', text: 'mía' },
      { type: 'outgoing', ref: 'ref-b', text: 'otra' },
      ev(message(2, 'dos')),
      ev(presence('user_joined', 'Zoe')),
    );
    const shape = (s: ChatLogState) =>
      s.entries.map((e) =>
        e.kind === 'outgoing' ? `${e.state}:${e.text}` : e.kind === 'message' ? e.text : e.kind,
      );
    expect(shape(state)).toEqual(['uno', 'dos', 'presence', 'sending:mía', 'sending:otra']);
    state = apply(state, ev(mine(3, 'mía', 'ref-a')), { type: 'unsent', ref: 'ref-b' });
    expect(shape(state)).toEqual(['uno', 'dos', 'presence', 'mía', 'failed:otra']);
    // The PDF export prints the room's messages only.
    expect(chatMessages(state).map((m) => m.text)).toEqual(['uno', 'dos', 'mía']);
    // Sent again, then the server says the room already had it (the replay shows it by its number).
    state = apply(state, { type: 'outgoing', ref: 'ref-b', text: 'otra' });
    expect(shape(state).at(-1)).toBe('sending:otra');
    state = apply(
      state,
      ev({ type: 'sent', chatroom: 'r', ref: 'ref-b', seq: 4 }),
      ev(mine(4, 'otra', 'ref-b')),
    );
    expect(shape(state)).toEqual(['uno', 'dos', 'presence', 'mía', 'otra']);
    // Unsent for a ref no longer shown changes nothing.
    expect(apply(state, { type: 'unsent', ref: 'ref-b' })).toBe(state);
  });

  it('keeps the participants it shows when a rejoin’s joined comes without them', () => {
    const first = apply(
      emptyChatLog,
      ev(
        joined({
          participants: [
            { name: 'Ana', role: 'student' },
            { name: 'Sam Student', role: 'student' },
          ],
        }),
      ),
    );
    const { participants: _left, ...withoutList } = joined({ seq: 3, canModerate: true });
    const state = apply(first, ev(withoutList as ChatServerEvent));
    expect(state.participants.map((p) => p.name)).toEqual(['Ana', 'Sam Student']);
    expect(state.canModerate).toBe(true);
  });
});
