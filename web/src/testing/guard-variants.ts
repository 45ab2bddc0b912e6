/** Values of every kind a field may be given instead of its own (the zod-free guards' tests, ADR 0023). */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'x',
  0,
  1,
  1.5,
  -1,
  true,
  false,
  [],
  ['a'],
  [1],
  {},
  'student',
  'teacher',
  'admin',
  'published',
  'draft',
  'archived',
  '00000000-0000-4000-8000-000000000001',
  'not-a-uuid',
];

/** `base`, then it with every field replaced by each odd value or dropped, plus a few values of other shapes. */
export function variants(base: Record<string, unknown>): unknown[] {
  const out: unknown[] = [base, { ...base, extra: 'field' }, null, [], 'text', 42];
  for (const key of Object.keys(base)) {
    const { [key]: _dropped, ...without } = base;
    out.push(without);
    for (const odd of ODD_VALUES) out.push({ ...base, [key]: odd });
  }
  return out;
}
