import assert from 'node:assert/strict';
import type { ElementHandle, KeyInput, Page } from 'puppeteer-core';
import { byRole } from './ui';

/**
 * Keyboard-only driving: everything here moves focus with real key presses (Tab, Shift+Tab, arrows) and never
 * clicks or calls focus(). Reading the DOM to check where focus is, and how it looks, is allowed.
 */

/** How many Tab presses may pass before a control counts as unreachable. */
const MAX_TABS = 80;

export interface FocusInfo {
  /** A short description of the focused element, for messages: `button "Sign In"`. */
  label: string;
  /** Why the focus indicator counts as visible, or why not. */
  indicator: string;
  visible: boolean;
}

/** Describes document.activeElement and whether it shows a focus indicator that its unfocused twin does not. */
export async function focusInfo(page: Page): Promise<FocusInfo> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el === document.documentElement)
      return { label: '(nothing: <body>)', indicator: 'no focused element', visible: false };
    const text = (el.getAttribute('aria-label') ?? el.textContent ?? '')
      .trim()
      .replace(/\s+/g, ' ')
      .slice(0, 60);
    const role = el.getAttribute('role') ?? el.tagName.toLowerCase();
    const label = `${role}${el.getAttribute('type') ? `[type=${el.getAttribute('type')}]` : ''} "${text}"`;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0)
      return { label, indicator: 'the focused element has no box (hidden)', visible: false };
    // Not hidden under the sticky navbar (or anything else fixed) after the browser scrolled it into view.
    const x = Math.min(Math.max(rect.left + rect.width / 2, 0), window.innerWidth - 1);
    const y = Math.min(Math.max(rect.top + rect.height / 2, 0), window.innerHeight - 1);
    const onTop = document.elementFromPoint(x, y);
    const cover = onTop?.closest('header, [role="dialog"], [role="alertdialog"]');
    if (onTop && cover && !cover.contains(el) && !el.contains(onTop)) {
      return {
        label,
        indicator: `the focused element is covered by <${cover.tagName.toLowerCase()}> (${Math.round(x)}, ${Math.round(y)})`,
        visible: false,
      };
    }
    const props = [
      'outline-style',
      'outline-width',
      'outline-color',
      'box-shadow',
      'border-top-color',
      'background-color',
      'text-decoration-line',
    ] as const;
    const focused = getComputedStyle(el);
    const now = Object.fromEntries(props.map((p) => [p, focused.getPropertyValue(p)])) as Record<
      (typeof props)[number],
      string
    >;
    // The unfocused state: a twin with the same classes and attributes, in the same place, never focused.
    const twin = el.cloneNode(false) as HTMLElement;
    // No id and no name: a twin radio in the same group would uncheck the real one.
    twin.removeAttribute('id');
    twin.removeAttribute('name');
    twin.setAttribute('aria-hidden', 'true');
    twin.setAttribute('tabindex', '-1');
    twin.style.position = 'absolute';
    twin.style.pointerEvents = 'none';
    el.parentElement?.insertBefore(twin, el);
    const unfocusedStyle = getComputedStyle(twin);
    const before = Object.fromEntries(props.map((p) => [p, unfocusedStyle.getPropertyValue(p)])) as Record<
      (typeof props)[number],
      string
    >;
    twin.remove();
    const transparent = (c: string) =>
      c === 'transparent' || /rgba\(.*,\s*0\)$/.test(c) || /\/\s*0\)$/.test(c);
    const outline =
      now['outline-style'] !== 'none' &&
      parseFloat(now['outline-width']) >= 1 &&
      !transparent(now['outline-color']);
    const outlineChanged =
      outline &&
      (before['outline-style'] === 'none' ||
        before['outline-width'] !== now['outline-width'] ||
        before['outline-color'] !== now['outline-color']);
    if (outlineChanged)
      return {
        label,
        indicator: `outline ${now['outline-width']} ${now['outline-style']} ${now['outline-color']}`,
        visible: true,
      };
    const shadowChanged = now['box-shadow'] !== 'none' && now['box-shadow'] !== before['box-shadow'];
    if (shadowChanged) return { label, indicator: `box-shadow ${now['box-shadow']}`, visible: true };
    return {
      label,
      indicator: `no change on focus (outline ${now['outline-style']} ${now['outline-width']}, box-shadow ${now['box-shadow']}; focus-visible: ${el.matches(':focus-visible')})`,
      visible: false,
    };
  });
}

/** Fails unless the focused element shows a focus indicator (an outline or a ring it lacks when unfocused). */
export async function expectVisibleFocus(page: Page, where = ''): Promise<FocusInfo> {
  const info = await focusInfo(page);
  assert.ok(
    info.visible,
    `no visible focus indicator${where ? ` (${where})` : ''} on ${info.label}: ${info.indicator}`,
  );
  return info;
}

/** Presses a key and checks the focus indicator of whatever has focus afterwards. */
export async function press(
  page: Page,
  key: KeyInput,
  options: { shift?: boolean; checkFocus?: boolean } = {},
): Promise<void> {
  if (options.shift) await page.keyboard.down('Shift');
  await page.keyboard.press(key);
  if (options.shift) await page.keyboard.up('Shift');
  await settle(page);
  if (options.checkFocus ?? true)
    await expectVisibleFocus(page, `after ${options.shift ? 'Shift+' : ''}${key}`);
}

/** One animation frame, so React's re-render after a key press is on screen. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/** True when the element is the focused one. */
export async function isFocused(handle: ElementHandle<Element>): Promise<boolean> {
  return handle.evaluate((el) => el === document.activeElement);
}

/**
 * Presses Tab (or Shift+Tab) until the element with this role and accessible name has focus, checking the focus
 * indicator at every stop on the way. Fails when it is not reached within MAX_TABS presses (unreachable).
 */
export async function tabTo(
  page: Page,
  role: string,
  name: string,
  options: { back?: boolean; within?: string; max?: number } = {},
): Promise<ElementHandle<Element>> {
  const selector = `${options.within ? `${options.within} ` : ''}${byRole(role, name)}`;
  await page.waitForSelector(selector, { visible: true });
  const stops: string[] = [];
  let wraps = 0;
  for (let i = 0; i <= (options.max ?? MAX_TABS); i++) {
    const target = await page.$(selector);
    if (target && (await isFocused(target))) {
      await expectVisibleFocus(page, `on ${role} "${name}"`);
      return target;
    }
    await target?.dispose();
    if (i > 0 && (await page.evaluate(() => document.activeElement === document.body))) {
      // Tab past the last control leaves the page for the browser's own UI, and the next Tab comes back at the
      // top: once is a wrap, twice means the control is not in the tab order.
      wraps += 1;
      assert.ok(
        wraps < 2,
        `${role} "${name}" is not in the tab order: a whole round went ${stops.join(' → ')}`,
      );
      stops.push('(browser UI)');
    } else if (i > 0) {
      const info = await expectVisibleFocus(page, `tabbing to ${role} "${name}"`);
      stops.push(info.label);
    }
    if (options.back) await page.keyboard.down('Shift');
    await page.keyboard.press('Tab');
    if (options.back) await page.keyboard.up('Shift');
    await settle(page);
  }
  assert.fail(
    `${role} "${name}" was not reached by ${options.back ? 'Shift+Tab' : 'Tab'} within ${options.max ?? MAX_TABS} presses; focus went: ${stops.slice(-15).join(' → ')}`,
  );
}

/** Tabs to a control and activates it with Enter (or Space). */
export async function activate(
  page: Page,
  role: string,
  name: string,
  key: 'Enter' | 'Space' = 'Enter',
  options: { back?: boolean; within?: string } = {},
): Promise<void> {
  const handle = await tabTo(page, role, name, options);
  await handle.dispose();
  await page.keyboard.press(key === 'Space' ? ' ' : 'Enter');
  await settle(page);
}

/** Tabs to a text field, selects what is in it (Ctrl+A) and types the text. */
export async function typeInto(
  page: Page,
  role: string,
  name: string,
  text: string,
  options: { back?: boolean; within?: string } = {},
): Promise<void> {
  const handle = (await tabTo(page, role, name, options)) as ElementHandle<HTMLInputElement>;
  try {
    await page.keyboard.down('Control');
    await page.keyboard.press('a');
    await page.keyboard.up('Control');
    if (text) await page.keyboard.type(text);
    else await page.keyboard.press('Backspace');
    const value = await handle.evaluate((el) => (el as HTMLInputElement).value);
    assert.equal(value, text, `${role} "${name}" holds ${JSON.stringify(value)} after typing`);
  } finally {
    await handle.dispose();
  }
}

/** A short description of the focused element. */
export async function focusedLabel(page: Page): Promise<string> {
  return (await focusInfo(page)).label;
}

/** Fails unless this element (by role and name) has focus: focus came back to where it was. */
export async function expectFocusOn(page: Page, role: string, name: string, why: string): Promise<void> {
  const handle = await page.waitForSelector(byRole(role, name));
  assert.ok(handle, `no ${role} "${name}"`);
  try {
    // Focus restoration happens in an effect's cleanup: give it a frame or two.
    const deadline = Date.now() + 2000;
    while (!(await isFocused(handle)) && Date.now() < deadline) await settle(page);
    assert.ok(
      await isFocused(handle),
      `${why}: focus is on ${await focusedLabel(page)}, not on ${role} "${name}"`,
    );
    await expectVisibleFocus(page, why);
  } finally {
    await handle.dispose();
  }
}

/**
 * A modal traps focus only while it is open: Tab and Shift+Tab, more times than it has controls, never leave it,
 * and every stop shows focus.
 */
export async function expectModalTrapsFocus(page: Page, dialogName: string): Promise<void> {
  const dialog = byRole('dialog', dialogName);
  const count = await page.$eval(
    dialog,
    (d) =>
      d.querySelectorAll(
        'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])',
      ).length,
  );
  for (const back of [false, true]) {
    for (let i = 0; i < count + 2; i++) {
      await press(page, 'Tab', { shift: back });
      const inside = await page.$eval(dialog, (d) => d.contains(document.activeElement));
      assert.ok(
        inside,
        `the ${dialogName} dialog let focus out (${back ? 'Shift+Tab' : 'Tab'}) to ${await focusedLabel(page)}`,
      );
    }
  }
}

/**
 * No keyboard trap: from inside the container, Tab (and Shift+Tab) presses reach an element outside it.
 */
export async function expectNoTrap(page: Page, container: string, what: string): Promise<void> {
  for (const back of [false, true]) {
    let left = false;
    const stops: string[] = [];
    for (let i = 0; i < MAX_TABS && !left; i++) {
      await press(page, 'Tab', { shift: back });
      left = await page.evaluate((sel: string) => {
        const c = document.querySelector(sel);
        return !!c && !c.contains(document.activeElement) && document.activeElement !== document.body;
      }, container);
      stops.push(await focusedLabel(page));
    }
    assert.ok(
      left,
      `keyboard trap: ${back ? 'Shift+Tab' : 'Tab'} never leaves ${what}; stops: ${stops.slice(-10).join(' → ')}`,
    );
  }
}
