import fc from 'fast-check';
import { CHATROOM_MAX_INVITED, ChatMessages } from './messages';
import { createChatroomRequestSchema, uniqueUserIds, updateChatroomRequestSchema } from './schemas';

const spelled = fc.tuple(fc.uuid(), fc.boolean()).map(([id, upper]) => (upper ? id.toUpperCase() : id));

describe('uniqueUserIds', () => {
  it('keeps each id once, in lower case, in the order first seen', () => {
    fc.assert(
      fc.property(fc.array(spelled, { maxLength: 30 }), (ids) => {
        const out = uniqueUserIds(ids);
        expect(new Set(out).size).toBe(out.length);
        expect(out.every((id) => id === id.toLowerCase())).toBe(true);
        expect(new Set(out)).toEqual(new Set(ids.map((id) => id.toLowerCase())));
        expect(out).toEqual(ids.map((id) => id.toLowerCase()).filter((id, i, all) => all.indexOf(id) === i));
      }),
    );
  });
});

describe('createChatroomRequestSchema', () => {
  it('defaults what the screen may leave out: no description, nobody invited, active', () => {
    expect(createChatroomRequestSchema.parse({ name: ' Room ' })).toEqual({
      name: 'Room',
      description: '',
      invitedUserIds: [],
      isActive: true,
    });
    expect(createChatroomRequestSchema.parse({ name: 'Room', description: null }).description).toBe('');
  });

  it('words every refusal', () => {
    const message = (body: unknown) => createChatroomRequestSchema.safeParse(body).error?.issues[0]?.message;
    expect(message({})).toBe(ChatMessages.enterChatroomName);
    expect(message({ name: ' ' })).toBe(ChatMessages.enterChatroomName);
    expect(message({ name: 'a'.repeat(101) })).toBe(ChatMessages.chatroomNameTooLong);
    expect(message({ name: 'a', invitedUserIds: ['nope'] })).toBe(ChatMessages.invitedUserIdInvalid);
    expect(message({ name: 'a', invitedUserIds: {} })).toBe(ChatMessages.invitedUserIdsNotAList);
    const many = Array.from(
      { length: CHATROOM_MAX_INVITED + 1 },
      () => '6f1c9a52-3a4b-4c5d-8e9f-0a1b2c3d4e5f',
    );
    expect(message({ name: 'a', invitedUserIds: many })).toBe(ChatMessages.tooManyInvitedUsers);
    expect(message(null)).toBe(ChatMessages.chatroomBodyNotObject);
  });
});

describe('updateChatroomRequestSchema', () => {
  it('changes only the fields sent, and refuses an empty change', () => {
    expect(updateChatroomRequestSchema.parse({ isActive: false })).toEqual({ isActive: false });
    expect(updateChatroomRequestSchema.parse({ description: null })).toEqual({ description: '' });
    expect(updateChatroomRequestSchema.safeParse({}).error?.issues[0]?.message).toBe(
      ChatMessages.nothingToChange,
    );
  });
});
