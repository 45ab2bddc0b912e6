import { READ_TIME_CHARS_PER_MINUTE } from '@/config/constants';
import { htmlToText } from './html-text';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const fullDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** 'March 5, 2025', or '' for a missing or unreadable date. */
export function formatFullDate(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  return d ? fullDate.format(d) : '';
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;

/**
 * Spec section 9: 'just now' under a minute, then minutes, hours, 'Yesterday', days up to 7 days;
 * card dates (withWeeks) also weeks up to 30 days; after that the full date.
 */
export function formatRelativeDate(
  value: string | number | Date | null | undefined,
  options: { withWeeks?: boolean; now?: Date } = {},
): string {
  const d = toDate(value);
  if (!d) return '';
  const now = options.now ?? new Date();
  const diff = now.getTime() - d.getTime();
  if (diff < 0) return fullDate.format(d);
  if (diff < MINUTE) return 'just now';
  if (diff < HOUR) return plural(Math.floor(diff / MINUTE), 'minute');
  if (diff < DAY) return plural(Math.floor(diff / HOUR), 'hour');
  const days = Math.floor(diff / DAY);
  if (days === 1) return 'Yesterday';
  if (days < 7) return `${days} days ago`;
  if (options.withWeeks && days < 30) return plural(Math.floor(days / 7), 'week');
  return fullDate.format(d);
}

/** Text of an HTML fragment with block boundaries as spaces (see html-text.ts). */
export { htmlToText };

/** Spec section 9: text length divided by 200 characters per minute, rounded up (at least one minute). */
export function readTimeMinutes(html: string): number {
  return Math.max(1, Math.ceil(htmlToText(html).length / READ_TIME_CHARS_PER_MINUTE));
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()}…`;
}
