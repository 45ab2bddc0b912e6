import { randomUUID } from 'node:crypto';
import { ChatCloseCodes, ChatLiveMessages } from '@district/contracts';
import {
  applyPresence,
  closeWith,
  joinedFrame,
  notice,
  numbered,
  numberedFrame,
  parseEntry,
  presenceOf,
  rejected,
  seatData,
} from '../../src/live/live-frames';
import { Roster } from '../../src/live/roster';
import { fakeClient, messageEntry, namesIn, payloadOf } from './parts-bench';

describe('live frames', () => {
  it('builds notices, with the room when one is named', () => {
    expect(notice('invalid', 'x')).toEqual({ type: 'notice', code: 'invalid', text: 'x' });
    expect(notice('muted', 'y', 'r1')).toEqual({ type: 'notice', code: 'muted', text: 'y', chatroom: 'r1' });
  });

  it('answers a refused join with what the client sent, cut to size, or the name it is given', () => {
    const long = rejected({ name: 'n'.repeat(300), chatroom: 'c'.repeat(300) }, 'invalid_name', 'why');
    expect(long).toMatchObject({
      type: 'join_rejected',
      reason: 'invalid_name',
      role: 'student',
      text: 'why',
    });
    expect(long.name).toHaveLength(100);
    expect(long.chatroom).toHaveLength(64);
    expect(rejected('not an object', 'no_room', 't')).toMatchObject({ name: '', chatroom: '' });
    expect(rejected({ name: 'ana', chatroom: 'r' }, 'name_taken', 't', 'Ana')).toMatchObject({ name: 'Ana' });
  });

  it('applies presence events to a roster by the name’s seat, and ignores a name that is not one', () => {
    const room = { roster: new Roster() };
    applyPresence(room, presenceOf('user_joined', 'r', 'Ana  María', 'student'));
    applyPresence(room, presenceOf('user_joined', 'r', 'Profe', 'teacher'));
    expect(namesIn(room.roster)).toEqual([
      { name: 'Ana  María', role: 'student' },
      { name: 'Profe', role: 'teacher' },
    ]);
    applyPresence(room, presenceOf('user_left', 'r', 'ana maría', 'student'));
    applyPresence(room, presenceOf('user_joined', 'r', '   ', 'student'));
    expect(namesIn(room.roster)).toEqual([{ name: 'Profe', role: 'teacher' }]);
    expect(presenceOf('user_joined', 'r', 'Ana', 'student').text).toBe(ChatLiveMessages.userJoined('Ana'));
    expect(presenceOf('user_left', 'r', 'Ana', 'student').text).toBe(ChatLiveMessages.userLeft('Ana'));
  });

  it('writes the joined answer with the room’s participants and the member itself, or without them for a client that holds the list', () => {
    const roster = new Roster();
    roster.set('profe', 'Profe', 'teacher');
    const event = {
      type: 'joined' as const,
      chatroom: 'r',
      name: 'Ana',
      role: 'student' as const,
      resume: 'token',
      seq: 7,
      roster: 'digest',
      slowModeSeconds: 0,
      canModerate: false,
    };
    const full = JSON.parse(payloadOf(joinedFrame(roster, 'ana', event, false))) as Record<string, unknown>;
    expect(full).toEqual({
      ...event,
      participants: [
        { name: 'Profe', role: 'teacher' },
        { name: 'Ana', role: 'student' },
      ],
    });
    const short = JSON.parse(payloadOf(joinedFrame(roster, 'ana', event, true))) as Record<string, unknown>;
    expect(short).toEqual(event);
  });

  it('reads a numbered message’s number once and puts it into the client’s frame; only messages become frames', () => {
    const { entry } = messageEntry('r', 'hola');
    const n = numbered(`42 ${entry}`);
    expect(n.seq).toBe(42);
    expect(n.message).toBe(`42 ${entry}`);
    const frame = numberedFrame(42, entry);
    expect(frame).not.toBeNull();
    const sent = JSON.parse(payloadOf(frame as Buffer)) as Record<string, unknown>;
    expect(sent).toMatchObject({ type: 'message', seq: 42, text: 'hola', chatroom: 'r' });
    expect(payloadOf(frame as Buffer).startsWith('{"type":"message","seq":42,')).toBe(true);
    expect(numberedFrame(3, `u {"type":"message_removed","seq":1}`)).toBeNull();
  });

  it('reads a kept entry’s id and a seat’s holder, and nothing from what is not JSON', () => {
    const { id, entry } = messageEntry('r', 'x');
    expect(parseEntry(entry)).toMatchObject({ id });
    expect(parseEntry('u {not json')).toBeNull();
    const data = { name: 'Ana', role: 'student', userId: randomUUID() };
    expect(seatData(JSON.stringify(data))).toEqual(data);
    expect(seatData(undefined)).toBeNull();
    expect(seatData('{')).toBeNull();
  });

  it('closes a connection saying why, once, and drops it a second later if it does not answer', () => {
    jest.useFakeTimers();
    try {
      const client = fakeClient();
      closeWith(client.c, ChatCloseCodes.roomClosed, notice('room_closed', ChatLiveMessages.roomClosed, 'r'));
      expect(client.frames).toEqual([
        { type: 'notice', code: 'room_closed', text: ChatLiveMessages.roomClosed, chatroom: 'r' },
      ]);
      expect(client.closes).toEqual([{ code: ChatCloseCodes.roomClosed, reason: 'room_closed' }]);
      expect(client.c.closing).toBe(true);
      closeWith(client.c, ChatCloseCodes.serviceRestart, notice('reconnect', ChatLiveMessages.reconnecting));
      expect(client.closes).toHaveLength(1);
      expect(client.state.terminated).toBe(false);
      jest.advanceTimersByTime(999);
      expect(client.state.terminated).toBe(false);
      jest.advanceTimersByTime(1);
      expect(client.state.terminated).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
