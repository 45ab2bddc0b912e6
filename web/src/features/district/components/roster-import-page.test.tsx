import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RosterMessages, type RosterImport } from '@district/contracts/identity';
import { deferred } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeImport } from '../district.fixtures.testing';

configure({ asyncUtilTimeout: 5000 });

const IMPORTS = '/api/admin/roster/imports';
const zip = () => new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'roster.zip', { type: 'application/zip' });

async function openPage(history: RosterImport[] = []) {
  const app = await renderApp('/admin/roster', {
    user: personas.admin(),
    setup: (f) => f.on('GET', IMPORTS, () => ({ json: history })),
  });
  await screen.findByRole('heading', { level: 1, name: 'Roster Import' });
  return app;
}

describe('roster import (issue #36)', { timeout: 20_000 }, () => {
  it('shows the loading history, then the empty state', async () => {
    const answer = deferred<{ json: unknown }>();
    await renderApp('/admin/roster', {
      user: personas.admin(),
      setup: (f) => f.on('GET', IMPORTS, () => answer.promise),
    });
    expect(await screen.findByText('Loading the import history…')).toBeInTheDocument();
    answer.resolve({ json: [] });
    expect(await screen.findByText('No imports yet.')).toBeInTheDocument();
  });

  it('shows a failed history with Try again, which asks again', async () => {
    let calls = 0;
    const { user } = await renderApp('/admin/roster', {
      user: personas.admin(),
      setup: (f) =>
        f.on('GET', IMPORTS, () => {
          calls += 1;
          return calls <= 2
            ? { status: 500, text: 'boom' }
            : { json: [makeImport({ fileName: 'fall.zip' })] };
        }),
    });
    expect(await screen.findByText('Failed to load the import history')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('fall.zip')).toBeInTheDocument();
  });

  it('asks for a file before uploading, and shows a refused zip in the server’s words', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, fetch } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(RosterMessages.noFile)).toBeInTheDocument();
    expect(fetch.calls('POST', IMPORTS)).toHaveLength(0);

    fetch.on('POST', IMPORTS, { status: 400, json: { statusCode: 400, message: RosterMessages.notAZip } });
    await user.upload(screen.getByLabelText('OneRoster CSV zip'), zip());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(RosterMessages.notAZip)).toBeInTheDocument();
    expect(fetch.calls('POST', IMPORTS)).toHaveLength(1);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('uploads, follows the progress every second to done, then lists the skipped rows and their CSV', async () => {
    const { user, fetch } = await openPage();
    const base = makeImport({ fileName: 'roster.zip' });
    const errors = [
      { file: 'users.csv', line: 3, field: 'email', message: 'duplicate email' },
      { file: 'enrollments.csv', line: 7, field: 'userSourcedId', message: 'skipped: the user was skipped' },
    ];
    const states: RosterImport[] = [
      { ...base, status: 'queued' },
      { ...base, status: 'running', total: 200, processed: 50, created: 40 },
      {
        ...base,
        status: 'done',
        total: 200,
        processed: 200,
        created: 180,
        updated: 12,
        deactivated: 6,
        errorCount: 2,
        errors,
        finishedAt: '2026-12-07T10:01:00.000Z',
      },
    ];
    let polls = 0;
    let history: RosterImport[] = [];
    fetch.on('POST', IMPORTS, () => {
      history = [{ ...base }];
      return { status: 202, json: { id: base.id, status: 'queued' } };
    });
    fetch.on('GET', `${IMPORTS}/${base.id}`, () => {
      const state = states[Math.min(polls, states.length - 1)];
      polls += 1;
      if (state.status === 'done') history = [state];
      return { json: state };
    });
    fetch.on('GET', IMPORTS, () => ({ json: history }));

    await user.upload(screen.getByLabelText('OneRoster CSV zip'), zip());
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    const bar = await screen.findByRole('progressbar', { name: 'Rows processed' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    expect(bar).toHaveAttribute('aria-valuemax', '200');
    expect(bar).toHaveAttribute('aria-valuetext', '25%');

    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '200'));
    expect(await screen.findByText('Import finished: 2 rows were skipped.')).toBeInTheDocument();
    const counts = within(screen.getByLabelText('Import counts'));
    expect(counts.getByText('Created').nextElementSibling).toHaveTextContent('180');
    expect(counts.getByText('Updated').nextElementSibling).toHaveTextContent('12');
    expect(counts.getByText('Deactivated').nextElementSibling).toHaveTextContent('6');
    expect(counts.getByText('Errors').nextElementSibling).toHaveTextContent('2');

    const table = screen.getByRole('table', { name: 'Rows skipped by the import' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['users.csv', '3', 'email', 'duplicate email'],
      ['enrollments.csv', '7', 'userSourcedId', 'skipped: the user was skipped'],
    ]);
    expect(screen.getByRole('link', { name: 'Download errors (CSV)' })).toHaveAttribute(
      'href',
      `${IMPORTS}/${base.id}/errors.csv`,
    );
    // Polling stops once the import is over, and the history shows its result.
    const asked = polls;
    await new Promise((r) => setTimeout(r, 1_300));
    expect(polls).toBe(asked);
    const historyTable = await screen.findByRole('table', { name: 'Roster imports, newest first' });
    await waitFor(() => expect(within(historyTable).getByText('Done')).toBeInTheDocument());
  });

  it('shows a failed import with its reason, and an earlier import from the history', async () => {
    const failed = makeImport({
      fileName: 'old.zip',
      status: 'failed',
      failure: RosterMessages.interrupted,
    });
    const { user, fetch } = await openPage([failed]);
    fetch.on('GET', `${IMPORTS}/${failed.id}`, { json: failed });
    await user.click(await screen.findByRole('button', { name: /^Show the import of old\.zip/ }));
    expect(await screen.findByText(RosterMessages.interrupted)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'old.zip' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download errors (CSV)' })).not.toBeInTheDocument();
  });

  it('is for district administrators only', async () => {
    await renderApp('/admin/roster', { user: personas.teacher() });
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
  });
});
