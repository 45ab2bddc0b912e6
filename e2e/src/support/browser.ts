import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { registerCleanup } from './cleanup';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';

export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
/** Wide enough for the desktop navbar (its links collapse into a menu below 1024 px). */
export const VIEWPORT = { width: 1280, height: 900 } as const;
export const ACTION_TIMEOUT_MS = 15_000;

export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/** One headless Chromium with a fresh profile; never downloads a browser. */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'district-e2e-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    defaultViewport: VIEWPORT,
    // The suite stops its own servers on a signal first; the browser is killed when the process exits.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    close: registerCleanup(async () => {
      await browser.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    }),
  };
}

/** Problems a page reported by itself: uncaught exceptions and Content-Security-Policy refusals. */
export interface PageProblems {
  errors: string[];
}

const problemsOf = new WeakMap<Page, PageProblems>();

export function pageProblems(page: Page): PageProblems {
  return problemsOf.get(page) ?? { errors: [] };
}

/**
 * A page with the suite's defaults: timeouts, reduced motion (no half-faded toast can fool the contrast check),
 * and a record of uncaught errors and CSP violations, which fail the journey.
 */
export async function preparePage(page: Page): Promise<Page> {
  page.setDefaultTimeout(ACTION_TIMEOUT_MS);
  page.setDefaultNavigationTimeout(30_000);
  await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
  const problems: PageProblems = { errors: [] };
  problemsOf.set(page, problems);
  page.on('pageerror', (error) =>
    problems.errors.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`),
  );
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      problems.errors.push(`CSP: ${message.text()}`);
  });
  return page;
}

export interface ContextOptions {
  /** Where files the page downloads are saved (under their suggested names). */
  downloadPath?: string;
}

/** An isolated context (its own cookies and storage, like an incognito window). */
export async function newContext(browser: Browser, options: ContextOptions = {}): Promise<BrowserContext> {
  return browser.createBrowserContext(
    options.downloadPath ? { downloadBehavior: { policy: 'allow', downloadPath: options.downloadPath } } : {},
  );
}
