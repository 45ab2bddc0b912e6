import type { User } from '@district/contracts/identity';

let seq = 0;

/** A valid user as GET /api/auth/me answers it; override what a test cares about. */
export function makeUser(overrides: Partial<User> = {}): User {
  seq += 1;
  const n = String(seq).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${n}`,
    name: `Test User ${seq}`,
    username: `user${seq}`,
    email: `user${seq}@district.test`,
    role: 'student',
    approved: true,
    isAdmin: false,
    profileImage: null,
    createdAt: '2024-09-02T08:30:00.000Z',
    ...overrides,
  };
}

export const personas = {
  pending: () => makeUser({ name: 'Pat Pending', username: 'pat', approved: false }),
  student: () => makeUser({ name: 'Sam Student', username: 'sam', role: 'student' }),
  teacher: () => makeUser({ name: 'Tia Teacher', username: 'tia', role: 'teacher' }),
  admin: () => makeUser({ name: 'Ada Admin', username: 'ada', role: 'teacher', isAdmin: true }),
};
