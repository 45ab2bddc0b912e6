import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { installLayoutShims } from './layout-shims';

// Screens show dates in the reader's time zone, and the fixtures' expected dates ('March 5, 2025') assume one. Pin
// it, so every machine runs them in the same zone (in Kiritimati, UTC+14, eight tests saw the next day). A zone
// behind UTC and without summer time: a date-only value wrongly read as UTC midnight shows the day before here
// and fails, where under UTC it would pass unnoticed; and no test meets a clock change on some days of the year.
process.env.TZ = 'America/Phoenix';

// Some suites (pure logic, PDF bytes) opt into the node environment; only touch the DOM when there is one.
const hasDom = typeof window !== 'undefined';

if (hasDom) {
  // jsdom has no layout engine; React Router's scroll restoration calls this on every navigation.
  window.scrollTo = () => undefined;
  installLayoutShims();
}

afterEach(() => {
  if (hasDom) {
    cleanup();
    window.localStorage.clear();
  }
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
