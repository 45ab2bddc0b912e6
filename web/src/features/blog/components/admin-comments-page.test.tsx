import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Comment } from '@district/contracts/content';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeComment } from '@/testing/content-fixtures';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

function setup(comments: Comment[]) {
  return (f: FetchStub) => f.on('GET', '/api/comments', () => ({ json: comments }));
}

const pending = () =>
  makeComment({
    authorName: 'Sam',
    content: '<p>Is ser permanent?</p>',
    status: 'pending',
    postTitle: 'Ser y estar',
  });
const approved = () =>
  makeComment({ authorName: 'Ana', content: '<p>Great lesson</p>', postTitle: 'Ser y estar' });

describe('comment moderation (spec sections 2 and 8)', { timeout: 20_000 }, () => {
  it('is for admins only', async () => {
    await renderApp('/admin/comments', { user: personas.teacher() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeInTheDocument();
  });

  it('filters All / Pending / Approved with counts', async () => {
    const { user } = await renderApp('/admin/comments', {
      user: personas.admin(),
      setup: setup([pending(), approved()]),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Comment Moderation' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'All (2)' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Great lesson')).toBeInTheDocument();
    expect(screen.getAllByText('On: Ser y estar')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Pending (1)' }));
    expect(screen.getByText('Is ser permanent?')).toBeInTheDocument();
    expect(screen.queryByText('Great lesson')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approved (1)' }));
    expect(screen.getByText('Great lesson')).toBeInTheDocument();
    expect(screen.queryByText('Is ser permanent?')).not.toBeInTheDocument();
  });

  it('approves and unapproves with PATCH status', async () => {
    const c = pending();
    const list = [c];
    const { user, fetch } = await renderApp('/admin/comments', {
      user: personas.admin(),
      setup: setup(list),
    });
    fetch.on('PATCH', `/api/comments/${c.id}/status`, (req) => {
      list[0] = { ...list[0]!, ...(req.body as { status: Comment['status'] }) };
      return { json: list[0] };
    });
    await user.click(await screen.findByRole('button', { name: /^Approve comment by Sam/ }));
    expect(await screen.findByRole('button', { name: /^Unapprove comment by Sam/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approved (1)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Unapprove comment by Sam/ }));
    expect(await screen.findByRole('button', { name: /^Approve comment by Sam/ })).toBeInTheDocument();
    expect(fetch.calls('PATCH', `/api/comments/${c.id}/status`).map((r) => r.body)).toEqual([
      { status: 'approved' },
      { status: 'pending' },
    ]);
  });

  it('deletes after confirmation and says so, or reports the failure', async () => {
    const c = approved();
    const list = [c];
    const { user, fetch } = await renderApp('/admin/comments', {
      user: personas.admin(),
      setup: setup(list),
    });
    fetch.on('DELETE', `/api/comments/${c.id}`, { status: 500, text: 'oops' });
    await user.click(await screen.findByRole('button', { name: /^Delete comment by Ana/ }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete comment')).toBeInTheDocument();
    fetch.on('DELETE', `/api/comments/${c.id}`, () => {
      list.length = 0;
      return { status: 204 };
    });
    await user.click(screen.getByRole('button', { name: /^Delete comment by Ana/ }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Comment deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Great lesson')).not.toBeInTheDocument());
  });

  it('keeps keyboard focus in the list when a comment is deleted or leaves the filter', async () => {
    const first = pending();
    const second = approved();
    const list = [first, second];
    const { user, fetch } = await renderApp('/admin/comments', {
      user: personas.admin(),
      setup: setup(list),
    });
    fetch.on('DELETE', `/api/comments/${first.id}`, () => {
      list.splice(0, 1);
      return { status: 204 };
    });
    const del = await screen.findByRole('button', { name: /^Delete comment by Sam/ });
    await user.click(del);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Is ser permanent?')).not.toBeInTheDocument());
    // The comment now in its place gets focus, not the page.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Unapprove comment by Ana/ })).toHaveFocus(),
    );
  });
});
