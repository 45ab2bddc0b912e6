import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import type { Journey, JourneyContext } from '../support/harness';
import { assertPdfFile, pdfText, waitForDownload } from '../support/pdf';
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
import { ADMIN, DEMO_PASSWORD, STUDENT, TEACHER, pageFetch, signedIn } from './shell.journey';

/** Issue #11, the live chat room. Texts from shared/spec/classroom-tools.md §8 and the protocol's contract. */
const CHAT = {
  nameTaken: (name: string) =>
    `Name ${name} is already taken! Please choose a different name to join this chatroom.`,
  exported: 'Chat conversation exported successfully!',
  notApproved: 'Your account must be approved before you can join a chatroom.',
} as const;

/** Chooses a room by its name in the chat screen's picker (the option's value is the room id). */
async function chooseRoom(page: Page, roomName: string): Promise<void> {
  await waitFor(page, byRole('combobox', 'Chatroom'));
  const value = await page.$$eval(
    'select option',
    (options, name) => options.find((o) => o.textContent?.trim() === name)?.getAttribute('value') ?? null,
    roomName,
  );
  assert.ok(value, `no chatroom called ${roomName} in the picker`);
  await fill(page, byRole('combobox', 'Chatroom'), value);
}

async function joinRoom(page: Page, ctx: JourneyContext, roomName: string, name?: string): Promise<void> {
  await open(page, ctx.baseUrl, '/listen-to-type');
  await chooseRoom(page, roomName);
  if (name !== undefined) await fill(page, byRole('textbox', 'Your name'), name);
  await click(page, byRole('button', 'Join'));
}

async function inRoom(page: Page): Promise<void> {
  await waitForText(page, 'Connected');
  await waitFor(page, byRole('textbox', 'Message'));
}

/** Types into the composer and presses Enter (Shift+Enter when asked). */
async function typeMessage(page: Page, text: string, shift = false): Promise<void> {
  const box = byRole('textbox', 'Message');
  await click(page, box);
  await page.keyboard.type(text);
  if (shift) await page.keyboard.down('Shift');
  await page.keyboard.press('Enter');
  if (shift) await page.keyboard.up('Shift');
}

async function messagesText(page: Page): Promise<string> {
  return textOf(page, '[aria-label="Messages"]');
}

const chatJourney: Journey = {
  id: 15,
  title:
    'chat: an admin invites a student, teacher and student talk live, a second tab is refused, the teacher exports the PDF, a suspension ends the student’s chat',
  topologies: TOPOLOGIES,
  timeoutMs: 120_000,
  async run(ctx) {
    const roomName = `Clase ${ctx.runId}`;

    // The admin creates the room and invites the student through the 200 px invite list.
    const admin = await signedIn(ctx, ADMIN.email);
    await open(admin, ctx.baseUrl, '/admin/chatrooms');
    await waitForText(admin, 'Chatroom Management');
    await click(admin, byRole('button', 'Create Chatroom'));
    await waitFor(admin, byRole('dialog', 'Create Chatroom'));
    await fill(admin, byRole('textbox', 'Name'), roomName);
    await fill(admin, byRole('textbox', 'Description'), 'Práctica de conversación');
    await admin.waitForFunction(
      (name: string) =>
        Array.from(document.querySelectorAll('[role="dialog"] label')).some((l) =>
          l.textContent?.includes(name),
        ),
      {},
      STUDENT.name,
    );
    const listHeight = await admin.$$eval('[role="dialog"] ul', (lists) =>
      lists.map((l) => (l.parentElement as HTMLElement).getBoundingClientRect().height),
    );
    assert.ok(listHeight.includes(200), `the invite list is 200 px high (found ${listHeight.join(', ')})`);
    await admin.$$eval(
      '[role="dialog"] label',
      (labels, name) =>
        (
          labels.find((l) => l.textContent?.includes(name))?.querySelector('input') as HTMLInputElement
        ).click(),
      STUDENT.name,
    );
    await ctx.axe.check(admin, 'create chatroom modal');
    await click(admin, `[role="dialog"] ${byRole('button', 'Create Chatroom')}`);
    await admin.waitForSelector('[role="dialog"]', { hidden: true });
    await waitForText(admin, roomName);
    await ctx.axe.check(admin, 'admin chatrooms');

    // Teacher and student join from two browsers (the cluster runs two chat replicas).
    const { page: teacher, downloads } = await ctx.session({ downloads: true });
    await open(teacher, ctx.baseUrl, '/');
    await signInWithModal(teacher, TEACHER.email, DEMO_PASSWORD);
    await joinRoom(teacher, ctx, roomName);
    await inRoom(teacher);
    const student = await signedIn(ctx, STUDENT.email);
    await joinRoom(student, ctx, roomName);
    await inRoom(student);
    await waitForText(teacher, STUDENT.name, 'aside');
    await ctx.axe.check(student, 'chat room');

    // Messages both ways; Enter sends, Shift+Enter does not.
    await typeMessage(teacher, 'Hola, ¿cómo estás? Ñandú y pingüino');
    await waitForText(student, 'Hola, ¿cómo estás? Ñandú y pingüino', '[aria-label="Messages"]');
    await typeMessage(student, 'Muy bien, gracias — ¡adiós!');
    await waitForText(teacher, 'Muy bien, gracias — ¡adiós!', '[aria-label="Messages"]');
    await typeMessage(student, 'sin enviar', true);
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(!(await messagesText(teacher)).includes('sin enviar'), 'Shift+Enter sent the message');
    assert.match(await student.$eval('textarea', (t) => (t as HTMLTextAreaElement).value), /sin enviar\n/);

    // A second tab of the student with the same name is refused with the spec's toast.
    const secondTab = await ctx.page(student.browserContext());
    await joinRoom(secondTab, ctx, roomName, STUDENT.name);
    await waitForToast(secondTab, CHAT.nameTaken(STUDENT.name), 'alert');
    await secondTab.close();

    // The teacher exports the conversation: accents are real text in the PDF.
    await click(teacher, byRole('button', 'Export PDF'));
    await waitForToast(teacher, CHAT.exported);
    const file = await waitForDownload(downloads, /^chat_.*\.pdf$/);
    await assertPdfFile(file);
    const text = await pdfText(file);
    for (const expected of ['Hola, ¿cómo estás? Ñandú y pingüino', 'Muy bien, gracias — ¡adiós!', roomName])
      assert.ok(text.replace(/\s+/g, ' ').includes(expected), `the PDF shows "${expected}": ${text}`);

    // The admin suspends the student: their socket closes at once and the screen says why.
    const me = (await pageFetch(student, 'GET', '/api/auth/me')).body as { id: string };
    try {
      const suspended = await pageFetch(admin, 'PATCH', `/api/users/${me.id}/approval`, { approved: false });
      assert.equal(suspended.status, 200);
      const started = Date.now();
      await waitForToast(student, CHAT.notApproved, 'alert');
      await waitFor(student, byRole('button', 'Join'));
      ctx.log(`suspended student out of the chat after ${Date.now() - started} ms`);
    } finally {
      assert.equal(
        (await pageFetch(admin, 'PATCH', `/api/users/${me.id}/approval`, { approved: true })).status,
        200,
      );
    }
  },
};

export const chatJourneys: readonly Journey[] = [chatJourney];
