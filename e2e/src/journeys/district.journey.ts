import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import { registerCleanup } from '../support/cleanup';
import type { Journey } from '../support/harness';
import { waitForDownload } from '../support/pdf';
import { TOPOLOGIES } from '../support/stacks';
import { byRole, click, open, signInWithModal, waitFor, waitForText } from '../support/ui';
import { ADMIN, DEMO_PASSWORD, STUDENT, TEACHER, pageFetch, signedIn } from './shell.journey';

/**
 * Issue #36, the district's screens. Texts are written out here (not imported from the web app), so a changed
 * text in the app fails here.
 */
const DISTRICT = {
  importHeading: 'Roster Import',
  finished: 'Import finished',
  errorsTable: 'Rows skipped by the import',
  historyTable: 'Roster imports, newest first',
  downloadErrors: 'Download errors (CSV)',
  myClasses: 'My Classes',
  gradesHeading: 'Quiz Grades Dashboard',
} as const;

const ROOT = path.resolve(__dirname, '../../..');

interface InjectedError {
  file: string;
  line: number;
  field: string;
  reason: string;
}

/**
 * The demo district's zip with the generator's known bad rows appended (`npm run district:generate -- --demo
 * --errors`), written to `out`; the generator says which rows it wrote wrong.
 */
function demoDistrictWithErrors(out: string): Promise<InjectedError[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '-r',
        '@swc-node/register',
        'libs/nest-common/src/testing/roster/generate-district.cli.ts',
        '--demo',
        '--errors',
        '--out',
        out,
      ],
      { cwd: ROOT, env: { ...process.env, SWC_NODE_PROJECT: path.join(ROOT, 'tsconfig.runtime.json') } },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`the district generator failed: ${stderr || error.message}`));
        try {
          resolve((JSON.parse(stdout) as { errors: InjectedError[] }).errors);
        } catch {
          reject(new Error(`the district generator printed no JSON:\n${stdout}`));
        }
      },
    );
  });
}

/** The body rows of the table whose caption is `caption`, each as its cells' texts. */
async function tableCells(page: Page, caption: string): Promise<string[][]> {
  return page.$$eval(
    'table',
    (tables, c) => {
      const table = tables.find((t) => t.caption?.textContent?.trim() === c);
      return Array.from(table?.querySelectorAll('tbody tr') ?? []).map((r) =>
        Array.from(r.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim()),
      );
    },
    caption,
  );
}

const rosterImportWithErrors: Journey = {
  id: 70,
  title:
    'roster import with errors: an administrator uploads a OneRoster zip with bad rows, follows the progress to done, sees the skipped rows and downloads them as CSV',
  topologies: TOPOLOGIES,
  timeoutMs: 150_000,
  async run(ctx) {
    // The demo district as the seed imported it (its rows are unchanged, so nothing is written or deactivated and
    // the other journeys' demo accounts stay as they are), plus the generator's known bad rows.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'district-e2e-roster-'));
    const removeDir = registerCleanup(() => rm(dir, { recursive: true, force: true }));
    try {
      const zip = path.join(dir, `roster-${ctx.runId}.zip`);
      const errors = await demoDistrictWithErrors(zip);
      assert.ok(errors.length > 0, 'the generator wrote bad rows');

      const { page, downloads } = await ctx.session({ downloads: true });
      await open(page, ctx.baseUrl, '/');
      await signInWithModal(page, ADMIN.email, DEMO_PASSWORD);
      await open(page, ctx.baseUrl, '/admin');
      // The pending-accounts summary arrives above the cards and moves them: click once it is there.
      await page.waitForSelector('[data-testid="pending-count"]');
      await click(page, 'main a[href="/admin/roster"]');
      await waitFor(page, byRole('heading', DISTRICT.importHeading));
      await ctx.axe.check(page, 'roster import');

      const input = (await page.waitForSelector('#roster-file')) as ElementHandle<HTMLInputElement>;
      await input.uploadFile(zip);
      await click(page, byRole('button', 'Upload'));
      await page.waitForSelector('[role="progressbar"]');
      // Polled every second until the worker is done with the file.
      await page.waitForFunction(
        (t: string) => document.querySelector('main')?.textContent?.includes(t),
        { timeout: 90_000 },
        DISTRICT.finished,
      );
      const bar = await page.$eval('[role="progressbar"]', (el) => ({
        now: el.getAttribute('aria-valuenow'),
        max: el.getAttribute('aria-valuemax'),
      }));
      assert.ok(bar.now !== null && bar.now === bar.max, `the bar ends full: ${JSON.stringify(bar)}`);
      const counts = await page.$eval('[aria-label="Import counts"]', (el) => (el as HTMLElement).innerText);
      assert.match(counts, new RegExp(`Errors\\s*${errors.length}`), counts);

      const skipped = await tableCells(page, DISTRICT.errorsTable);
      for (const e of errors) {
        assert.ok(
          skipped.some(([file, line]) => file === e.file && line === String(e.line)),
          `the skipped rows list ${e.file} line ${e.line} (${e.reason}):\n${skipped.map((r) => r.join(' | ')).join('\n')}`,
        );
      }
      await ctx.axe.check(page, 'roster import result');

      await click(page, byRole('link', DISTRICT.downloadErrors));
      const csv = await readFile(await waitForDownload(downloads, /\.csv$/), 'utf8');
      for (const e of errors)
        assert.ok(
          csv.includes(e.file) && csv.includes(String(e.line)),
          `the CSV lists ${e.file} line ${e.line}:\n${csv}`,
        );

      await page.waitForFunction(
        (c: string) =>
          Array.from(document.querySelectorAll('table')).some(
            (t) =>
              t.caption?.textContent?.trim() === c &&
              t.querySelector('tbody tr')?.textContent?.includes('Done'),
          ),
        {},
        DISTRICT.historyTable,
      );
    } finally {
      await removeDir();
    }
  },
};

const teacherMyClasses: Journey = {
  id: 71,
  title:
    "teacher's my classes: the demo teacher opens My Classes, the roster of the demo student's class, and that class's grades",
  topologies: TOPOLOGIES,
  timeoutMs: 90_000,
  async run(ctx) {
    const page = await signedIn(ctx, TEACHER.email);
    await click(page, byRole('link', DISTRICT.myClasses));
    await page.waitForFunction(() => window.location.pathname === '/classes');
    await waitFor(page, byRole('heading', DISTRICT.myClasses));
    await page.waitForSelector('main table tbody a[href^="/classes/"]');
    await ctx.axe.check(page, 'my classes');

    // The demo teacher teaches the demo students' class (the demo district's pinned first class).
    const mine = await pageFetch(page, 'GET', '/api/classes');
    assert.equal(mine.status, 200);
    let classId: string | undefined;
    for (const c of mine.body as Array<{ id: string }>) {
      const detail = await pageFetch(page, 'GET', `/api/classes/${c.id}`);
      const students = (detail.body as { students?: Array<{ name: string }> }).students ?? [];
      if (students.some((s) => s.name === STUDENT.name)) classId = c.id;
      if (classId) break;
    }
    assert.ok(classId, `none of the teacher's classes has ${STUDENT.name}`);

    await click(page, `main a[href="/classes/${classId}"]`);
    await page.waitForFunction((id: string) => window.location.pathname === `/classes/${id}`, {}, classId);
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('table caption')).some((c) => c.textContent === 'Students'),
    );
    const students = await tableCells(page, 'Students');
    assert.ok(
      students.some(([name]) => name === STUDENT.name),
      `the roster lists ${STUDENT.name}: ${students.map((r) => r.join(' | ')).join('; ')}`,
    );
    await ctx.axe.check(page, 'class roster');
    const zip = await page.evaluate(async (id: string) => {
      const res = await fetch(`/api/classes/${id}/results.zip`, { credentials: 'include' });
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, magic: Array.from(bytes.slice(0, 2)) };
    }, classId);
    assert.deepEqual(zip, { status: 200, magic: [0x50, 0x4b] }, 'the results download is a zip');

    await click(page, byRole('link', 'Quiz grades'));
    await page.waitForFunction(
      (id: string) =>
        window.location.pathname === '/admin/quiz-grades-dashboard' &&
        new URLSearchParams(window.location.search).get('classId') === id,
      {},
      classId,
    );
    await waitFor(page, byRole('heading', DISTRICT.gradesHeading));
    await waitForText(page, 'Filter by Class', 'main');
    const chosen = await page.evaluate(() => {
      const label = Array.from(document.querySelectorAll('label')).find(
        (l) => l.textContent === 'Filter by Class',
      );
      return (label?.control as HTMLSelectElement | null | undefined)?.value ?? null;
    });
    assert.equal(chosen, classId, 'the dashboard is filtered by the class');
    await ctx.axe.check(page, 'quiz grades dashboard for a class');
  },
};

export const districtJourneys: readonly Journey[] = [rosterImportWithErrors, teacherMyClasses];
