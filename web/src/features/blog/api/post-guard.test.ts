import { describe, expect, it } from 'vitest';
import { variants } from '@/testing/guard-variants';
import { postSchema } from '@district/contracts/content';
import { makePost } from '@/testing/content-fixtures';
import { parsePost, parsePostList } from './post-guard';

describe('the zod-free post guard agrees with the contract schema (ADR 0023)', () => {
  it('parsePost accepts exactly what postSchema accepts, and gives the same value', () => {
    const post = makePost({
      categoryId: '00000000-0000-4000-8000-000000000009',
      categoryName: 'Spanish',
      tags: ['a'],
    });
    for (const candidate of variants(post as unknown as Record<string, unknown>)) {
      const zod = postSchema.safeParse(candidate);
      expect([candidate, parsePost(candidate)]).toEqual([candidate, zod.success ? zod.data : undefined]);
    }
    expect(parsePostList([post, post])).toEqual([post, post]);
    expect(parsePostList([post, { ...post, readTime: 0 }])).toBeUndefined();
    expect(parsePostList({ 0: post })).toBeUndefined();
  });
});
