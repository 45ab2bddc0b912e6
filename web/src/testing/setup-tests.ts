import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { installLayoutShims } from './layout-shims';

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
