import assert from 'node:assert/strict';
import type { ElementHandle, Page } from 'puppeteer-core';

/**
 * Queries by accessible role and name, the way a user (or a screen reader) finds things, through Chromium's own
 * accessibility tree. The name must match exactly.
 */
export function byRole(role: string, name: string): string {
  const quote = name.includes('"') ? "'" : '"';
  assert.ok(!(name.includes('"') && name.includes("'")), `cannot quote accessible name ${name}`);
  return `::-p-aria([name=${quote}${name}${quote}][role="${role}"])`;
}

export const inDialog = (selector: string) => `[role="dialog"] ${selector}`;

export async function click(page: Page, selector: string): Promise<void> {
  await page.locator(selector).click();
}

/**
 * Replaces a field's value the way a person does: click into it, select what is there, type the new text.
 * (Puppeteer's Locator.fill assigns `value` directly in some cases, which React's controlled inputs either never
 * notice or overwrite on their next render.) A <select> gets the option chosen. The result is checked.
 */
export async function fill(page: Page, selector: string, value: string): Promise<void> {
  const handle = (await page.locator(selector).waitHandle()) as ElementHandle<
    HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement
  >;
  try {
    if (await handle.evaluate((el) => el instanceof HTMLSelectElement)) {
      await handle.select(value);
    } else {
      await handle.click();
      // Let the render caused by leaving the previous field settle before touching this one.
      await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
      await handle.evaluate((el) => (el as HTMLInputElement).select());
      if (value) await page.keyboard.type(value);
      else await page.keyboard.press('Backspace');
    }
    const actual = await handle.evaluate((el) => el.value);
    assert.equal(
      actual,
      value,
      `${selector} holds ${JSON.stringify(actual)} after filling in ${JSON.stringify(value)}`,
    );
  } finally {
    await handle.dispose();
  }
}

export async function waitFor(page: Page, selector: string): Promise<ElementHandle<Element>> {
  const handle = await page.waitForSelector(selector, { visible: true });
  assert.ok(handle, `no element for ${selector}`);
  return handle as ElementHandle<Element>;
}

export async function isPresent(page: Page, selector: string): Promise<boolean> {
  const handle = await page.$(selector);
  await handle?.dispose();
  return handle !== null;
}

/** Waits until the visible text of the page (or of the first element matching `within`) contains `text`. */
export async function waitForText(page: Page, text: string, within = 'body'): Promise<void> {
  await page.waitForFunction(
    (t: string, sel: string) => {
      const el = document.querySelector<HTMLElement>(sel);
      return !!el && el.innerText.includes(t);
    },
    {},
    text,
    within,
  );
}

export async function textOf(page: Page, selector = 'body'): Promise<string> {
  return page.$eval(selector, (el) => (el as HTMLElement).innerText);
}

/** A toast with exactly this message, in the polite (status) or assertive (alert) live region. */
export async function waitForToast(
  page: Page,
  message: string,
  kind: 'status' | 'alert' = 'status',
): Promise<void> {
  await page.waitForFunction(
    (m: string, k: string) =>
      Array.from(document.querySelectorAll(`[role="${k}"] li p`)).some((p) => p.textContent?.trim() === m),
    {},
    message,
    kind,
  );
}

export async function toastVisible(page: Page, message: string): Promise<boolean> {
  return page.evaluate(
    (m: string) =>
      Array.from(document.querySelectorAll('[role="status"] li p, [role="alert"] li p')).some(
        (p) => p.textContent?.trim() === m,
      ),
    message,
  );
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Opens a route with a full page load and waits for the app shell to replace the start-up spinner. */
export async function open(page: Page, baseUrl: string, route: string): Promise<void> {
  await page.goto(new URL(route, baseUrl).toString(), { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('footer');
}

/** Signs in through the navbar's Sign In modal, as a person would. */
export async function signInWithModal(page: Page, email: string, password: string): Promise<void> {
  await click(page, byRole('button', 'Sign In'));
  await waitFor(page, byRole('dialog', 'Sign In'));
  await fill(page, inDialog(byRole('textbox', 'Email')), email);
  await fill(page, inDialog(byRole('textbox', 'Password')), password);
  await click(page, inDialog(byRole('button', 'Sign In')));
  await waitForToast(page, 'Successfully logged in!');
  await page.waitForSelector('[role="dialog"]', { hidden: true });
  await waitFor(page, byRole('button', 'Logout'));
}

/** Link texts of the main navigation bar (the desktop list). */
export async function navbarLinks(page: Page): Promise<string[]> {
  return page.$$eval('nav[aria-label="Main"] ul a', (links) =>
    links.map((a) => (a as HTMLElement).innerText.trim()),
  );
}
