import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import type { Journey, JourneyContext } from '../support/harness';
import { TOPOLOGIES } from '../support/stacks';
import {
  byRole,
  click,
  fill,
  inDialog,
  isPresent,
  navbarLinks,
  open,
  pathOf,
  signInWithModal,
  textOf,
  waitFor,
  waitForText,
  waitForToast,
} from '../support/ui';

/** Issue #3, the web shell. Every text below is copied from shared/spec/blog-accounts-admin.md. */

export const DEMO_PASSWORD = 'demo1234';
export const ADMIN = { email: 'admin@demo.school', name: 'Alex Admin' } as const;
export const TEACHER = { email: 'teacher@demo.school', name: 'Taylor Teacher' } as const;
export const STUDENT = { email: 'student@demo.school', name: 'Sam Student' } as const;
export const STUDENT2 = { email: 'student2@demo.school', name: 'Jordan Student' } as const;

const Spec = {
  footerTagline: 'Educational tools and interactive learning experiences.',
  notFoundTitle: 'Page Not Found',
  loginRequiredQuery: 'Please sign in to access that page.',
  registerSuccess: 'Account created successfully!',
  pendingApproval: 'Account Pending Approval',
  accessDenied: 'Access Denied',
  adminPagesDenied: 'Access denied. Admin privileges required.',
  cannotChangeOwnAdmin: 'You cannot change your own admin status',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters long',
} as const;

interface NewAccount {
  name: string;
  username: string;
  email: string;
  password: string;
  page: Page;
}

/** A JSON call from the test process, sent from the site's own origin (the gateway refuses others for writes). */
export async function apiCall(
  ctx: JourneyContext,
  method: string,
  route: string,
  body?: unknown,
  cookie?: string,
): Promise<Response> {
  return fetch(new URL(route, ctx.baseUrl), {
    method,
    headers: { 'content-type': 'application/json', origin: ctx.baseUrl, ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The same call made by the page itself, with its cookies: what the signed-in person's browser can do. */
export async function pageFetch(
  page: Page,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async (m: string, r: string, b: string | null) => {
      const res = await fetch(r, {
        method: m,
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: b ?? undefined,
      });
      let parsed: unknown;
      try {
        parsed = await res.json();
      } catch {
        parsed = null;
      }
      return { status: res.status, body: parsed };
    },
    method,
    route,
    body === undefined ? null : JSON.stringify(body),
  );
}

export async function signedIn(ctx: JourneyContext, email: string): Promise<Page> {
  const { page } = await ctx.session();
  await open(page, ctx.baseUrl, '/');
  await signInWithModal(page, email, DEMO_PASSWORD);
  return page;
}

async function openAdminUsers(page: Page, ctx: JourneyContext): Promise<void> {
  await open(page, ctx.baseUrl, '/admin/users');
  await waitFor(page, byRole('heading', 'User Management'));
  await page.waitForSelector('table tbody tr[data-user-id]');
}

const visitorHome: Journey = {
  id: 1,
  title: 'visitor: home, footer, 404 and back home',
  topologies: TOPOLOGIES,
  async run(ctx) {
    const { page } = await ctx.session();
    await open(page, ctx.baseUrl, '/');
    await waitForText(page, Spec.footerTagline, 'footer');
    const footerLinks = await page.$$eval('footer nav a', (links) =>
      links.map((a) => ({ text: (a as HTMLElement).innerText.trim(), href: a.getAttribute('href') })),
    );
    assert.deepEqual(footerLinks, [
      { text: 'Home', href: '/' },
      { text: 'Blog', href: '/blog' },
      { text: 'Tools', href: '/educational-tools' },
    ]);
    // A visitor gets the Sign In and Sign Up buttons, and none of the signed-in links.
    await waitFor(page, byRole('button', 'Sign In'));
    await waitFor(page, byRole('button', 'Sign Up'));
    assert.deepEqual(await navbarLinks(page), ['Lessons', 'Tools']);
    await ctx.axe.check(page, 'home');

    // The home page's message query (spec section 2): shown, then cleared from the address.
    await open(page, ctx.baseUrl, '/?message=login-required');
    await waitForText(page, Spec.loginRequiredQuery);
    await page.waitForFunction(() => !window.location.search.includes('message='));

    await open(page, ctx.baseUrl, `/no/such/page-${ctx.runId}`);
    await waitFor(page, byRole('heading', Spec.notFoundTitle));
    await waitForText(page, 'does not exist or has been moved');
    await waitFor(page, byRole('link', 'Browse Posts'));
    await waitForText(page, Spec.footerTagline, 'footer');
    await ctx.axe.check(page, '404');

    await click(page, byRole('link', 'Go Home'));
    await page.waitForFunction(() => window.location.pathname === '/');
    await waitFor(page, byRole('button', 'Sign Up'));
    assert.equal(
      await isPresent(page, byRole('heading', Spec.notFoundTitle)),
      false,
      'the 404 page is still shown after Go Home',
    );
  },
};

const signUp: Journey = {
  id: 2,
  title: 'sign up through the modal; the new account waits for approval',
  topologies: TOPOLOGIES,
  async run(ctx) {
    // Kept open: journey 3 reloads this very browser context after the admin approves the account.
    const { page } = await ctx.session({ keep: true });
    const tag = `${ctx.runId}${ctx.topology === 'cluster' ? 'c' : 's'}`;
    const account: NewAccount = {
      name: `Casey Newcomer ${tag}`,
      username: `casey.${tag}`,
      email: `casey.${tag}@e2e.school`,
      password: `pw-${tag}-ok`,
      page,
    };
    await open(page, ctx.baseUrl, '/');
    await click(page, byRole('button', 'Sign Up'));
    await waitFor(page, byRole('dialog', 'Create Account'));
    await ctx.axe.check(page, 'sign-up modal');
    await fill(page, inDialog(byRole('textbox', 'Full Name')), account.name);
    await fill(page, inDialog(byRole('textbox', 'Username')), account.username);
    await fill(page, inDialog(byRole('combobox', 'Role')), 'student');
    await fill(page, inDialog(byRole('textbox', 'Email')), account.email);
    await fill(page, inDialog(byRole('textbox', 'Password')), account.password);
    await click(page, inDialog(byRole('button', 'Create Account')));
    await waitForToast(page, Spec.registerSuccess);
    await page.waitForSelector('[role="dialog"]', { hidden: true });

    // Signed in but not approved: no My Profile link, and /profile says why.
    await waitFor(page, byRole('button', 'Logout'));
    await waitForText(page, account.name, 'nav[aria-label="Main"]');
    assert.deepEqual(await navbarLinks(page), ['Lessons', 'Tools']);
    await open(page, ctx.baseUrl, '/profile');
    await waitFor(page, byRole('heading', Spec.pendingApproval));
    ctx.shared.set('newAccount', account);
  },
};

const adminApproves: Journey = {
  id: 3,
  title: 'admin approves the new account; the user reloads and gets My Profile',
  topologies: TOPOLOGIES,
  needs: [2],
  async run(ctx) {
    const account = ctx.shared.get('newAccount') as NewAccount;
    const { page } = await ctx.session();
    await open(page, ctx.baseUrl, '/');
    await click(page, byRole('button', 'Sign In'));
    await waitFor(page, byRole('dialog', 'Sign In'));
    await ctx.axe.check(page, 'sign-in modal');
    await click(page, byRole('button', 'Close dialog'));
    await signInWithModal(page, ADMIN.email, DEMO_PASSWORD);
    assert.deepEqual(await navbarLinks(page), [
      'Lessons',
      'Tools',
      'My Profile',
      'Chatroom',
      'Admin Dashboard',
    ]);

    await click(page, byRole('link', 'Admin Dashboard'));
    await page.waitForFunction(() => window.location.pathname === '/admin');
    await waitFor(page, 'a[href="/admin/users"]');
    await page.waitForSelector('[data-testid="pending-count"]');
    await ctx.axe.check(page, 'admin dashboard');

    await click(page, 'main a[href="/admin/users"]');
    await waitFor(page, byRole('heading', 'User Management'));
    await waitFor(page, byRole('button', `Approve ${account.name}`));
    await ctx.axe.check(page, 'admin users');
    await click(page, byRole('button', `Approve ${account.name}`));
    await waitFor(page, byRole('button', `Suspend ${account.name}`));

    // The user's own browser (another context, its own cookies) only needs a reload.
    const user = account.page;
    await user.reload({ waitUntil: 'domcontentloaded' });
    await waitFor(user, byRole('link', 'My Profile'));
    await click(user, byRole('link', 'My Profile'));
    await user.waitForFunction(() => window.location.pathname === '/profile');
    await waitFor(user, byRole('heading', 'My Profile'));
    const profile = await textOf(user, 'main');
    for (const expected of [account.name, `@${account.username}`, account.email, 'Approved', 'Student']) {
      assert.ok(profile.includes(expected), `the profile does not show ${expected}:\n${profile}`);
    }
    await ctx.axe.check(user, 'profile');
  },
};

const studentDenied: Journey = {
  id: 4,
  title: 'a student opening /admin sees Access Denied',
  topologies: TOPOLOGIES,
  async run(ctx) {
    const page = await signedIn(ctx, STUDENT.email);
    // The demo student is rostered into the demo teacher's class (ADR 0042): My Classes is theirs too.
    assert.deepEqual(await navbarLinks(page), ['Lessons', 'Tools', 'My Profile', 'Chatroom', 'My Classes']);
    for (const route of ['/admin', '/admin/users']) {
      await open(page, ctx.baseUrl, route);
      await waitFor(page, byRole('heading', Spec.accessDenied));
      await waitForText(page, Spec.adminPagesDenied, 'main');
      assert.equal(await isPresent(page, byRole('heading', 'User Management')), false);
    }
    await ctx.axe.check(page, 'access denied');
    // The server refuses too: the guard is not only in the browser.
    const users = await pageFetch(page, 'GET', '/api/users');
    assert.equal(users.status, 403, `GET /api/users as a student answered ${users.status}`);
  },
};

const ownAdminFlag: Journey = {
  id: 5,
  title: 'admin cannot remove their own admin flag',
  topologies: TOPOLOGIES,
  async run(ctx) {
    const page = await signedIn(ctx, ADMIN.email);
    await openAdminUsers(page, ctx);
    // The list pages on the server, newest first: the demo district's pupils are newer than the administrator.
    await fill(page, byRole('searchbox', 'Search users'), ADMIN.name);
    const own = byRole('switch', `Administrator: ${ADMIN.name}`);
    await waitFor(page, own);
    const checked = () => page.$eval(own, (el) => el.getAttribute('aria-checked'));
    assert.equal(await checked(), 'true');
    await click(page, own);
    await waitForToast(page, Spec.cannotChangeOwnAdmin, 'alert');
    assert.equal(await checked(), 'true', 'the admin switch moved');

    // The server enforces it as well, with the same message.
    const me = await pageFetch(page, 'GET', '/api/auth/me');
    const id = (me.body as { id: string }).id;
    const attempt = await pageFetch(page, 'PATCH', `/api/users/${id}/admin`, { isAdmin: false });
    assert.ok(
      attempt.status >= 400 && attempt.status < 500,
      `PATCH own admin flag answered ${attempt.status}`,
    );
    assert.equal((attempt.body as { message?: string }).message, Spec.cannotChangeOwnAdmin);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitFor(page, byRole('link', 'Admin Dashboard'));
  },
};

const passwordReset: Journey = {
  id: 6,
  title: 'admin password reset: mismatch, too short, then a real reset',
  topologies: TOPOLOGIES,
  async run(ctx) {
    const tag = `${ctx.runId}${ctx.topology === 'cluster' ? 'c' : 's'}`;
    const target = {
      name: `Riley Reset ${tag}`,
      username: `riley.${tag}`,
      email: `riley.${tag}@e2e.school`,
      password: 'first-pass-1',
    };
    const registered = await apiCall(ctx, 'POST', '/api/auth/register', { ...target, role: 'student' });
    assert.equal(registered.status, 201, `registering ${target.email} answered ${registered.status}`);

    const page = await signedIn(ctx, ADMIN.email);
    await openAdminUsers(page, ctx);
    await click(page, byRole('button', `Reset password for ${target.name}`));
    await waitFor(page, byRole('dialog', 'Reset Password'));
    await ctx.axe.check(page, 'reset password dialog');

    const submit = async (password: string, confirm: string) => {
      await fill(page, inDialog(byRole('textbox', 'New Password')), password);
      await fill(page, inDialog(byRole('textbox', 'Confirm Password')), confirm);
      await click(page, inDialog(byRole('button', 'Reset Password')));
    };
    await submit('secret-one', 'secret-two');
    await waitForText(page, Spec.passwordsDoNotMatch, '[role="dialog"]');
    await submit('abc', 'abc');
    await waitForText(page, Spec.passwordTooShort, '[role="dialog"]');
    const dialogText = await textOf(page, '[role="dialog"]');
    assert.ok(!dialogText.includes(Spec.passwordsDoNotMatch), 'the old error is still shown');

    await submit('brand-new-pass', 'brand-new-pass');
    await waitForToast(page, 'Password reset successfully');
    await page.waitForSelector('[role="dialog"]', { hidden: true });
    const withNew = await apiCall(ctx, 'POST', '/api/auth/login', {
      email: target.email,
      password: 'brand-new-pass',
    });
    assert.equal(withNew.status, 200, `sign-in with the new password answered ${withNew.status}`);
    const withOld = await apiCall(ctx, 'POST', '/api/auth/login', {
      email: target.email,
      password: target.password,
    });
    assert.equal(withOld.status, 401, `sign-in with the old password answered ${withOld.status}`);
    assert.equal(pathOf(page), '/admin/users');
  },
};

export const shellJourneys: readonly Journey[] = [
  visitorHome,
  signUp,
  adminApproves,
  studentDenied,
  ownAdminFlag,
  passwordReset,
];
