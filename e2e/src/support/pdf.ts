import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sleep } from './processes';

const run = promisify(execFile);

/** poppler's pdfinfo: the fields it prints, e.g. Pages, Title, Page size. */
export async function pdfInfo(file: string): Promise<Record<string, string>> {
  const { stdout } = await run('pdfinfo', [file]);
  const fields: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const match = /^([^:]+):\s*(.*)$/.exec(line);
    if (match) fields[match[1].trim()] = match[2].trim();
  }
  return fields;
}

export async function pdfPageCount(file: string): Promise<number> {
  const pages = Number((await pdfInfo(file)).Pages);
  assert.ok(Number.isInteger(pages), `pdfinfo reported no page count for ${file}`);
  return pages;
}

/** poppler's pdftotext for one page (or all), optionally keeping the physical layout (rows stay rows). */
export async function pdfText(
  file: string,
  options: { page?: number; layout?: boolean } = {},
): Promise<string> {
  const args = [
    ...(options.layout ? ['-layout'] : []),
    ...(options.page ? ['-f', String(options.page), '-l', String(options.page)] : []),
    file,
    '-',
  ];
  const { stdout } = await run('pdftotext', args, { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** Renders one page to `<outPrefix>.png` with pdftoppm and returns the file. */
export async function renderPage(file: string, page: number, outPrefix: string, dpi = 50): Promise<string> {
  await run('pdftoppm', [
    '-png',
    '-r',
    String(dpi),
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    file,
    outPrefix,
  ]);
  const png = `${outPrefix}.png`;
  const bytes = await readFile(png);
  assert.deepEqual(
    [...bytes.subarray(0, 8)],
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    `${png} is not a PNG`,
  );
  return png;
}

/**
 * Waits for the browser to finish saving a download into `dir`: the named file exists, no partial
 * (.crdownload) file is left, and its size has stopped changing. Returns the file's path.
 */
export async function waitForDownload(
  dir: string,
  fileName: string | RegExp,
  timeoutMs = 20_000,
): Promise<string> {
  const until = Date.now() + timeoutMs;
  const matches = (name: string) => (typeof fileName === 'string' ? name === fileName : fileName.test(name));
  let lastSize = -1;
  while (Date.now() < until) {
    const names = await readdir(dir);
    const found = names.filter(matches);
    if (found.length === 1 && !names.some((n) => n.endsWith('.crdownload'))) {
      const target = path.join(dir, found[0]);
      const { size } = await stat(target);
      if (size > 0 && size === lastSize) return target;
      lastSize = size;
    }
    await sleep(150);
  }
  throw new Error(
    `no single download matching ${String(fileName)} in ${dir} after ${timeoutMs} ms; found: ${(await readdir(dir)).join(', ') || 'nothing'}`,
  );
}

export async function assertPdfFile(file: string): Promise<void> {
  const head = (await readFile(file)).subarray(0, 5).toString('latin1');
  assert.equal(head, '%PDF-', `${file} does not start with %PDF-`);
}
