import { describe, expect, it } from 'vitest';
import { userSchema } from '@district/contracts/identity';
import { personas } from '@/testing/fixtures';
import { parseUser } from './user-guard';

/** Every field replaced by values of other kinds, dropped, or given an odd value: the guard and zod must agree. */
const ODD_VALUES: unknown[] = [undefined, null, '', 'x', 0, 1, 1.5, -1, true, false, [], ['a'], [1], {}, 'student', 'teacher', 'admin', 'published', 'draft', 'archived', '00000000-0000-4000-8000-000000000001', 'not-a-uuid'];

function variants(base: Record<string, unknown>): unknown[] {
  const out: unknown[] = [base, { ...base, extra: 'field' }, null, [], 'text', 42];
  for (const key of Object.keys(base)) {
    const { [key]: _dropped, ...without } = base;
    out.push(without);
    for (const odd of ODD_VALUES) out.push({ ...base, [key]: odd });
  }
  return out;
}

describe('zod-free guards agree with the contract schemas (ADR 0023)', () => {
  it('parseUser accepts exactly what userSchema accepts, and gives the same value', () => {
    for (const user of [personas.student(), personas.admin(), { ...personas.student(), profileImage: '/uploads/a.png' }]) {
      for (const candidate of variants(user as unknown as Record<string, unknown>)) {
        const zod = userSchema.safeParse(candidate);
        expect([candidate, parseUser(candidate)]).toEqual([candidate, zod.success ? zod.data : undefined]);
      }
    }
  });

});
