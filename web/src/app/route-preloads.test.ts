import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoutes } from './router';
import { ROUTE_PRELOADS } from './route-preloads';

const webRoot = path.resolve(__dirname, '../..');

describe('the first-screen preload table (ADR 0024)', () => {
  it('names routes of the route table, modules that exist, and same-site API requests', () => {
    const routePaths = new Set(appRoutes.map((r) => r.path));
    for (const entry of ROUTE_PRELOADS) {
      expect([entry.path, routePaths.has(entry.path)]).toEqual([entry.path, true]);
      expect(entry.modules.length).toBeGreaterThan(0);
      for (const module of entry.modules)
        expect([module, existsSync(path.join(webRoot, module))]).toEqual([module, true]);
      for (const url of entry.fetch ?? []) expect(url).toMatch(/^\/api\/[a-z0-9\-/]+$/);
    }
    expect(new Set(ROUTE_PRELOADS.map((e) => e.path)).size).toBe(ROUTE_PRELOADS.length);
  });

  it('lists, for each page whose code the app fetches at start, the same page', () => {
    // app/router.tsx ROUTE_CODE: the pages worth their code early are the pages worth a preload.
    expect(ROUTE_PRELOADS.map((e) => e.path).sort()).toEqual([
      '/blog',
      '/blog/:slug',
      '/educational-tools',
      '/text-quizzes',
    ]);
  });
});
