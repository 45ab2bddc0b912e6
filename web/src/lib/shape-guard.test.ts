import { describe, expect, it } from 'vitest';
import { variants } from '@/testing/guard-variants';
import { userSchema } from '@district/contracts/identity';
import { personas } from '@/testing/fixtures';
import { parseUser } from './user-guard';

describe('zod-free guards agree with the contract schemas (ADR 0023)', () => {
  it('parseUser accepts exactly what userSchema accepts, and gives the same value', () => {
    for (const user of [
      personas.student(),
      personas.admin(),
      { ...personas.student(), profileImage: '/uploads/a.png' },
    ]) {
      for (const candidate of variants(user as unknown as Record<string, unknown>)) {
        const zod = userSchema.safeParse(candidate);
        expect([candidate, parseUser(candidate)]).toEqual([candidate, zod.success ? zod.data : undefined]);
      }
    }
  });
});
