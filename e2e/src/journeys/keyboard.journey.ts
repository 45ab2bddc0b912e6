import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import type { Journey, JourneyContext } from '../support/harness';
import {
  activate,
  expectFocusOn,
  expectModalTrapsFocus,
  expectNoTrap,
  expectVisibleFocus,
  focusedLabel,
  press,
  settle,
  tabTo,
  typeInto,
} from '../support/keyboard';
import { assertPdfFile, pdfPageCount, waitForDownload } from '../support/pdf';
import { byRole, open, pathOf, waitFor, waitForText, waitForToast } from '../support/ui';
import { ADMIN, DEMO_PASSWORD, STUDENT, STUDENT2 } from './shell.journey';

/**
 * Issue #15 item 3: every area by keyboard alone (Tab, Shift+Tab, Enter, Space, arrows, Escape; typing into
 * fields). No clicks and no programmatic focus: the helpers in support/keyboard.ts press keys, and check at
 * every stop that the focused element shows a focus indicator. Texts copied from shared/spec/.
 */
const Spec = {
  loggedIn: 'Successfully logged in!',
  pendingApproval: 'Pending Approval',
  demoPost: 'Ser vs. Estar: Two Ways to Say "To Be"',
  demoQuiz: 'Los colores',
  demoRoom: 'Spanish Practice',
  sorterCleared: 'All lists have been cleared.',
} as const;

/** Signs in through the navbar's Sign In modal with the keyboard only; returns with the Logout button shown. */
async function keyboardSignIn(page: Page, email: string): Promise<void> {
  await activate(page, 'button', 'Sign In');
  await waitFor(page, byRole('dialog', 'Sign In'));
  await expectVisibleFocus(page, 'the Sign In dialog opened');
  await typeInto(page, 'textbox', 'Email', email, { within: '[role="dialog"]' });
  await typeInto(page, 'textbox', 'Password', DEMO_PASSWORD, { within: '[role="dialog"]' });
  await activate(page, 'button', 'Sign In', 'Enter', { within: '[role="dialog"]' });
  await waitForToast(page, Spec.loggedIn);
  await page.waitForSelector('[role="dialog"]', { hidden: true });
  await waitFor(page, byRole('button', 'Logout'));
}

async function keyboardSession(
  ctx: JourneyContext,
  email: string,
  options: { downloads?: boolean } = {},
): Promise<{ page: Page; downloads: string }> {
  const { page, downloads } = await ctx.session(options);
  await open(page, ctx.baseUrl, '/');
  await keyboardSignIn(page, email);
  return { page, downloads };
}

/** Follows a link by keyboard and waits for the route. */
async function followLink(
  page: Page,
  name: string,
  route: string,
  options: { back?: boolean } = {},
): Promise<void> {
  await activate(page, 'link', name, 'Enter', options);
  await page.waitForFunction((r: string) => window.location.pathname === r, {}, route);
}

/** In the radio group (fieldset) of this question, checks the option with this text: Space, then arrows. */
async function chooseOption(page: Page, question: string, option: string): Promise<void> {
  const fieldset = await page.$$eval(
    'fieldset[data-question-index]',
    (sets, q) =>
      sets
        .find(
          (s) =>
            s
              .querySelector('p')
              ?.textContent?.replace(/^Question \d+\.\s*/, '')
              .trim() === q,
        )
        ?.getAttribute('data-question-index') ?? null,
    question,
  );
  assert.ok(fieldset !== null, `no question "${question}"`);
  const inGroup = `fieldset[data-question-index="${fieldset}"]`;
  // Tab stops once in a radio group: on its first radio while none is checked.
  for (let i = 0; i < 40; i++) {
    if (await page.$eval(inGroup, (s) => s.contains(document.activeElement))) break;
    await press(page, 'Tab');
  }
  assert.ok(
    await page.$eval(inGroup, (s) => s.contains(document.activeElement)),
    `Tab never reached the question "${question}"`,
  );
  await press(page, ' ');
  for (let i = 0; i < 4; i++) {
    const current = await page.evaluate(() =>
      (document.activeElement?.closest('label')?.textContent ?? '').trim(),
    );
    if (current === option) break;
    await press(page, 'ArrowDown');
  }
  const checked = await page.$eval(inGroup, (s) =>
    (s.querySelector('input:checked')?.closest('label')?.textContent ?? '').trim(),
  );
  assert.equal(checked, option, `the arrows checked "${checked}" under "${question}"`);
}

const signInOut: Journey = {
  id: 50,
  title: 'keyboard: sign in and out through the modal (Escape, Close, focus trap, focus returned)',
  topologies: ['standalone'],
  async run(ctx) {
    const { page } = await ctx.session();
    await open(page, ctx.baseUrl, '/');
    // The first Tab stop is the skip link, and it is visible when focused.
    await press(page, 'Tab');
    assert.match(await focusedLabel(page), /Skip to content/);

    // Open, Escape: focus back on Sign In.
    await activate(page, 'button', 'Sign In');
    await waitFor(page, byRole('dialog', 'Sign In'));
    await expectVisibleFocus(page, 'focus starts inside the Sign In dialog');
    await expectModalTrapsFocus(page, 'Sign In');
    await press(page, 'Escape', { checkFocus: false });
    await page.waitForSelector('[role="dialog"]', { hidden: true });
    await expectFocusOn(page, 'button', 'Sign In', 'after Escape closed the Sign In dialog');

    // Open again, close with the Close button: focus back on Sign In.
    await press(page, 'Enter', { checkFocus: false });
    await waitFor(page, byRole('dialog', 'Sign In'));
    await activate(page, 'button', 'Close dialog', 'Enter', { within: '[role="dialog"]' });
    await page.waitForSelector('[role="dialog"]', { hidden: true });
    await expectFocusOn(page, 'button', 'Sign In', 'after the Close button closed the Sign In dialog');

    // Sign Up opens the same modal (Space this time); Escape returns to Sign Up. No trap once it is closed.
    await activate(page, 'button', 'Sign Up', 'Space');
    await waitFor(page, '[role="dialog"]');
    await press(page, 'Escape', { checkFocus: false });
    await page.waitForSelector('[role="dialog"]', { hidden: true });
    await expectFocusOn(page, 'button', 'Sign Up', 'after Escape closed the Sign Up dialog');
    await expectNoTrap(page, 'header', 'the navbar');

    // Sign in for real: focus lands on something visible (the opener is gone once signed in).
    await keyboardSignIn(page, STUDENT.email);
    await expectFocusOn(page, 'button', 'Logout', 'after signing in (the Sign In button is gone)');

    // And out: Logout by keyboard, the Sign In button is back and focus is not lost.
    await activate(page, 'button', 'Logout');
    await waitFor(page, byRole('button', 'Sign In'));
    await expectFocusOn(page, 'button', 'Sign In', 'after signing out (the Logout button is gone)');
    const me = await page.evaluate(
      async () => (await fetch('/api/auth/me', { credentials: 'include' })).status,
    );
    assert.equal(me, 401, 'signed out on the server');
  },
};

const lessonComment: Journey = {
  id: 51,
  title: 'keyboard: read a lesson and comment on it',
  topologies: ['standalone'],
  timeoutMs: 90_000,
  async run(ctx) {
    const comment = `Keyboard comment ${ctx.runId}`;
    const { page } = await keyboardSession(ctx, STUDENT2.email);
    await followLink(page, 'Lessons', '/blog');
    await waitFor(page, byRole('heading', 'Lessons'));
    await followLink(page, `Read More: ${Spec.demoPost}`, '/blog/ser-vs-estar');
    await waitFor(page, byRole('heading', Spec.demoPost));
    await typeInto(page, 'textbox', 'Leave a comment', comment);
    await activate(page, 'button', 'Post Comment');
    await page.waitForFunction(
      (text: string, pending: string) =>
        Array.from(document.querySelectorAll('section[aria-labelledby="comments-title"] li')).some(
          (li) => li.textContent?.includes(text) && li.textContent.includes(pending),
        ),
      {},
      comment,
      Spec.pendingApproval,
    );
    await expectFocusOn(page, 'textbox', 'Leave a comment', 'after posting the comment');
    ctx.shared.set('keyboard-comment', comment);
    // The rest of the page and the footer are reachable: the comment form is no trap.
    await expectNoTrap(page, 'section[aria-labelledby="comments-title"]', 'the comments section');
    await tabTo(page, 'link', 'Tools', { within: 'footer' });
  },
};

const moderateComment: Journey = {
  id: 52,
  title: 'keyboard: an admin approves a comment, cancels and confirms its deletion',
  topologies: ['standalone'],
  needs: [51],
  timeoutMs: 90_000,
  async run(ctx) {
    const comment = ctx.shared.get('keyboard-comment') as string;
    const label = `comment by ${STUDENT2.name}: ${comment}`;
    const { page } = await keyboardSession(ctx, ADMIN.email);
    await open(page, ctx.baseUrl, '/admin/comments');
    await waitFor(page, byRole('heading', 'Comment Moderation'));
    await waitFor(page, byRole('button', `Approve ${label}`));

    // The status filter is a group of toggle buttons: Pending shows the new comment, All everything again.
    const filter = (prefix: string) =>
      page.$$eval(
        '[role="group"][aria-label="Filter by status"] button',
        (bs, p) => bs.map((b) => b.textContent?.trim() ?? '').find((t) => t.startsWith(p)) ?? p,
        prefix,
      );
    await activate(page, 'button', await filter('Pending'));
    await page.waitForSelector(
      '[aria-label="Filter by status"] button[aria-pressed="true"]::-p-text(Pending)',
    );
    await activate(page, 'button', `Approve ${label}`);
    // Approved, it leaves the Pending list with its button: focus goes to the comment now in its place.
    await page.waitForSelector(byRole('button', `Approve ${label}`), { hidden: true });
    await settle(page);
    await expectVisibleFocus(page, 'after approving under Pending');
    assert.match(
      await focusedLabel(page),
      /Approve comment by|Pending/,
      'focus stays in the moderation list',
    );
    await activate(page, 'button', await filter('All'), 'Enter', { back: true });
    // Under All the same button toggles: focus stays on it.
    await activate(page, 'button', `Unapprove ${label}`);
    await expectFocusOn(page, 'button', `Approve ${label}`, 'after Unapprove');
    await press(page, 'Enter', { checkFocus: false });
    await expectFocusOn(page, 'button', `Unapprove ${label}`, 'after Approve');

    // Delete asks first: Escape and Cancel return focus to Delete; the trap holds only while it is open.
    const del = `Delete ${label}`;
    await activate(page, 'button', del);
    await waitFor(page, '[role="alertdialog"]');
    await expectVisibleFocus(page, 'the delete confirmation opened');
    await press(page, 'Escape', { checkFocus: false });
    await page.waitForSelector('[role="alertdialog"]', { hidden: true });
    await expectFocusOn(page, 'button', del, 'after Escape closed the delete confirmation');
    await press(page, 'Enter', { checkFocus: false });
    await waitFor(page, '[role="alertdialog"]');
    await activate(page, 'button', 'Cancel', 'Enter', { within: '[role="alertdialog"]' });
    await page.waitForSelector('[role="alertdialog"]', { hidden: true });
    await expectFocusOn(page, 'button', del, 'after Cancel closed the delete confirmation');
    await press(page, 'Space', { checkFocus: false });
    await waitFor(page, '[role="alertdialog"]');
    await activate(page, 'button', 'Delete', 'Enter', { within: '[role="alertdialog"]' });
    await page.waitForSelector('[role="alertdialog"]', { hidden: true });
    await page.waitForFunction((c: string) => !document.body.innerText.includes(c), {}, comment);
    await settle(page);
    await expectVisibleFocus(page, 'after the comment was deleted');
    assert.ok(
      await page.evaluate(
        () => !!document.activeElement?.closest('ul[aria-label="Comments"], [aria-label="Filter by status"]'),
      ),
      `focus stays in the moderation list after the delete, not on ${await focusedLabel(page)}`,
    );
  },
};

const takeQuiz: Journey = {
  id: 53,
  title: 'keyboard: a student takes a text quiz with the arrow keys and reviews it',
  topologies: ['standalone'],
  timeoutMs: 90_000,
  async run(ctx) {
    const { page } = await keyboardSession(ctx, STUDENT2.email);
    await open(page, ctx.baseUrl, '/text-quizzes');
    await activate(page, 'button', `Start Quiz: ${Spec.demoQuiz}`);
    await waitForText(page, 'Attempt 1 of 2');
    // Starting the quiz takes focus to its title, not back to the top of the page.
    assert.match(await focusedLabel(page), new RegExp(`^h2 "${Spec.demoQuiz}"`));
    await expectVisibleFocus(page, 'the quiz started');
    // Answer in the (shuffled) order the questions are shown, Tab moving from one radio group to the next.
    const answers: Record<string, string> = { rojo: 'red', verde: 'green', amarillo: 'yellow', azul: 'pink' };
    const shown = await page.$$eval('fieldset[data-question-index] p', (ps) =>
      ps.map((p) => p.textContent?.replace(/^Question \d+\.\s*/, '').trim() ?? ''),
    );
    assert.deepEqual([...shown].sort(), Object.keys(answers).sort());
    for (const q of shown) await chooseOption(page, q, answers[q]);
    await activate(page, 'button', 'Submit Quiz');
    await waitForText(page, `Results: ${Spec.demoQuiz}`);
    await waitForText(page, '75%');
    await waitForText(page, 'Question Review');
    await settle(page);
    assert.match(
      await focusedLabel(page),
      new RegExp(`^h2 "Results: ${Spec.demoQuiz}"`),
      'focus moves to the results',
    );
    await expectVisibleFocus(page, 'after submitting the quiz');
    await activate(page, 'button', 'Back to Quizzes');
    await waitFor(page, byRole('button', `Start Quiz: ${Spec.demoQuiz}`));

    // The review again from the profile: the tab list by arrows, the details by Enter.
    await open(page, ctx.baseUrl, '/profile');
    await waitForText(page, 'My Quiz Results');
    // Other journeys may have left results too: the tabs' counts and the row are found, not assumed.
    const tabs = await page.$$eval('[role="tablist"][aria-label="My Quiz Results"] [role="tab"]', (ts) =>
      ts.map((t) => t.textContent?.trim() ?? ''),
    );
    assert.equal(tabs.length, 2, `two result tabs: ${tabs.join(', ')}`);
    assert.match(tabs[1], /^Text Quizzes \(\d+\)$/);
    await tabTo(page, 'tab', tabs[0]);
    await press(page, 'ArrowRight');
    assert.match(
      await focusedLabel(page),
      /^tab\S* "Text Quizzes \(\d+\)"/,
      'ArrowRight moves to the Text Quizzes tab',
    );
    await page.waitForFunction(
      (t: string) =>
        Array.from(document.querySelectorAll('li[data-result-id] p')).some(
          (p) => p.textContent?.trim() === t,
        ),
      {},
      Spec.demoQuiz,
    );
    const row = await page.$$eval(
      'li[data-result-id]',
      (lis, t) =>
        lis.find((li) => li.querySelector('p')?.textContent?.trim() === t)?.getAttribute('data-result-id') ??
        null,
      Spec.demoQuiz,
    );
    assert.ok(row, `a result row for ${Spec.demoQuiz}`);
    await activate(page, 'button', 'View Details', 'Enter', { within: `li[data-result-id="${row}"]` });
    await waitFor(page, `section[aria-label="Question Review for ${Spec.demoQuiz}"]`);
    await expectFocusOn(page, 'button', 'Hide Details', 'the toggle keeps focus as it opens the review');
    await press(page, 'Enter');
    await page.waitForSelector(`section[aria-label="Question Review for ${Spec.demoQuiz}"]`, {
      hidden: true,
    });
  },
};

const chatRoom: Journey = {
  id: 54,
  title: 'keyboard: join a chat room and send a message',
  topologies: ['standalone'],
  timeoutMs: 90_000,
  async run(ctx) {
    const text = `Hola por teclado ${ctx.runId}`;
    const { page } = await keyboardSession(ctx, STUDENT.email);
    await open(page, ctx.baseUrl, '/listen-to-type');
    // The room picker is a native select: ArrowDown picks the room.
    const select = await tabTo(page, 'combobox', 'Chatroom');
    for (let i = 0; i < 5; i++) {
      const chosen = await select.evaluate((s) =>
        (s as HTMLSelectElement).selectedOptions[0]?.textContent?.trim(),
      );
      if (chosen === Spec.demoRoom) break;
      await press(page, 'ArrowDown');
    }
    assert.equal(
      await select.evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent?.trim()),
      Spec.demoRoom,
    );
    await select.dispose();
    await activate(page, 'button', 'Join');
    await waitForText(page, 'Connected');
    await expectFocusOn(page, 'textbox', 'Message', 'after joining (the Join button is gone)');
    await typeInto(page, 'textbox', 'Message', text);
    await page.keyboard.press('Enter');
    await waitForText(page, text, '[aria-label="Messages"]');
    await expectVisibleFocus(page, 'after sending');
    await expectNoTrap(page, 'textarea', 'the message composer');
    await activate(page, 'button', 'Leave', 'Enter', { back: true });
    await waitFor(page, byRole('button', 'Join'));
    await expectFocusOn(page, 'combobox', 'Chatroom', 'after leaving the room (the Leave button is gone)');
  },
};

const bingoCard: Journey = {
  id: 55,
  title: 'keyboard: build number bingo cards and export the PDF',
  topologies: ['standalone'],
  timeoutMs: 90_000,
  async run(ctx) {
    const { page, downloads } = await ctx.session({ downloads: true });
    await open(page, ctx.baseUrl, '/bingo-generator');
    await waitFor(page, byRole('heading', 'Bingo Generator'));
    await typeInto(page, 'spinbutton', 'Min Number', '1');
    await typeInto(page, 'spinbutton', 'Max Number', '75');
    await typeInto(page, 'spinbutton', 'Number of Cards', '2');
    await press(page, 'ArrowUp');
    assert.equal(
      await page.$eval(byRole('spinbutton', 'Number of Cards'), (el) => (el as HTMLInputElement).value),
      '3',
      'ArrowUp adds a card',
    );
    const caller = await tabTo(
      page,
      'checkbox',
      'Add a caller sheet (every number in a shuffled call order) as the last page',
    );
    await press(page, ' ');
    assert.equal(
      await caller.evaluate((c) => (c as HTMLInputElement).checked),
      true,
      'Space ticks the caller sheet',
    );
    await caller.dispose();
    await activate(page, 'button', 'Generate Cards');
    await page.waitForFunction(() => document.querySelectorAll('main table').length === 3);
    await expectVisibleFocus(page, 'after generating the cards');
    await activate(page, 'button', 'Generate PDF');
    const file = await waitForDownload(downloads, 'number_bingo_cards.pdf');
    await assertPdfFile(file);
    assert.equal(await pdfPageCount(file), 3 + 1, 'pages = 3 cards + the caller sheet');
    await expectNoTrap(page, 'main', 'the bingo generator');
  },
};

const sortWords: Journey = {
  id: 56,
  title: 'keyboard: sort words into two lists without dragging',
  topologies: ['standalone'],
  timeoutMs: 90_000,
  async run(ctx) {
    const { page } = await ctx.session();
    await open(page, ctx.baseUrl, '/word-sorter');
    await waitFor(page, byRole('heading', 'Word Sorter'));
    for (const word of ['rojo', 'perro', 'azul', 'gato']) {
      await typeInto(page, 'textbox', 'New word', word);
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        (w: string) => document.querySelector('main ul[aria-label="List 1"]')?.textContent?.includes(w),
        {},
        word,
      );
    }
    // Rename List 2 by Enter on its title, type, Enter; focus stays on the renamed title.
    await activate(page, 'button', 'List 2 (click to rename)');
    await expectVisibleFocus(page, 'the rename field');
    await page.keyboard.down('Control');
    await page.keyboard.press('a');
    await page.keyboard.up('Control');
    await page.keyboard.type('Animales');
    await press(page, 'Enter', { checkFocus: false });
    await expectFocusOn(page, 'button', 'Animales (click to rename)', 'after renaming');

    // Move two animals across: after each move focus stays with the moved word.
    await activate(page, 'button', 'Move "perro" to Animales', 'Enter', { back: true });
    await page.waitForFunction(() =>
      document.querySelector('main ul[aria-label="Animales"]')?.textContent?.includes('perro'),
    );
    await settle(page);
    await expectVisibleFocus(page, 'after moving perro');
    await activate(page, 'button', 'Move "gato" to Animales', 'Enter', { back: true });
    await page.waitForFunction(() =>
      document.querySelector('main ul[aria-label="Animales"]')?.textContent?.includes('gato'),
    );
    await settle(page);
    await expectVisibleFocus(page, 'after moving gato');
    const lists = await page.$$eval('main ul[aria-label]', (uls) =>
      uls.map((ul) => Array.from(ul.querySelectorAll('li span.min-w-0')).map((s) => s.textContent?.trim())),
    );
    assert.deepEqual(
      lists,
      [
        ['rojo', 'azul'],
        ['perro', 'gato'],
      ],
      'the words sorted by keyboard',
    );

    // Reordering within a list, which the mouse does by dragging: Alt+ArrowUp on the word's arrow button.
    assert.match(await focusedLabel(page), /Move "gato" to List 1/, 'focus followed gato to its new list');
    await page.keyboard.down('Alt');
    await press(page, 'ArrowUp');
    await page.keyboard.up('Alt');
    assert.match(await focusedLabel(page), /Move "gato" to List 1/, 'focus stays on the reordered word');
    const reordered = await page.$$eval('main ul[aria-label="Animales"] li span.min-w-0', (spans) =>
      spans.map((s) => s.textContent?.trim()),
    );
    assert.deepEqual(reordered, ['gato', 'perro'], 'Alt+ArrowUp moved gato up');

    await activate(page, 'button', 'Clear All Lists');
    await expectFocusOn(page, 'button', 'Clear All Lists', 'while the lists are being cleared');
    await waitForToast(page, Spec.sorterCleared);
    // The emptied lists disable Clear All Lists: focus goes to the word field to start again.
    await expectFocusOn(page, 'textbox', 'New word', 'after the lists were cleared');
    assert.equal(pathOf(page), '/word-sorter');
    await expectNoTrap(page, 'main', 'the word sorter');
  },
};

export const keyboardJourneys: readonly Journey[] = [
  signInOut,
  lessonComment,
  moderateComment,
  takeQuiz,
  chatRoom,
  bingoCard,
  sortWords,
];
