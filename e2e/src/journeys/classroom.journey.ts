import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import type { Journey } from '../support/harness';
import { TOPOLOGIES } from '../support/stacks';
import { byRole, click, fill, open, waitFor, waitForText, waitForToast } from '../support/ui';
import { STUDENT2, TEACHER, pageFetch, signedIn } from './shell.journey';

/**
 * Issue #13 item 11, the classroom screens. Texts from shared/spec/classroom-tools.md §2, §5, §8 (and the screens'
 * own toasts). The audio-proxy journey (a student plays a cloud-host file through /api/audio-proxy against a local
 * stand-in host) needs test-only wiring of the proxy's allow-list and resolver, so it is not here.
 */
const CLASSROOM = {
  audioListCreated: 'Audio list created successfully',
  lessonPlanCreated: 'Lesson plan created successfully',
  lessonPlanUpdated: 'Lesson plan updated successfully',
  restricted: 'Access Restricted: Only teachers and administrators can access lesson plans.',
  slideAdded: 'Google Slide added successfully',
  invalidSlidesUrl: 'Please enter a valid Google Slides URL',
  phases: [
    ['warmUp', 'Warm-Up/Hook (Engage)'],
    ['explore', 'Explore - Activating Strategy'],
    ['explain', 'Explain - Lecture/Builder'],
    ['elaborate', 'Elaborate - Instructional Activities'],
    ['evaluate', 'Evaluate - Closing/Wrap-Up'],
  ],
} as const;

/** Waits until the play button inside `scope` reports one of `states` (its data-audio-state). */
async function audioState(page: Page, scope: string, states: string[]): Promise<string> {
  const handle = await page.waitForFunction(
    (sel: string, wanted: string[]) => {
      const state = document
        .querySelector(sel)
        ?.querySelector('[data-audio-state]')
        ?.getAttribute('data-audio-state');
      return state && wanted.includes(state) ? state : false;
    },
    {},
    scope,
    states,
  );
  return (await handle.jsonValue()) as string;
}

const audioList: Journey = {
  id: 40,
  title:
    'audio lists: a teacher creates a list of the shipped Spanish audio (Test → Audio Ready), a student plays a file from it',
  topologies: TOPOLOGIES,
  timeoutMs: 120_000,
  async run(ctx) {
    const title = `Letras ${ctx.runId}`;
    const teacher = await signedIn(ctx, TEACHER.email);
    await open(teacher, ctx.baseUrl, '/audio-lists');
    await click(teacher, byRole('button', 'Create Audio List'));
    await fill(teacher, byRole('textbox', 'Title'), title);
    await fill(teacher, byRole('textbox', 'Description'), 'La A y la Ñ');
    const file = (n: number) => `[role="group"][aria-label="Audio file ${n}"]`;
    // Saving without a file is refused with the spec's alert.
    await click(teacher, byRole('button', 'Save List'));
    await waitForText(teacher, 'Please provide a title and at least one audio file.');
    await fill(teacher, `${file(1)} ${byRole('textbox', 'Name')}`, 'Letra A');
    await fill(teacher, `${file(1)} ${byRole('textbox', 'URL')}`, '/sounds/spanish/a.mp3');
    await click(teacher, byRole('button', 'Add Audio File'));
    await fill(teacher, `${file(2)} ${byRole('textbox', 'Name')}`, 'Letra Ñ');
    await fill(teacher, `${file(2)} ${byRole('textbox', 'URL')}`, '/sounds/spanish/%C3%B1.mp3');
    await click(teacher, byRole('button', 'Test audio file 1'));
    await waitForText(teacher, 'Audio Ready', file(1));
    await ctx.axe.check(teacher, 'audio list form');
    await click(teacher, byRole('button', 'Save List'));
    await waitForToast(teacher, CLASSROOM.audioListCreated);
    await waitFor(teacher, byRole('heading', title));
    await ctx.axe.check(teacher, 'audio lists (teacher)');

    const student = await signedIn(ctx, STUDENT2.email);
    await open(student, ctx.baseUrl, '/audio-lists');
    await waitFor(student, byRole('heading', title));
    assert.equal(
      await student.$(byRole('button', 'Create Audio List')),
      null,
      'a student is not offered Create',
    );
    assert.equal(await student.$(byRole('button', `Edit ${title}`)), null, 'a student is not offered Edit');
    const play = `[aria-label="Files of ${title}"] [role="group"][aria-label="Play Letra Ñ"]`;
    await audioState(student, play, ['ready']);
    await ctx.axe.check(student, 'audio lists (student)');
    await click(student, `${play} button`);
    assert.ok(
      ['playing', 'ended'].includes(await audioState(student, play, ['playing', 'ended', 'error'])),
      'the file plays',
    );
    const listed = await pageFetch(student, 'GET', '/api/audio-lists');
    const mine = (listed.body as Array<{ title: string; canEdit: boolean }>).find((l) => l.title === title);
    assert.equal(mine?.canEdit, false, 'the server does not let the student edit the teacher’s list');
  },
};

const proxiedAudio: Journey = {
  id: 44,
  title:
    'audio proxy: a teacher lists a file on a cloud host (a local stand-in), a student plays it through /api/audio-proxy; the proxy keeps the site’s cookies from the host and the host’s from the browser, and refuses loopback',
  topologies: TOPOLOGIES,
  timeoutMs: 120_000,
  async run(ctx) {
    const standIn = ctx.stack.audioStandIn;
    const title = `Nube ${ctx.runId}`;
    const link = standIn.link('buenos-dias.mp3');
    const teacher = await signedIn(ctx, TEACHER.email);
    await open(teacher, ctx.baseUrl, '/audio-lists');
    await click(teacher, byRole('button', 'Create Audio List'));
    await fill(teacher, byRole('textbox', 'Title'), title);
    const file = `[role="group"][aria-label="Audio file 1"]`;
    await fill(teacher, `${file} ${byRole('textbox', 'Name')}`, 'Buenos días');
    await fill(teacher, `${file} ${byRole('textbox', 'URL')}`, link);
    await click(teacher, byRole('button', 'Save List'));
    await waitForToast(teacher, CLASSROOM.audioListCreated);

    const before = standIn.seen.length;
    const student = await signedIn(ctx, STUDENT2.email);
    await open(student, ctx.baseUrl, '/audio-lists');
    await waitFor(student, byRole('heading', title));
    const play = `[aria-label="Files of ${title}"] [role="group"][aria-label="Play Buenos días"]`;
    // The browser cannot reach the stand-in's name (only the proxy resolves it): a file that plays came through the site.
    await click(student, `${play} button`);
    assert.ok(
      ['playing', 'ended'].includes(await audioState(student, play, ['playing', 'ended', 'error'])),
      'the cloud file plays',
    );
    const asked = standIn.seen.slice(before);
    assert.ok(asked.length > 0, 'the stand-in host was asked for the file');
    for (const r of asked) {
      assert.equal(r.url, '/s/e2e/buenos-dias.mp3');
      assert.equal(r.headers.cookie, undefined, 'no cookie of the site reaches the cloud host');
    }
    const fetched = await student.evaluate(async (u: string) => {
      const res = await fetch(`/api/audio-proxy?url=${encodeURIComponent(u)}`, {
        headers: { range: 'bytes=0-99' },
      });
      await res.arrayBuffer();
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        range: res.headers.get('content-range'),
        cookie: res.headers.get('set-cookie'),
      };
    }, link);
    assert.deepEqual(
      { ...fetched, range: fetched.range?.replace(/\/\d+$/, '') },
      { status: 206, type: 'audio/mpeg', range: 'bytes 0-99', cookie: null },
    );

    // The same server by its address, or a name off the list, is refused; so is a visitor.
    const direct = await pageFetch(
      student,
      'GET',
      `/api/audio-proxy?url=${encodeURIComponent(`http://127.0.0.1:${standIn.port}/s/e2e/hola.mp3`)}`,
    );
    assert.ok(direct.status >= 400 && direct.status < 500, `a loopback link answered ${direct.status}`);
    const anonymous = await fetch(`${ctx.baseUrl}/api/audio-proxy?url=${encodeURIComponent(link)}`);
    assert.equal(anonymous.status, 401);
  },
};

const lessonPlan: Journey = {
  id: 41,
  title:
    'lesson plans: a teacher writes a plan with all five phases, edits it and prints it (printable page only in print)',
  topologies: TOPOLOGIES,
  timeoutMs: 120_000,
  async run(ctx) {
    const title = `Los saludos ${ctx.runId}`;
    const teacher = await signedIn(ctx, TEACHER.email);
    await open(teacher, ctx.baseUrl, '/lesson-plans');
    await click(teacher, byRole('button', 'Create New Lesson Plan'));
    const form = 'form[aria-label="Create lesson plan"]';
    await waitFor(teacher, form);
    await fill(teacher, byRole('textbox', 'Lesson Title'), title);
    await fill(teacher, byRole('textbox', 'Subject'), 'Spanish I');
    await fill(teacher, byRole('textbox', 'Topic/Unit'), 'Unidad 1');
    await fill(teacher, byRole('textbox', 'Standards'), 'ACTFL Interpersonal');
    await fill(teacher, byRole('textbox', 'I Can Statements'), 'I can greet someone');
    await fill(teacher, byRole('textbox', 'Academic Vocabulary'), 'hola, adiós');
    await fill(teacher, byRole('textbox', 'Higher-Order/DOK Questions'), '¿Tú o usted?');
    for (const [i, [key, label]] of CLASSROOM.phases.entries()) {
      const scope = `fieldset[data-phase="${key}"]`;
      await fill(teacher, `${scope} ${byRole('textbox', 'Time Allotted')}`, `${10 + i} mins`);
      await fill(teacher, `${scope} ${byRole('textbox', 'Teacher Will')}`, `Teacher ${label}`);
      await fill(teacher, `${scope} ${byRole('textbox', 'Students Will')}`, `Students ${label}`);
      if (key !== 'evaluate') await click(teacher, `${scope} ${byRole('checkbox', 'Guided Practice')}`);
      else
        assert.equal(
          await teacher.$(`${scope} input[type="checkbox"]`),
          null,
          'Evaluate has no instruction types',
        );
    }
    await fill(teacher, byRole('textbox', 'Evaluation (Check for Understanding)'), 'Exit ticket');
    await fill(teacher, byRole('textbox', 'Reflection'), 'Primera versión');
    await ctx.axe.check(teacher, 'lesson plan form');
    await click(teacher, byRole('button', 'Create Plan'));
    await waitForToast(teacher, CLASSROOM.lessonPlanCreated);
    await waitFor(teacher, byRole('heading', title));
    await ctx.axe.check(teacher, 'lesson plans');

    await click(teacher, byRole('button', `Edit ${title}`));
    await waitFor(teacher, 'form[aria-label="Edit lesson plan"]');
    await fill(teacher, byRole('textbox', 'Reflection'), 'Segunda versión');
    await click(teacher, byRole('button', 'Update Plan'));
    await waitForToast(teacher, CLASSROOM.lessonPlanUpdated);
    const plans = await pageFetch(teacher, 'GET', '/api/lesson-plans');
    const saved = (plans.body as Array<Record<string, unknown>>).find((p) => p.title === title);
    assert.ok(saved, 'the plan is stored');
    assert.equal(saved.reflection, 'Segunda versión');
    assert.equal(saved.totalTime, '90 mins');
    assert.deepEqual((saved.explain as { instructionTypes: string[] }).instructionTypes, ['Guided Practice']);
    assert.equal(
      (saved.evaluate as { teacherWill: string }).teacherWill,
      'Teacher Evaluate - Closing/Wrap-Up',
    );

    // Print: the browser's print is counted instead of opening a dialog.
    await teacher.evaluate(() => {
      const w = window as unknown as { printed: number; print: () => void };
      w.printed = 0;
      w.print = () => {
        w.printed += 1;
      };
    });
    await click(teacher, byRole('button', `Print ${title}`));
    await waitFor(teacher, byRole('dialog', title));
    assert.equal(
      await teacher.evaluate(() => (window as unknown as { printed: number }).printed),
      1,
      'print was called',
    );
    for (const [, label] of CLASSROOM.phases)
      await waitForText(teacher, `Students ${label}`, '.lesson-plan-print');
    await waitForText(teacher, 'Segunda versión', '.lesson-plan-print');
    await ctx.axe.check(teacher, 'printable lesson plan');
    await teacher.emulateMediaType('print');
    const shown = await teacher.evaluate(() =>
      Array.from(document.body.children)
        .filter((el) => getComputedStyle(el).display !== 'none')
        .map((el) => el.className),
    );
    await teacher.emulateMediaType(undefined);
    assert.deepEqual(shown.length, 1, `only the printable page is printed (found ${shown.join(' | ')})`);
    assert.ok(shown[0]?.includes('lesson-plan-print'));
    await click(teacher, byRole('button', 'Close'));
    await teacher.waitForSelector('.lesson-plan-print', { hidden: true });
  },
};

const lessonPlansRefused: Journey = {
  id: 42,
  title: 'lesson plans: a student is refused, on the screen and by the server',
  topologies: TOPOLOGIES,
  async run(ctx) {
    const student = await signedIn(ctx, STUDENT2.email);
    await open(student, ctx.baseUrl, '/lesson-plans');
    await waitForText(student, CLASSROOM.restricted);
    assert.equal(await student.$(byRole('button', 'Create New Lesson Plan')), null);
    await ctx.axe.check(student, 'lesson plans (student)');
    const listed = await pageFetch(student, 'GET', '/api/lesson-plans');
    assert.equal(listed.status, 403, `GET /api/lesson-plans answered ${listed.status} to a student`);
    const created = await pageFetch(student, 'POST', '/api/lesson-plans', { title: 'Mine' });
    assert.equal(created.status, 403, `POST /api/lesson-plans answered ${created.status} to a student`);
  },
};

const slides: Journey = {
  id: 43,
  title:
    'google slides: a teacher adds a slide by a normal and (private) by a published link, the previews carry the derived embed URLs; a student sees only the public one',
  topologies: TOPOLOGIES,
  timeoutMs: 120_000,
  async run(ctx) {
    const id = `1Ab-${ctx.runId.replace(/[^A-Za-z0-9]/g, '')}_x`;
    const pub = `2PACX-1v${ctx.runId.replace(/[^A-Za-z0-9]/g, '')}`;
    const normal = {
      title: `Los colores ${ctx.runId}`,
      url: `https://docs.google.com/presentation/d/${id}/edit?usp=sharing`,
    };
    const published = {
      title: `Examen ${ctx.runId}`,
      url: `https://docs.google.com/presentation/d/e/${pub}/pub?start=true&loop=true&delayms=5000`,
    };
    const params = 'start=false&loop=false&delayms=3000';

    const teacher = await signedIn(ctx, TEACHER.email);
    await open(teacher, ctx.baseUrl, '/google-slides');
    await click(teacher, byRole('button', 'Add Google Slides'));
    await fill(teacher, byRole('textbox', 'Title'), normal.title);
    await fill(
      teacher,
      byRole('textbox', 'Google Slides URL'),
      'https://example.com/presentation/d/abc/edit',
    );
    await click(teacher, byRole('button', 'Add Slide'));
    await waitForText(teacher, CLASSROOM.invalidSlidesUrl);
    await fill(teacher, byRole('textbox', 'Google Slides URL'), normal.url);
    await fill(teacher, byRole('textbox', 'Tags'), 'colores, unidad 2');
    await fill(teacher, byRole('textbox', 'Category'), 'Vocabulario');
    await ctx.axe.check(teacher, 'google slides form');
    await click(teacher, byRole('button', 'Add Slide'));
    await waitForToast(teacher, CLASSROOM.slideAdded);

    await click(teacher, byRole('button', 'Add Google Slides'));
    await fill(teacher, byRole('textbox', 'Title'), published.title);
    await fill(teacher, byRole('textbox', 'Google Slides URL'), published.url);
    await click(teacher, byRole('checkbox', 'Public (visible to students)'));
    await click(teacher, byRole('button', 'Add Slide'));
    await waitForToast(teacher, CLASSROOM.slideAdded);

    const frameSrc = (page: Page, title: string) =>
      page.$eval(`iframe[title="Preview of ${title}"]`, (f) => f.getAttribute('src'));
    await waitFor(teacher, `iframe[title="Preview of ${published.title}"]`);
    assert.equal(
      await frameSrc(teacher, normal.title),
      `https://docs.google.com/presentation/d/${id}/embed?${params}`,
    );
    assert.equal(
      await frameSrc(teacher, published.title),
      `https://docs.google.com/presentation/d/e/${pub}/embed?${params}`,
    );
    const sandbox = await teacher.$eval(`iframe[title="Preview of ${normal.title}"]`, (f) => [
      f.getAttribute('sandbox'),
      (f as HTMLElement).getBoundingClientRect().height,
    ]);
    assert.deepEqual(sandbox, [
      'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox',
      200,
    ]);
    await ctx.axe.check(teacher, 'google slides (teacher)');

    const student = await signedIn(ctx, STUDENT2.email);
    await open(student, ctx.baseUrl, '/google-slides');
    await waitFor(student, byRole('heading', normal.title));
    assert.equal(
      await student.$(byRole('heading', published.title)),
      null,
      'the private slide is not shown to a student',
    );
    assert.equal(
      await student.$(byRole('button', 'Add Google Slides')),
      null,
      'a student is not offered Add',
    );
    const listed = await pageFetch(student, 'GET', '/api/google-slides');
    const titles = (listed.body as Array<{ title: string; isPublic: boolean }>).map((s) => s.title);
    assert.ok(
      titles.includes(normal.title) && !titles.includes(published.title),
      'the server gives the student only public slides',
    );
    await ctx.axe.check(student, 'google slides (student)');
  },
};

export const classroomJourneys: readonly Journey[] = [
  audioList,
  lessonPlan,
  lessonPlansRefused,
  slides,
  proxiedAudio,
];
