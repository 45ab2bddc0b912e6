import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Post } from '@district/contracts/content';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makePost } from '@/testing/content-fixtures';
import { adminExcerpt } from './admin-posts-page';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

function setup(posts: Post[]) {
  return (f: FetchStub) => f.on('GET', '/api/posts', () => ({ json: posts }));
}

describe('admin posts (spec sections 2, 8 and 9)', { timeout: 20_000 }, () => {
  it('cuts the card excerpt to 100 characters', () => {
    const long = 'a'.repeat(150);
    expect(adminExcerpt({ excerpt: long, content: '' })).toBe(`${'a'.repeat(100)}…`);
    expect(adminExcerpt({ excerpt: 'short', content: '' })).toBe('short');
    expect(adminExcerpt({ excerpt: '', content: '<p>From the <b>text</b></p>' })).toBe('From the text');
  });

  it('lists every post as a card with Edit, Publish/Unpublish and Delete', async () => {
    const draft = makePost({ title: 'Draft lesson', status: 'draft', excerpt: 'x'.repeat(120) });
    const live = makePost({ title: 'Live lesson' });
    await renderApp('/admin/posts', { user: personas.admin(), setup: setup([draft, live]) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Post Management' })).toBeInTheDocument();
    expect(await screen.findByText(`${'x'.repeat(100)}…`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Draft lesson' })).toHaveAttribute(
      'href',
      `/admin/posts/edit/${draft.id}`,
    );
    expect(screen.getByRole('button', { name: 'Publish Draft lesson' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unpublish Live lesson' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Live lesson' })).toBeInTheDocument();
  });

  it('publishes and unpublishes with PATCH status', async () => {
    const draft = makePost({ title: 'Draft lesson', status: 'draft' });
    const posts = [draft];
    const { user, fetch } = await renderApp('/admin/posts', { user: personas.admin(), setup: setup(posts) });
    fetch.on('PATCH', `/api/posts/${draft.id}/status`, (req) => {
      posts[0] = { ...draft, ...(req.body as object) };
      return { json: posts[0] };
    });
    await user.click(await screen.findByRole('button', { name: 'Publish Draft lesson' }));
    expect(await screen.findByRole('button', { name: 'Unpublish Draft lesson' })).toBeInTheDocument();
    expect(fetch.calls('PATCH', `/api/posts/${draft.id}/status`)[0]?.body).toEqual({ status: 'published' });
  });

  it('deletes after the confirmation and says so', async () => {
    const post = makePost({ title: 'Old lesson' });
    const { user, fetch } = await renderApp('/admin/posts', { user: personas.admin(), setup: setup([post]) });
    fetch.on('DELETE', `/api/posts/${post.id}`, { status: 204 });
    await user.click(await screen.findByRole('button', { name: 'Delete Old lesson' }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure you want to delete this post?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetch.calls('DELETE', `/api/posts/${post.id}`)).toHaveLength(0);
    fetch.on('GET', '/api/posts', { json: [] });
    await user.click(screen.getByRole('button', { name: 'Delete Old lesson' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Post deleted successfully')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Delete Old lesson' })).not.toBeInTheDocument(),
    );
  });

  it("reports 'Failed to delete post' when the server refuses", async () => {
    const post = makePost({ title: 'Old lesson' });
    const { user, fetch } = await renderApp('/admin/posts', { user: personas.admin(), setup: setup([post]) });
    fetch.on('DELETE', `/api/posts/${post.id}`, {
      status: 500,
      json: { statusCode: 500, message: 'Internal' },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Old lesson' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete post')).toBeInTheDocument();
  });

  it("reports 'Error deleting post' when the request never completes", async () => {
    const post = makePost({ title: 'Old lesson' });
    const { user, fetch } = await renderApp('/admin/posts', { user: personas.admin(), setup: setup([post]) });
    fetch.on('DELETE', `/api/posts/${post.id}`, () => Promise.reject(new TypeError('Failed to fetch')));
    await user.click(await screen.findByRole('button', { name: 'Delete Old lesson' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Error deleting post')).toBeInTheDocument();
  });
});
