import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { AxeLog } from './axe';
import { newContext, pageProblems, preparePage } from './browser';
import { registerCleanup } from './cleanup';
import type { Stack, Topology } from './stacks';

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Where this context's downloads land (only when asked for). */
  downloads: string;
}

export interface JourneyContext {
  stack: Stack;
  baseUrl: string;
  topology: Topology;
  artifacts: string;
  /** Unique per suite run: use it in anything the journey creates (emails, names). */
  runId: string;
  axe: AxeLog;
  /** Values one journey leaves for a later one in the same topology (journey 2's new account for journey 3). */
  shared: Map<string, unknown>;
  /** A fresh isolated browser context (own cookies and storage) with one prepared page. */
  session(options?: { downloads?: boolean; keep?: boolean }): Promise<Session>;
  /** Another page in an existing context, prepared like the first. */
  page(context: BrowserContext): Promise<Page>;
  log(message: string): void;
}

export interface Journey {
  id: number;
  title: string;
  topologies: readonly Topology[];
  /** Journeys whose outcome (in the same topology) this one builds on. */
  needs?: readonly number[];
  timeoutMs?: number;
  run(ctx: JourneyContext): Promise<void>;
}

export interface JourneyResult {
  topology: Topology;
  id: number;
  title: string;
  status: 'passed' | 'failed';
  durationMs: number;
  error?: string;
  screenshots: string[];
}

const DEFAULT_TIMEOUT_MS = 60_000;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** Runs the journeys one after another against one stack with one browser, screenshotting every page of a failure. */
export class JourneyRunner {
  private readonly kept: BrowserContext[] = [];
  private readonly shared = new Map<string, unknown>();
  readonly results: JourneyResult[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly stack: Stack,
    private readonly artifacts: string,
    private readonly runId: string,
    readonly axe: AxeLog,
  ) {}

  async run(journey: Journey): Promise<JourneyResult> {
    const started = Date.now();
    const contexts: Array<{ context: BrowserContext; keep: boolean; removeDownloads?: () => Promise<void> }> =
      [];
    const pages: Page[] = [];
    const notes: string[] = [];
    const knownBefore = this.axe.known.length;
    const topology = this.stack.topology;
    const label = `[${topology}] ${journey.id}. ${journey.title}`;

    const page = async (context: BrowserContext) => {
      const p = await preparePage(await context.newPage());
      pages.push(p);
      return p;
    };
    const ctx: JourneyContext = {
      stack: this.stack,
      baseUrl: this.stack.baseUrl,
      topology,
      artifacts: this.artifacts,
      runId: this.runId,
      axe: this.axe,
      shared: this.shared,
      session: async (options = {}) => {
        const downloads = options.downloads
          ? await mkdtemp(path.join(os.tmpdir(), 'district-e2e-downloads-'))
          : '';
        const context = await newContext(this.browser, downloads ? { downloadPath: downloads } : {});
        const removeDownloads = downloads
          ? registerCleanup(() => rm(downloads, { recursive: true, force: true }))
          : undefined;
        contexts.push({ context, keep: options.keep ?? false, removeDownloads });
        if (options.keep) this.kept.push(context);
        return { context, page: await page(context), downloads };
      },
      page,
      log: (message) => notes.push(message),
    };

    let error: unknown;
    const missing = (journey.needs ?? []).filter(
      (id) => !this.results.some((r) => r.id === id && r.topology === topology && r.status === 'passed'),
    );
    try {
      const dead = this.stack.exited();
      if (dead) throw new Error(`not run: ${dead.split('\n')[0]}`);
      if (missing.length)
        throw new Error(`not run: it builds on journey ${missing.join(', ')}, which did not pass`);
      await withTimeout(journey.run(ctx), journey.timeoutMs ?? DEFAULT_TIMEOUT_MS, `journey ${journey.id}`);
      const problems = pages.flatMap((p) => pageProblems(p).errors);
      if (problems.length) throw new Error(`the page reported errors:\n  ${problems.join('\n  ')}`);
    } catch (e) {
      error = e;
      const dead = this.stack.exited();
      if (dead && !(e instanceof Error && e.message.startsWith('not run:')))
        error = new Error(`${errorText(e)}\n\n${dead}`);
    }

    const screenshots: string[] = [];
    if (error !== undefined) {
      for (const [i, p] of pages.entries()) {
        if (p.isClosed()) continue;
        const file = path.join(
          this.artifacts,
          `${topology}-j${journey.id}-${slug(journey.title)}-${i + 1}.png`,
        );
        try {
          await p.screenshot({ path: file as `${string}.png`, fullPage: true });
          screenshots.push(file);
        } catch {
          // A page that crashed cannot be captured; the error message still says what happened.
        }
      }
    }
    for (const c of contexts) {
      if (!c.keep) await c.context.close().catch(() => undefined);
      await c.removeDownloads?.();
    }

    const result: JourneyResult = {
      topology,
      id: journey.id,
      title: journey.title,
      status: error === undefined ? 'passed' : 'failed',
      durationMs: Date.now() - started,
      error: error === undefined ? undefined : errorText(error),
      screenshots,
    };
    this.results.push(result);
    const seconds = (result.durationMs / 1000).toFixed(1);
    if (result.status === 'passed') {
      console.log(`  ✓ ${label} (${seconds} s)`);
    } else {
      console.log(`  ✗ ${label} (${seconds} s)\n${result.error!.replace(/^/gm, '      ')}`);
      for (const s of screenshots) console.log(`      screenshot: ${s}`);
    }
    for (const k of this.axe.known.slice(knownBefore)) {
      console.log(
        `      KNOWN a11y issue on ${k.screen}: ${k.issue.rule} (${k.nodes} element(s)), see e2e/src/known-a11y-issues.ts`,
      );
    }
    for (const note of notes) console.log(`      ${note}`);
    return result;
  }

  async close(): Promise<void> {
    for (const context of this.kept) await context.close().catch(() => undefined);
    this.kept.length = 0;
  }
}
