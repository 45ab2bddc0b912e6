import { QueryFailedError } from 'typeorm';
import { mapUniqueViolation, violatedUniqueConstraint } from './unique-violation';

const failed = (driverError: Record<string, unknown>) =>
  new QueryFailedError('INSERT …', [], Object.assign(new Error('failed'), driverError));

describe('unique violations', () => {
  it('names the constraint a failed statement broke, and nothing for other errors', () => {
    expect(violatedUniqueConstraint(failed({ code: '23505', constraint: 'posts_slug_key' }))).toBe(
      'posts_slug_key',
    );
    expect(violatedUniqueConstraint(failed({ code: '23505' }))).toBe('');
    expect(
      violatedUniqueConstraint(failed({ code: '23503', constraint: 'posts_category_id_fkey' })),
    ).toBeNull();
    expect(violatedUniqueConstraint(new Error('23505'))).toBeNull();
  });

  it("maps only the constraints it is given to the service's own errors", () => {
    const byConstraint = { users_email_key: () => 'email taken' };
    expect(mapUniqueViolation(failed({ code: '23505', constraint: 'users_email_key' }), byConstraint)).toBe(
      'email taken',
    );
    expect(mapUniqueViolation(failed({ code: '23505', constraint: 'users_pkey' }), byConstraint)).toBeNull();
    expect(mapUniqueViolation(failed({ code: '23505', constraint: 'toString' }), byConstraint)).toBeNull();
    expect(mapUniqueViolation(new Error('boom'), byConstraint)).toBeNull();
  });
});
