/** Joins class names, skipping falsy ones, so conditional Tailwind classes stay readable. */
export function cn(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(' ');
}
