import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RosterMessages } from '@district/contracts/identity';
import { deferred, type Reply } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeClass, makeClassDetail, makeSchool } from '../district.fixtures.testing';

configure({ asyncUtilTimeout: 4000 });

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('schools (issue #36)', () => {
  it('lists the schools with their class counts and links to each school’s classes', async () => {
    const lincoln = makeSchool({ name: 'Lincoln Elementary', classCount: 12 });
    const other = makeSchool({ name: 'Roosevelt High', identifier: null, classCount: 0, active: false });
    await renderApp('/admin/schools', {
      user: personas.admin(),
      setup: (f) => f.on('GET', '/api/schools', { json: [lincoln, other] }),
    });
    const table = await screen.findByRole('table', { name: 'Schools' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(cells(rows[0]).slice(0, 4)).toEqual(['Lincoln Elementary', 'LIN', '12', 'Active']);
    expect(cells(rows[1]).slice(0, 4)).toEqual(['Roosevelt High', '—', '0', 'Inactive']);
    expect(within(table).getByRole('link', { name: 'Classes of Lincoln Elementary' })).toHaveAttribute(
      'href',
      `/admin/classes?schoolId=${lincoln.id}`,
    );
  });

  it('shows loading, then the empty state; a failure offers Try again', async () => {
    const answer = deferred<{ json: unknown }>();
    let calls = 0;
    const first = await renderApp('/admin/schools', {
      user: personas.admin(),
      setup: (f) =>
        f.on('GET', '/api/schools', () => {
          calls += 1;
          return calls === 1 ? answer.promise : { json: [] };
        }),
    });
    expect(await screen.findByText('Loading schools…')).toBeInTheDocument();
    answer.resolve({ json: [] });
    expect(await screen.findByText(/No schools yet/)).toBeInTheDocument();
    first.unmount();

    await renderApp('/schools', {
      user: personas.teacher(),
      setup: (f) => f.on('GET', '/api/schools', { status: 403, json: { message: 'Forbidden' } }),
    });
    expect(await screen.findByText('Failed to load schools')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Try again' }).length).toBeGreaterThan(0);
  });

  it('a school administrator’s links stay under /schools, and only for the schools they manage', async () => {
    const mine = makeSchool({ name: 'Lincoln Elementary' });
    const taught = makeSchool({ name: 'Roosevelt High', canManage: false });
    await renderApp('/schools', {
      user: personas.teacher(),
      setup: (f) => f.on('GET', '/api/schools', { json: [mine, taught] }),
    });
    const table = await screen.findByRole('table', { name: 'Schools' });
    expect(within(table).getByRole('link', { name: 'Classes of Lincoln Elementary' })).toHaveAttribute(
      'href',
      `/schools/classes?schoolId=${mine.id}`,
    );
    expect(within(table).queryByRole('link', { name: 'Classes of Roosevelt High' })).not.toBeInTheDocument();
  });

  it('the admin pages are for district administrators', async () => {
    await renderApp('/admin/schools', { user: personas.teacher() });
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
  });
});

describe('classes (issue #36)', () => {
  it('pages a school’s classes on the server: the count, Load more with the cursor', async () => {
    const lincoln = makeSchool({ name: 'Lincoln Elementary' });
    const roosevelt = makeSchool({ name: 'Roosevelt High' });
    const first = Array.from({ length: 3 }, (_, i) => makeClass({ title: `Class ${i + 1}` }));
    const second = [makeClass({ title: 'Class 4', active: false })];
    const { user, fetch, router } = await renderApp('/admin/classes', {
      user: personas.admin(),
      setup: (f) => {
        f.on('GET', '/api/schools', { json: [lincoln, roosevelt] });
        f.on('GET', '/api/classes', (req): Reply => {
          const q = new URLSearchParams(req.path.split('?')[1]);
          if (q.get('schoolId') !== roosevelt.id) return { json: [] };
          return q.get('cursor') === 'page-2'
            ? { json: second, headers: { 'X-Total-Count': '4' } }
            : { json: first, headers: { 'X-Total-Count': '4', 'X-Next-Cursor': 'page-2' } };
        });
      },
    });
    expect(await screen.findByText('Choose a school to see its classes.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('School'), 'Roosevelt High');
    expect(router.state.location.search).toBe(`?schoolId=${roosevelt.id}`);
    const table = await screen.findByRole('table', { name: 'Classes of Roosevelt High' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(screen.getByText('Showing 3 of 4')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Class 1' })).toHaveAttribute(
      'href',
      `/classes/${first[0].id}`,
    );
    await user.click(screen.getByRole('button', { name: 'Load more classes' }));
    expect(await within(table).findByRole('link', { name: 'Class 4' })).toBeInTheDocument();
    expect(screen.getByText('Showing 4 of 4')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more classes' })).not.toBeInTheDocument();
    expect(within(table).getByText('Ended')).toBeInTheDocument();
    const asked = fetch.calls('GET', '/api/classes').map((r) => r.path);
    expect(asked).toContain(`/api/classes?schoolId=${roosevelt.id}`);
    expect(asked).toContain(`/api/classes?schoolId=${roosevelt.id}&cursor=page-2`);
  });

  it('a school administrator of one school sees its classes at once; an empty school says so', async () => {
    const mine = makeSchool({ name: 'Lincoln Elementary' });
    await renderApp('/schools/classes', {
      user: personas.teacher(),
      setup: (f) => {
        f.on('GET', '/api/schools', { json: [mine, makeSchool({ canManage: false })] });
        f.on('GET', '/api/classes', { json: [], headers: { 'X-Total-Count': '0' } });
      },
    });
    expect(await screen.findByText('This school has no classes.')).toBeInTheDocument();
    expect(screen.getByLabelText('School')).toHaveValue(mine.id);
  });
});

describe('a class and my classes (issue #36)', () => {
  it('a teacher’s My Classes lists their classes, and a class shows its roster, grades and results zip', async () => {
    const detail = makeClassDetail({ title: 'Spanish 1 - Period 2' });
    const { user } = await renderApp('/classes', {
      user: personas.teacher(),
      setup: (f) => {
        f.on('GET', '/api/classes', { json: [makeClass({ id: detail.id, title: detail.title })] });
        f.on('GET', `/api/classes/${detail.id}`, { json: detail });
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'My Classes' })).toBeInTheDocument();
    await user.click(await screen.findByRole('link', { name: 'Spanish 1 - Period 2' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Spanish 1 - Period 2' }),
    ).toBeInTheDocument();
    const students = screen.getByRole('table', { name: 'Students' });
    expect(within(students).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['Sam Student', 'sam@district.test'],
      ['Ana Alumna', 'ana@district.test'],
    ]);
    expect(screen.getByRole('heading', { level: 2, name: 'Teachers (1)' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Quiz grades' })).toHaveAttribute(
      'href',
      `/admin/quiz-grades-dashboard?classId=${detail.id}`,
    );
    expect(screen.getByRole('link', { name: 'Text quiz grades' })).toHaveAttribute(
      'href',
      `/admin/text-quiz-grades-dashboard?classId=${detail.id}`,
    );
    expect(screen.getByRole('link', { name: 'Download results (OneRoster zip)' })).toHaveAttribute(
      'href',
      `/api/classes/${detail.id}/results.zip`,
    );
  });

  it('a student sees their classes and a roster without emails or grade links', async () => {
    const detail = makeClassDetail({
      teachers: [{ id: '00000000-0000-4000-8000-7e0000000099', name: 'Tia Teacher' }],
      students: [{ id: '00000000-0000-4000-8000-570000000099', name: 'Sam Student' }],
    });
    await renderApp(`/classes/${detail.id.toUpperCase()}`, {
      user: personas.student(),
      setup: (f) => f.on('GET', `/api/classes/${detail.id}`, { json: detail }),
    });
    const students = await screen.findByRole('table', { name: 'Students' });
    expect(within(students).getAllByRole('row').slice(1).map(cells)).toEqual([['Sam Student']]);
    expect(screen.queryByRole('link', { name: 'Quiz grades' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Download results/ })).not.toBeInTheDocument();
  });

  it('My Classes: loading, empty, and a class not found', async () => {
    const answer = deferred<{ json: unknown }>();
    const first = await renderApp('/classes', {
      user: personas.student(),
      setup: (f) => f.on('GET', '/api/classes', () => answer.promise),
    });
    expect(await screen.findByText('Loading your classes…')).toBeInTheDocument();
    answer.resolve({ json: [] });
    expect(await screen.findByText('You are not in any class yet.')).toBeInTheDocument();
    first.unmount();

    await renderApp('/classes/00000000-0000-4000-8000-c10000000404', {
      user: personas.student(),
      setup: (f) =>
        f.on('GET', /^\/api\/classes\/.+/, {
          status: 404,
          json: { statusCode: 404, message: RosterMessages.classNotFound },
        }),
    });
    expect(await screen.findByText(RosterMessages.classNotFound)).toBeInTheDocument();
  });
});

describe('navigation (issue #36)', () => {
  const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

  it('shows My Classes to someone with classes and Schools to a school administrator', async () => {
    await renderApp('/', {
      user: personas.teacher(),
      setup: (f) => {
        f.on('GET', '/api/classes', { json: [makeClass()] });
        f.on('GET', '/api/schools', { json: [makeSchool({ canManage: true })] });
      },
    });
    expect(await nav().findByRole('link', { name: 'My Classes' })).toHaveAttribute('href', '/classes');
    expect(await nav().findByRole('link', { name: 'Schools' })).toHaveAttribute('href', '/schools');
  });

  it('adds nothing where the installation has no classes and no school (the spec’s one-school site)', async () => {
    const { fetch } = await renderApp('/', {
      user: personas.teacher(),
      setup: (f) => {
        f.on('GET', '/api/classes', { json: [] });
        f.on('GET', '/api/schools', { json: [] });
      },
    });
    await waitFor(() => expect(fetch.calls('GET', '/api/schools')).toHaveLength(1));
    await waitFor(() => expect(fetch.calls('GET', '/api/classes')).toHaveLength(1));
    expect(nav().queryByRole('link', { name: 'My Classes' })).not.toBeInTheDocument();
    expect(nav().queryByRole('link', { name: 'Schools' })).not.toBeInTheDocument();
  });

  it('a student is not asked for schools; the district administrator’s links are on the dashboard', async () => {
    const student = await renderApp('/', {
      user: personas.student(),
      setup: (f) => f.on('GET', '/api/classes', { json: [makeClass()] }),
    });
    expect(await nav().findByRole('link', { name: 'My Classes' })).toBeInTheDocument();
    expect(student.fetch.calls('GET', '/api/schools')).toHaveLength(0);
    student.unmount();

    await renderApp('/admin', {
      user: personas.admin(),
      setup: (f) => f.on('GET', '/api/users', { json: [] }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
    expect(screen.getByRole('link', { name: /^Schools/ })).toHaveAttribute('href', '/admin/schools');
    expect(screen.getByRole('link', { name: /^Roster Import/ })).toHaveAttribute('href', '/admin/roster');
  });
});
