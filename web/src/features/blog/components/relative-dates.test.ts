import { describe, expect, it } from 'vitest';
import { formatFullDate, formatRelativeDate } from '@/lib/format';

// Spec §9, with a fixed clock: 'just now' < 1 min, minutes, hours, 'Yesterday', days up to 7; cards add weeks up to 30 days.
const now = new Date('2026-03-31T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('relative dates (spec section 9)', () => {
  it.each([
    [0, 'just now'],
    [59_999, 'just now'],
    [MIN, '1 minute ago'],
    [59 * MIN, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [23 * HOUR, '23 hours ago'],
    [DAY, 'Yesterday'],
    [2 * DAY, '2 days ago'],
    [6 * DAY + 23 * HOUR, '6 days ago'],
  ])('%i ms ago reads %s (comments and cards alike)', (ms, text) => {
    expect(formatRelativeDate(ago(ms), { now })).toBe(text);
    expect(formatRelativeDate(ago(ms), { now, withWeeks: true })).toBe(text);
  });

  it('comment dates switch to the full date at 7 days', () => {
    expect(formatRelativeDate(ago(7 * DAY), { now })).toBe(formatFullDate(ago(7 * DAY)));
  });

  it.each([
    [7 * DAY, '1 week ago'],
    [13 * DAY, '1 week ago'],
    [14 * DAY, '2 weeks ago'],
    [29 * DAY, '4 weeks ago'],
  ])('card dates count weeks: %i ms ago reads %s', (ms, text) => {
    expect(formatRelativeDate(ago(ms), { now, withWeeks: true })).toBe(text);
  });

  it('card dates show the full date from 30 days on', () => {
    expect(formatRelativeDate(ago(30 * DAY), { now, withWeeks: true })).toBe('March 1, 2026');
  });
});
