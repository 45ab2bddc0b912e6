import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'puppeteer-core';
import { KNOWN_A11Y_ISSUES, type KnownA11yIssue } from '../known-a11y-issues';

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: string; html: string; summary: string }>;
}

export interface AxeScreenResult {
  screen: string;
  url: string;
  violations: AxeViolation[];
}

const BLOCKING = new Set(['serious', 'critical']);
let axeSource: string | undefined;

/**
 * axe-core's source, evaluated in the page through the DevTools protocol. `page.addScriptTag` would add an
 * inline <script>, which the site's Content-Security-Policy (script-src 'self') rightly blocks; the suite keeps
 * that policy on so the journeys run under the same rules as real users.
 */
function source(): string {
  axeSource ??= readFileSync(require.resolve('axe-core'), 'utf8');
  return axeSource;
}

/** Every violation axe finds on the page as it is now; the caller decides what fails. */
export async function runAxe(page: Page, screen: string): Promise<AxeScreenResult> {
  // A screen is checked once it has settled: nothing is still marked busy loading.
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), { timeout: 10_000 });
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(source());
  const violations = await page.evaluate(async () => {
    interface AxeNode {
      target: unknown[];
      html: string;
      failureSummary?: string;
    }
    interface AxeResultItem {
      id: string;
      impact?: string | null;
      help: string;
      helpUrl: string;
      nodes: AxeNode[];
    }
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeResultItem[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String).join(' '),
        html: n.html.slice(0, 300),
        summary: n.failureSummary ?? '',
      })),
    }));
  });
  return { screen, url: page.url(), violations };
}

const MAX_NODES_SHOWN = 4;

export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.slice(0, MAX_NODES_SHOWN).map((n) => `      at ${n.target}: ${n.html}`);
      if (v.nodes.length > MAX_NODES_SHOWN)
        nodes.push(`      … and ${v.nodes.length - MAX_NODES_SHOWN} more`);
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes.join('\n')}`;
    })
    .join('\n');
}

export interface KnownFinding {
  screen: string;
  issue: KnownA11yIssue;
  nodes: number;
}

/** Splits a violation into the nodes known issues explain (per issue) and the rest. */
function splitKnown(v: AxeViolation): {
  known: Array<{ issue: KnownA11yIssue; nodes: number }>;
  rest?: AxeViolation;
} {
  const candidates = KNOWN_A11Y_ISSUES.filter((k) => k.rule === v.id);
  const counts = new Map<KnownA11yIssue, number>();
  const restNodes = v.nodes.filter((n) => {
    const issue = candidates.find((k) => k.match.test(`${n.target}\n${n.html}\n${n.summary}`));
    if (issue) counts.set(issue, (counts.get(issue) ?? 0) + 1);
    return !issue;
  });
  return {
    known: [...counts].map(([issue, nodes]) => ({ issue, nodes })),
    rest: restNodes.length ? { ...v, nodes: restNodes } : undefined,
  };
}

export class AxeLog {
  readonly screens: AxeScreenResult[] = [];
  readonly known: KnownFinding[] = [];

  constructor(private readonly strict = process.env.E2E_STRICT_A11Y === '1') {}

  /**
   * Runs axe on the screen as it is now and fails on any serious or critical violation. Violations listed in
   * known-a11y-issues.ts are reported, not failed (unless strict); minor and moderate ones are only recorded.
   */
  async check(page: Page, screen: string): Promise<void> {
    const result = await runAxe(page, screen);
    this.screens.push(result);
    const blocking: AxeViolation[] = [];
    for (const v of result.violations.filter((x) => BLOCKING.has(x.impact ?? ''))) {
      const { known, rest } = this.strict ? { known: [], rest: v } : splitKnown(v);
      for (const k of known) this.known.push({ screen, issue: k.issue, nodes: k.nodes });
      if (rest) blocking.push(rest);
    }
    assert.equal(
      blocking.length,
      0,
      `accessibility (axe-core) on ${screen} (${result.url}): ${blocking.length} serious/critical violation(s)\n${describeViolations(blocking)}`,
    );
  }

  /** Known issues that matched nothing in this run: probably fixed, so the entry should go. */
  unmatchedKnown(): KnownA11yIssue[] {
    return KNOWN_A11Y_ISSUES.filter((k) => !this.known.some((f) => f.issue === k));
  }
}
