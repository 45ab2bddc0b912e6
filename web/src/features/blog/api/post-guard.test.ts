import { describe, expect, it } from 'vitest';
import { postSchema } from '@district/contracts/content';
import { makePost } from '@/testing/content-fixtures';
import { parsePost, parsePostList } from './post-guard';

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

describe('the zod-free post guard agrees with the contract schema (ADR 0023)', () => {
  it('parsePost accepts exactly what postSchema accepts, and gives the same value', () => {
    const post = makePost({ categoryId: '00000000-0000-4000-8000-000000000009', categoryName: 'Spanish', tags: ['a'] });
    for (const candidate of variants(post as unknown as Record<string, unknown>)) {
      const zod = postSchema.safeParse(candidate);
      expect([candidate, parsePost(candidate)]).toEqual([candidate, zod.success ? zod.data : undefined]);
    }
    expect(parsePostList([post, post])).toEqual([post, post]);
    expect(parsePostList([post, { ...post, readTime: 0 }])).toBeUndefined();
    expect(parsePostList({ 0: post })).toBeUndefined();
  });
});
