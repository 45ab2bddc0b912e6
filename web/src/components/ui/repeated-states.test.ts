// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Keeps issue #35's pattern: a screen's loading, failed-with-retry and empty states come from QueryState, and the
 * toast after a mutation from useToastMutation. A feature that hand-writes them again fails here with the file named.
 */
const FEATURES = fileURLToPath(new URL('../../features', import.meta.url));

interface Rule {
  name: string;
  applies: (file: string, text: string) => boolean;
  find: RegExp;
}

const RULES: Rule[] = [
  {
    name: 'a hand-written retry button (QueryState draws it and refetches)',
    applies: () => true,
    find: />\s*(Try [Aa]gain|Retry)\s*<\//g,
  },
  {
    name: 'a hand-called refetch (the retry belongs to QueryState)',
    applies: () => true,
    find: /\.refetch\(/g,
  },
  {
    name: "a hand-written failure state from a query's isError (use QueryState)",
    applies: () => true,
    find: /\.isError\b/g,
  },
  {
    name: 'a toast next to a hand-run mutation (useToastMutation toasts the outcome)',
    applies: (_file, text) => /\.(mutate|mutateAsync)\(/.test(text),
    find: /\btoast\(\{\s*type:\s*'(success|error)'/g,
  },
];

/** The feature code that draws screens: not tests, and not the api files (which own their queries). */
function screenFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'api' ? [] : screenFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

export function findRepeatedStates(root: string): string[] {
  return screenFiles(root).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return RULES.filter((rule) => rule.applies(file, text)).flatMap((rule) =>
      [...text.matchAll(rule.find)].map((match) => {
        const line = text.slice(0, match.index).split('\n').length;
        return `${path.relative(root, file)}:${line}: ${rule.name}`;
      }),
    );
  });
}

describe("the web's repeated states (issue #35)", () => {
  it('scans the screens of every feature', () => {
    // A guard that finds nothing to read would pass for the wrong reason.
    expect(screenFiles(FEATURES).length).toBeGreaterThan(50);
  });

  it('no feature hand-writes a loading/failed state, a retry button or a toast after a mutation', () => {
    expect(findRepeatedStates(FEATURES)).toEqual([]);
  });
});
