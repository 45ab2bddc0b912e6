import assert from 'node:assert/strict';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import type { Journey, JourneyContext } from '../support/harness';
import { pdfPageCount, pdfText, renderPage, assertPdfFile, waitForDownload } from '../support/pdf';
import { sleep } from '../support/processes';
import { TOPOLOGIES } from '../support/stacks';
import {
  byRole,
  click,
  fill,
  open,
  signInWithModal,
  textOf,
  waitFor,
  waitForText,
  waitForToast,
} from '../support/ui';
import { DEMO_PASSWORD, STUDENT, TEACHER } from './shell.journey';

/** Issue #5, the classroom tools. Every text below is copied from shared/spec/classroom-tools.md. */

const ALL_TOOL_ROUTES = [
  '/audio-quizzes',
  '/text-quizzes',
  '/bingo-generator',
  '/word-bingo',
  '/spanish-alphabet',
  '/code-evolution',
  '/word-sorter',
  '/listen-to-type',
  '/crossword-generator',
  '/audio-lists',
  '/lesson-plans',
  '/google-slides',
];
const STUDENT_TOOLS = ['Audio Quizzes', 'Text Quizzes', 'Spanish Alphabet', 'Audio Lists', 'Google Slides'];

const BINGO = {
  validationTitle: 'Validation Error',
  rangeTooSmall: 'Number range must be at least 24 numbers for a valid bingo card',
  tooFewWords: (needed: number, size: number) =>
    `You need at least ${needed} words for a ${size}x${size} grid!`,
  wordInstruction: 'Mark off words as they are called. Get 5 in a row to win!',
  fileName: (title: string) => `${title.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_bingo_cards.pdf`,
} as const;

const SORTER = {
  clearWarning: 'This will remove all words from both lists. This action cannot be undone.',
  cleared: 'All lists have been cleared.',
} as const;

/** Keeps a downloaded PDF next to the screenshots, so a CI run can be inspected afterwards. */
async function keepArtifact(ctx: JourneyContext, file: string, name: string): Promise<string> {
  const kept = path.join(ctx.artifacts, `${ctx.topology}-${name}`);
  await copyFile(file, kept);
  return kept;
}

interface HubCard {
  title: string;
  href: string | null;
  launch: string;
}

async function hubCards(page: Page): Promise<HubCard[]> {
  await page.waitForSelector('main ul[aria-label="Tools"] li');
  return page.$$eval('main ul[aria-label="Tools"] > li', (items) =>
    items.map((li) => {
      const link = li.querySelector('a');
      return {
        title: li.querySelector('h2')?.textContent?.trim() ?? '',
        href: link?.getAttribute('href') ?? null,
        launch: (link as HTMLElement | null)?.innerText.trim() ?? '',
      };
    }),
  );
}

const toolsHub: Journey = {
  id: 7,
  title: 'tools hub: 12 tools for a teacher, the 5 student tools and Student View for a student',
  topologies: TOPOLOGIES,
  async run(ctx) {
    const teacher = (await ctx.session()).page;
    await open(teacher, ctx.baseUrl, '/');
    await signInWithModal(teacher, TEACHER.email, DEMO_PASSWORD);
    await click(teacher, 'nav[aria-label="Main"] a[href="/educational-tools"]');
    await waitFor(teacher, byRole('heading', 'Educational Tools'));
    const all = await hubCards(teacher);
    assert.equal(all.length, 12, `a teacher sees ${all.length} tools`);
    assert.ok(
      all.every((c) => c.launch === 'Launch Tool'),
      `every card has a 'Launch Tool' button: ${JSON.stringify(all)}`,
    );
    assert.deepEqual(all.map((c) => c.href).sort(), [...ALL_TOOL_ROUTES].sort());
    assert.ok(
      !(await textOf(teacher, 'main')).includes('Student View'),
      'a teacher is shown the Student View note',
    );
    await ctx.axe.check(teacher, 'tools hub (teacher)');

    const student = (await ctx.session()).page;
    await open(student, ctx.baseUrl, '/');
    await signInWithModal(student, STUDENT.email, DEMO_PASSWORD);
    await open(student, ctx.baseUrl, '/educational-tools');
    await waitFor(student, byRole('heading', 'Educational Tools'));
    await waitForText(student, 'Student View', 'main');
    const mine = await hubCards(student);
    assert.deepEqual(
      mine.map((c) => c.title),
      STUDENT_TOOLS,
    );
    assert.equal(mine.filter((c) => c.launch === 'Launch Tool').length, 5);
    await ctx.axe.check(student, 'tools hub (student)');

    // Launch Tool goes to the tool.
    await click(student, byRole('link', 'Launch Tool: Spanish Alphabet'));
    await student.waitForFunction(() => window.location.pathname === '/spanish-alphabet');
    await waitFor(student, byRole('heading', 'Spanish Alphabet'));
  },
};

/** The rows of the preview tables: what the teacher sees on screen. */
async function previewCards(page: Page): Promise<string[][][]> {
  return page.$$eval('main table', (tables) =>
    tables.map((t) =>
      Array.from(t.querySelectorAll('tbody tr')).map((tr) =>
        Array.from(tr.querySelectorAll('td')).map((td) => td.textContent?.trim() ?? ''),
      ),
    ),
  );
}

/** Grid rows as pdftotext -layout prints them: lines made only of numbers and FREE. */
function pdfGridRows(text: string): string[][] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^(\d+|FREE)(\s+(\d+|FREE))+$/.test(line))
    .map((line) => line.split(/\s+/));
}

const numberBingo: Journey = {
  id: 8,
  title: 'number bingo: range check, cards on screen, the PDF with a caller sheet',
  topologies: ['standalone'],
  async run(ctx) {
    const { page, downloads } = await ctx.session({ downloads: true });
    await open(page, ctx.baseUrl, '/bingo-generator');
    await waitFor(page, byRole('heading', 'Bingo Generator'));
    await ctx.axe.check(page, 'number bingo');

    await fill(page, byRole('spinbutton', 'Min Number'), '10');
    await fill(page, byRole('spinbutton', 'Max Number'), '30');
    await click(page, byRole('button', 'Generate Cards'));
    await waitForToast(page, BINGO.rangeTooSmall, 'alert');
    await waitForText(page, BINGO.validationTitle, '[role="alert"]');

    await fill(page, byRole('spinbutton', 'Min Number'), '1');
    await fill(page, byRole('spinbutton', 'Max Number'), '75');
    await fill(page, byRole('spinbutton', 'Number of Cards'), '3');
    await click(
      page,
      byRole('checkbox', 'Add a caller sheet (every number in a shuffled call order) as the last page'),
    );
    await click(page, byRole('button', 'Generate Cards'));
    await page.waitForFunction(() => document.querySelectorAll('main table').length === 3);
    const onScreen = await previewCards(page);
    for (const card of onScreen) {
      assert.equal(card.length, 5);
      assert.equal(card[2][2], 'FREE');
      const numbers = card
        .flat()
        .filter((v) => v !== 'FREE')
        .map(Number);
      assert.equal(new Set(numbers).size, 24);
      assert.ok(
        numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= 75),
        `numbers out of range: ${numbers}`,
      );
    }

    await click(page, byRole('button', 'Generate PDF'));
    const file = await waitForDownload(downloads, 'number_bingo_cards.pdf');
    await assertPdfFile(file);
    const kept = await keepArtifact(ctx, file, 'number_bingo_cards.pdf');
    assert.equal(await pdfPageCount(file), 3 + 1, 'pages = 3 cards + the caller sheet');
    const all = await pdfText(file);
    for (const expected of ['B', 'I', 'N', 'G', 'O', 'FREE', 'Caller Sheet']) {
      assert.ok(new RegExp(`(^|\\s)${expected}(\\s|$)`).test(all), `the PDF text lacks ${expected}`);
    }
    // Each printed card is the card on screen, row for row.
    for (let i = 0; i < 3; i++) {
      const pageText = await pdfText(file, { page: i + 1, layout: true });
      assert.ok(pageText.includes(`Card ${i + 1} of 3`), `page ${i + 1} is not card ${i + 1} of 3`);
      assert.deepEqual(
        pdfGridRows(pageText),
        onScreen[i],
        `page ${i + 1} differs from card ${i + 1} on screen`,
      );
    }
    // The caller sheet calls every number of the range once.
    const caller = await pdfText(file, { page: 4 });
    const called = [...caller.matchAll(/(\d+)\.\s+(\d+)/g)].map((m) => Number(m[2]));
    assert.deepEqual(
      [...called].sort((a, b) => a - b),
      Array.from({ length: 75 }, (_, k) => k + 1),
    );
    const png = await renderPage(file, 1, path.join(ctx.artifacts, `${ctx.topology}-number-bingo-page1`));
    ctx.log(`PDF: ${kept}; page 1: ${png}`);
  },
};

const WORDS_24 = [
  'gato',
  'perro',
  'casa',
  'libro',
  'mesa',
  'silla',
  'agua',
  'sol',
  'luna',
  'flor',
  'árbol',
  'niño',
  'pan',
  'leche',
  'queso',
  'manzana',
  'rojo',
  'azul',
  'verde',
  'amarillo',
  'tren',
  'playa',
  'nube',
  'mano',
];

const wordBingo: Journey = {
  id: 9,
  title: 'word bingo: too few words, a preview card, the PDF and its file name',
  topologies: ['standalone'],
  async run(ctx) {
    const { page, downloads } = await ctx.session({ downloads: true });
    await open(page, ctx.baseUrl, '/word-bingo');
    await waitFor(page, byRole('heading', 'Bingo'));
    const previewButton = byRole('button', 'Preview Single Card');
    assert.equal(
      await page.$eval(previewButton, (b) => (b as HTMLButtonElement).disabled),
      true,
      'Preview is enabled without words',
    );
    await ctx.axe.check(page, 'word bingo');

    const title = 'Spanish Animals & Colours!';
    await fill(page, byRole('textbox', 'Card Title'), title);
    await fill(page, byRole('textbox', 'Words'), WORDS_24.slice(0, 10).join(', '));
    await click(page, previewButton);
    await waitForToast(page, BINGO.tooFewWords(24, 5));
    assert.equal((await page.$$('main table')).length, 0, 'a card was previewed from too few words');

    // Commas and new lines both separate words.
    await fill(
      page,
      byRole('textbox', 'Words'),
      `${WORDS_24.slice(0, 12).join(', ')}\n${WORDS_24.slice(12).join('\n')}`,
    );
    await click(page, previewButton);
    await page.waitForSelector('main table');
    await waitForText(page, title, 'main');
    const [card] = await previewCards(page);
    assert.equal(card.length, 5);
    assert.equal(card[2][2], 'FREE');
    assert.deepEqual(
      card
        .flat()
        .filter((w) => w !== 'FREE')
        .sort(),
      [...WORDS_24].sort(),
    );
    const headings = await page.$$eval('main table thead th', (ths) =>
      ths.map((th) => th.textContent?.trim()),
    );
    assert.deepEqual(headings, ['B', 'I', 'N', 'G', 'O']);

    await fill(page, byRole('spinbutton', 'Number of Cards'), '2');
    await click(page, byRole('button', 'Generate PDF'));
    const expectedName = BINGO.fileName(title);
    assert.equal(expectedName, 'spanish_animals___colours__bingo_cards.pdf');
    const file = await waitForDownload(downloads, expectedName);
    await assertPdfFile(file);
    const kept = await keepArtifact(ctx, file, expectedName);
    assert.equal(await pdfPageCount(file), 2);
    for (const p of [1, 2]) {
      const text = await pdfText(file, { page: p });
      assert.ok(text.includes(title), `page ${p} lacks the title`);
      assert.ok(text.includes(BINGO.wordInstruction), `page ${p} lacks the instruction line`);
      for (const word of [...WORDS_24, 'FREE', 'B', 'I', 'N', 'G', 'O']) {
        assert.ok(new RegExp(`(^|\\s)${word}(\\s|$)`, 'u').test(text), `page ${p} lacks ${word}`);
      }
    }
    ctx.log(`PDF: ${kept}`);
  },
};

const CROSSWORD = {
  title: 'Animales de la granja',
  across: [
    { clue: 'Says moo on the farm', answer: 'VACA' },
    { clue: 'Lays eggs every morning', answer: 'GALLINA' },
  ],
  down: [
    { clue: 'Best friend of people', answer: 'PERRO' },
    { clue: 'Carries riders and pulls carts on every farm in the valley', answer: 'CABALLO' },
  ],
};

/** Words of one letter in upper case: the letters printed in grid squares. */
const gridLetters = (text: string) =>
  text
    .split(/\s+/)
    .filter((t) => /^[A-ZÑ]$/u.test(t))
    .sort();

const crossword: Journey = {
  id: 10,
  title: 'crossword: across and down entries, a 2-page PDF (answer key, worksheet)',
  topologies: ['standalone'],
  async run(ctx) {
    const { page, downloads } = await ctx.session({ downloads: true });
    await open(page, ctx.baseUrl, '/crossword-generator');
    await waitFor(page, byRole('heading', 'Crossword Generator'));
    await ctx.axe.check(page, 'crossword');

    await fill(page, byRole('textbox', 'Title'), CROSSWORD.title);
    for (const [direction, entries] of [
      ['Across', CROSSWORD.across],
      ['Down', CROSSWORD.down],
    ] as const) {
      for (const [i, entry] of entries.entries()) {
        if (i > 0) await click(page, byRole('button', `Add ${direction} Word`));
        await fill(page, byRole('textbox', `${direction} ${i + 1} clue`), entry.clue);
        await fill(page, byRole('textbox', `${direction} ${i + 1} answer`), entry.answer);
      }
    }
    await waitFor(page, '[role="img"][aria-label$="with 4 words placed"]');
    const onScreen = await page.$$eval('[role="img"][aria-label^="Crossword grid"] span', (spans) =>
      spans.map((s) => s.textContent?.trim() ?? '').filter((t) => /^[A-ZÑ]$/u.test(t)),
    );
    assert.ok(onScreen.length > 0, 'the preview shows no letters');
    await ctx.axe.check(page, 'crossword with a puzzle');

    await click(page, byRole('button', 'Generate PDF'));
    const file = await waitForDownload(downloads, /\.pdf$/);
    await assertPdfFile(file);
    const kept = await keepArtifact(ctx, file, path.basename(file));
    assert.equal(await pdfPageCount(file), 2);
    const answers = [...CROSSWORD.across, ...CROSSWORD.down].map((e) => e.answer);

    const key = await pdfText(file, { page: 1 });
    assert.ok(key.includes('Answer Key'), 'page 1 is not the answer key');
    assert.deepEqual(
      gridLetters(key),
      [...onScreen].sort(),
      'the answer key letters differ from the grid on screen',
    );
    for (const answer of answers) {
      for (const letter of answer)
        assert.ok(gridLetters(key).includes(letter), `the answer key lacks ${letter} of ${answer}`);
    }

    const sheet = await pdfText(file, { page: 2 });
    assert.ok(sheet.includes('Student Worksheet'), 'page 2 is not the worksheet');
    for (const entry of [...CROSSWORD.across, ...CROSSWORD.down]) {
      // Clues are cut at 35 characters plus an ellipsis (spec section 9).
      const printed = entry.clue.length > 35 ? `${entry.clue.slice(0, 35)}...` : entry.clue;
      assert.ok(sheet.includes(printed), `the worksheet lacks the clue "${printed}"`);
    }
    for (const answer of answers) {
      assert.ok(!new RegExp(`\\b${answer}\\b`, 'i').test(sheet), `the worksheet gives away ${answer}`);
    }
    assert.deepEqual(gridLetters(sheet), [], 'the worksheet has letters in its squares');
    ctx.log(`PDF: ${kept}`);
  },
};

async function listItems(page: Page, list: string): Promise<string[]> {
  return page.$$eval(`main ul[aria-label="${list}"] > li`, (items) =>
    items.map((li) => (li as HTMLElement).innerText.replace(/[⋮→←]/g, '').trim()).filter(Boolean),
  );
}

const wordSorter: Journey = {
  id: 11,
  title: 'word sorter: add words, rename, move with the keyboard, clear all lists',
  topologies: ['standalone'],
  async run(ctx) {
    const { page } = await ctx.session();
    await open(page, ctx.baseUrl, '/word-sorter');
    await waitFor(page, byRole('heading', 'Word Sorter'));
    assert.equal(
      await page.$eval('main a[href="/educational-tools"]', (a) => (a as HTMLElement).innerText.trim()),
      'Back to Tools',
    );

    const input = byRole('textbox', 'New word');
    await fill(page, input, 'rojo');
    await page.keyboard.press('Enter');
    await fill(page, input, 'azul');
    await click(page, byRole('button', 'Add Word'));
    await fill(page, input, 'perro');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('main ul[aria-label="List 1"] > li button').length === 6,
    );
    assert.deepEqual(await listItems(page, 'List 1'), ['rojo', 'azul', 'perro']);
    await ctx.axe.check(page, 'word sorter');

    // Rename list 2 by clicking its title; Enter saves.
    await click(page, byRole('button', 'List 2 (click to rename)'));
    await fill(page, byRole('textbox', 'Rename List 2'), 'Animales');
    await page.keyboard.press('Enter');
    await waitFor(page, byRole('button', 'Animales (click to rename)'));

    // The keyboard way to move a word: focus its move button and press Enter.
    const move = await waitFor(page, byRole('button', 'Move "perro" to Animales'));
    await move.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('main ul[aria-label="Animales"] > li button').length === 2,
    );
    assert.deepEqual(await listItems(page, 'List 1'), ['rojo', 'azul']);
    assert.deepEqual(await listItems(page, 'Animales'), ['perro']);

    const clickedAt = Date.now();
    await click(page, byRole('button', 'Clear All Lists'));
    await waitForToast(page, SORTER.clearWarning);
    assert.deepEqual(
      await listItems(page, 'List 1'),
      ['rojo', 'azul'],
      'the lists were cleared before the delay',
    );
    await waitForToast(page, SORTER.cleared);
    const elapsed = Date.now() - clickedAt;
    assert.ok(elapsed >= 2000 && elapsed < 5000, `cleared after ${elapsed} ms, expected about 2 s`);
    assert.deepEqual(await listItems(page, 'List 1'), ['Drop words here']);
    assert.deepEqual(await listItems(page, 'Animales'), ['Drop words here']);
    for (const name of ['Export to PDF', 'Clear All Lists']) {
      assert.equal(
        await page.$eval(byRole('button', name), (b) => (b as HTMLButtonElement).disabled),
        true,
        `${name} is enabled with empty lists`,
      );
    }
  },
};

const spanishAlphabet: Journey = {
  id: 12,
  title: 'spanish alphabet: 30 cards, every recording served as audio/mpeg (ñ included) and playable',
  topologies: TOPOLOGIES,
  async run(ctx) {
    const { page } = await ctx.session();
    await open(page, ctx.baseUrl, '/spanish-alphabet');
    await waitFor(page, byRole('heading', 'Spanish Alphabet'));
    const letters = await page.$$eval('main ul > li > button', (buttons) =>
      buttons.map((b) => b.querySelector('span:not(.sr-only)')?.textContent?.trim() ?? ''),
    );
    assert.equal(letters.length, 30, `${letters.length} letter cards`);
    for (const special of ['Ch', 'Ll', 'Ñ', 'RR'])
      assert.ok(letters.includes(special), `no card for ${special}`);
    await ctx.axe.check(page, 'spanish alphabet');

    // A card press requests its recording (percent-encoded) and highlights the card; first, before anything is cached.
    const enye = page.waitForResponse((r) => r.url().endsWith('/sounds/spanish/%C3%B1.mp3'));
    // The highlight lasts 800 ms, so watch for it from before the press.
    const highlighted = page.waitForSelector('main button[aria-current="true"]::-p-text(Play Ñ:)');
    await click(page, 'main ul > li > button::-p-text(Play Ñ:)');
    await highlighted;
    const response = await enye;
    assert.ok([200, 206].includes(response.status()), `ñ.mp3 answered ${response.status()} in the browser`);
    assert.equal(response.headers()['content-type'], 'audio/mpeg');

    // Through the gateway, from outside the browser: /sounds/spanish/{letter in lower case}.mp3.
    const urls = letters.map((l) => `/sounds/spanish/${encodeURIComponent(l.toLowerCase())}.mp3`);
    assert.ok(urls.includes('/sounds/spanish/%C3%B1.mp3'), 'ñ is not requested percent-encoded');
    const problems: string[] = [];
    for (const url of urls) {
      const res = await fetch(new URL(url, ctx.baseUrl));
      const body = new Uint8Array(await res.arrayBuffer());
      const type = res.headers.get('content-type');
      const mp3 =
        (body[0] === 0x49 && body[1] === 0x44 && body[2] === 0x33) ||
        (body[0] === 0xff && (body[1] & 0xe0) === 0xe0);
      if (res.status !== 200 || type !== 'audio/mpeg' || !mp3) {
        problems.push(`${url}: ${res.status} ${type}, ${body.length} bytes${mp3 ? '' : ', not MP3 data'}`);
      }
    }
    assert.deepEqual(problems, [], `recordings not served correctly:\n${problems.join('\n')}`);

    // The browser itself can load every recording (a decodable file, 0.2-3 s long).
    const durations = await page.evaluate(
      (list: string[]) =>
        Promise.all(
          list.map(
            (url) =>
              new Promise<[string, number | string]>((resolve) => {
                const audio = new Audio();
                audio.preload = 'metadata';
                audio.addEventListener('loadedmetadata', () => resolve([url, audio.duration]));
                audio.addEventListener('error', () => resolve([url, `error ${audio.error?.code}`]));
                audio.src = url;
              }),
          ),
        ),
      urls,
    );
    const unplayable = durations.filter(([, d]) => typeof d !== 'number' || d < 0.2 || d > 3);
    assert.deepEqual(unplayable, [], 'recordings the browser cannot play');

    await click(page, byRole('button', 'Play All Letters'));
    await page.waitForSelector('main button[aria-current="true"]::-p-text(Play A:)');
    assert.equal(
      await page.$eval(byRole('button', 'Play All Letters'), (b) => (b as HTMLButtonElement).disabled),
      true,
    );
    await page.waitForSelector('main button[aria-current="true"]::-p-text(Play B:)', { timeout: 3000 });
    await click(page, byRole('button', 'Stop'));
    await page.waitForFunction(() => !document.querySelector('main button[aria-current="true"]'));
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('button')).some(
        (b) => b.textContent?.trim() === 'Play All Letters' && !b.disabled,
      ),
    );
  },
};

const codeEvolution: Journey = {
  id: 13,
  title: 'code evolution: Play advances a step every 2 s, Reset returns to the first',
  topologies: ['standalone'],
  async run(ctx) {
    const { page } = await ctx.session();
    await open(page, ctx.baseUrl, '/code-evolution');
    await waitFor(page, byRole('heading', 'Code Evolution'));
    await waitFor(page, byRole('heading', 'Step 1 of 5: Print a greeting'));
    await ctx.axe.check(page, 'code evolution');

    const started = Date.now();
    await click(page, byRole('button', 'Play'));
    await waitFor(page, byRole('button', 'Pause'));
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('h2')).some((h) => h.textContent?.startsWith('Step 2 of 5')),
    );
    const firstStep = Date.now() - started;
    assert.ok(
      firstStep >= 1900 && firstStep < 4500,
      `the first step took ${firstStep} ms, expected about 2 s`,
    );
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll('h2')).some((h) => h.textContent?.startsWith('Step 3 of 5')),
      { timeout: 4000 },
    );
    assert.equal(
      await page.$eval('main ol [aria-current="step"]', (el) =>
        (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
      ),
      '3 Add a parameter',
    );

    await click(page, byRole('button', 'Reset'));
    await waitFor(page, byRole('heading', 'Step 1 of 5: Print a greeting'));
    await waitFor(page, byRole('button', 'Play'));
    // Reset stops playback: a step later it is still on the first state.
    await sleep(2300);
    assert.ok(
      await page.$(byRole('heading', 'Step 1 of 5: Print a greeting')),
      'playback went on after Reset',
    );
  },
};

export const toolsJourneys: readonly Journey[] = [
  toolsHub,
  numberBingo,
  wordBingo,
  crossword,
  wordSorter,
  spanishAlphabet,
  codeEvolution,
];
