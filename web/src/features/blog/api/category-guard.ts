import type { Category } from '@district/contracts/content';
import { isString, isUuid, matchShape, pickShape, type FieldChecks } from '@/lib/shape-guard';

const CATEGORY_FIELDS: FieldChecks<Category> = {
  id: isUuid,
  name: isString,
  slug: isString,
  description: isString,
  // z.number().int(): an integer in the safe range.
  postCount: (v) => typeof v === 'number' && Number.isSafeInteger(v),
  createdAt: isString,
};

/** The contract's categorySchema without zod (src/lib/shape-guard.ts): `/blog`'s category filter is on its first screen. */
export function parseCategory(value: unknown): Category | undefined {
  return matchShape(value, CATEGORY_FIELDS) ? pickShape(value, CATEGORY_FIELDS) : undefined;
}

/** categoryListSchema without zod: the list, or undefined when any item is not a category. */
export function parseCategoryList(value: unknown): Category[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = value.map(parseCategory);
  return list.every((c): c is Category => c !== undefined) ? list : undefined;
}
