import { describe, expect, it } from 'vitest';
import { categorySchema, commentSchema } from '@district/contracts/content';
import { variants } from '@/testing/guard-variants';
import { makeCategory, makeComment } from '@/testing/content-fixtures';
import { parseCategory, parseCategoryList } from './category-guard';
import { parseComment, parseCommentList } from './comment-guard';

/** zod's answer for `candidate`: the parsed value, or undefined when it is rejected. */
const zodSays = (
  schema: { safeParse(v: unknown): { success: boolean; data?: unknown } },
  candidate: unknown,
) => {
  const result = schema.safeParse(candidate);
  return result.success ? result.data : undefined;
};

describe('the zod-free category and comment guards agree with the contract schemas (ADR 0024)', () => {
  it('parseCategory accepts exactly what categorySchema accepts, and gives the same value', () => {
    const category = makeCategory({ description: 'Verbs', postCount: 3 });
    const candidates = [
      ...variants(category as unknown as Record<string, unknown>),
      { ...category, postCount: 2 ** 53 },
      { ...category, postCount: -4 },
      { ...category, postCount: Number.NaN },
    ];
    for (const candidate of candidates) {
      expect([candidate, parseCategory(candidate)]).toEqual([candidate, zodSays(categorySchema, candidate)]);
    }
    expect(parseCategoryList([category, category])).toEqual([category, category]);
    expect(parseCategoryList([category, { ...category, postCount: 1.5 }])).toBeUndefined();
    expect(parseCategoryList({ 0: category })).toBeUndefined();
  });

  it('parseComment accepts exactly what commentSchema accepts, replies included, and gives the same value', () => {
    const reply = makeComment({
      parentId: '00000000-0000-4000-8000-000000000077',
      own: true,
      replies: undefined,
    });
    const comment = makeComment({ own: false, postTitle: 'Los colores', replies: [reply] });
    const { authorId: _a, own: _o, postTitle: _p, replies: _r, ...bare } = comment;
    const bases = [comment, bare];
    const candidates: unknown[] = [];
    for (const base of bases) candidates.push(...variants(base as unknown as Record<string, unknown>));
    // A bad reply, at any depth, fails the whole comment.
    for (const odd of variants(reply as unknown as Record<string, unknown>))
      candidates.push({ ...comment, replies: [odd] });
    candidates.push({ ...comment, replies: [{ ...comment, replies: [{ ...reply, status: 'deleted' }] }] });
    for (const candidate of candidates) {
      expect([candidate, parseComment(candidate)]).toEqual([candidate, zodSays(commentSchema, candidate)]);
    }
    // Absent optional fields stay absent, unknown ones are dropped (zod's object parsing), at every level.
    const parsed = parseComment({ ...bare, extra: 1, replies: [{ ...reply, extra: 2 }] });
    expect(parsed && Object.keys(parsed).sort()).toEqual(Object.keys({ ...bare, replies: [] }).sort());
    expect(parsed?.replies?.[0]).not.toHaveProperty('extra');
    expect(parseCommentList([comment, bare])).toEqual([comment, bare]);
    expect(parseCommentList([comment, { ...bare, status: 'hidden' }])).toBeUndefined();
    expect(parseCommentList('[]')).toBeUndefined();
  });
});
