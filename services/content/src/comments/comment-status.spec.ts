import type { CommentStatus } from '@district/contracts';
import type { AuthUser } from '@district/nest-common';
import { commentStatusFor } from './comment-rules';

type Author = Pick<AuthUser, 'role' | 'approved' | 'isAdmin'>;
const user = (claims: Author): Author => claims;

const requests: (CommentStatus | undefined)[] = [undefined, 'approved', 'pending'];

describe('commentStatusFor: only approved staff skip moderation', () => {
  it('approves an approved teacher, whatever was asked', () => {
    const teacher = user({ role: 'teacher', approved: true, isAdmin: false });
    for (const requested of requests) expect(commentStatusFor(teacher, requested, true)).toBe('approved');
  });

  it('holds a self-registered teacher, not yet approved, like a student', () => {
    const teacher = user({ role: 'teacher', approved: false, isAdmin: false });
    for (const requested of requests) expect(commentStatusFor(teacher, requested, true)).toBe('pending');
    expect(commentStatusFor(teacher, 'pending', false)).toBe('approved');
  });

  it('honours the status an approved admin asks for, approved by default', () => {
    const admin = user({ role: 'teacher', approved: true, isAdmin: true });
    expect(commentStatusFor(admin, undefined, true)).toBe('approved');
    expect(commentStatusFor(admin, 'pending', true)).toBe('pending');
    expect(commentStatusFor(admin, 'pending', false)).toBe('pending');
  });

  it('ignores the admin flag of an unapproved account: pending while moderation is on', () => {
    for (const role of ['teacher', 'student'] as const) {
      const admin = user({ role, approved: false, isAdmin: true });
      for (const requested of requests) expect(commentStatusFor(admin, requested, true)).toBe('pending');
      expect(commentStatusFor(admin, 'pending', false)).toBe('approved');
    }
  });

  it('holds students while moderation is on, approved or not', () => {
    for (const approved of [true, false]) {
      const student = user({ role: 'student', approved, isAdmin: false });
      for (const requested of requests) {
        expect(commentStatusFor(student, requested, true)).toBe('pending');
        expect(commentStatusFor(student, requested, false)).toBe('approved');
      }
    }
  });
});
