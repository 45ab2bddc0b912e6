import fc from 'fast-check';
import { roomScopeOf } from './chatroom-rules';

const viewer = fc.record({
  id: fc.uuid(),
  role: fc.constantFrom('student' as const, 'teacher' as const),
  approved: fc.boolean(),
  isAdmin: fc.boolean(),
});

describe('roomScopeOf', () => {
  it('lets approved teachers and approved admins see every active room, and nobody else', () => {
    fc.assert(
      fc.property(viewer, (v) => {
        const sees = 'all' in roomScopeOf(v);
        expect(sees).toBe(v.approved && (v.role === 'teacher' || v.isAdmin));
      }),
    );
  });

  it('limits everyone else to the rooms they are invited to, by their canonical id', () => {
    fc.assert(
      fc.property(viewer, (v) => {
        const scope = roomScopeOf({ ...v, id: v.id.toUpperCase() });
        if ('inviteeId' in scope) expect(scope.inviteeId).toBe(v.id.toLowerCase());
      }),
    );
  });

  it('gives a suspended administrator and a pending teacher only a student’s view', () => {
    const id = '6f1c9a52-3a4b-4c5d-8e9f-0a1b2c3d4e5f';
    expect(roomScopeOf({ id, role: 'teacher', approved: false, isAdmin: true })).toEqual({ inviteeId: id });
    expect(roomScopeOf({ id, role: 'teacher', approved: false, isAdmin: false })).toEqual({ inviteeId: id });
    expect(roomScopeOf({ id, role: 'student', approved: true, isAdmin: true })).toEqual({ all: true });
  });
});
