import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ContentMessages, type Comment, type Post } from '@district/contracts/content';
import { IdentityMessages } from '@district/contracts/identity';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeComment, makePost } from '@/testing/content-fixtures';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

function setup(post: Post, comments: Comment[] = []) {
  return (f: FetchStub) => {
    f.on('GET', `/api/posts/public/${post.slug}`, { json: post });
    f.on('GET', `/api/posts/${post.id}/comments`, { json: comments });
  };
}

const lesson = () =>
  makePost({
    slug: 'ser-y-estar',
    title: 'Ser y estar',
    tags: ['verbs', 'grammar'],
    readTime: 4,
    content: '<p>Ser is <strong>permanent</strong>.</p>',
  });

describe('post page (spec sections 2, 5 and 8)', { timeout: 20_000 }, () => {
  it('needs a signed-in user', async () => {
    await renderApp('/blog/ser-y-estar', { user: null });
    expect(
      await screen.findByRole('heading', { level: 1, name: IdentityMessages.authenticationRequired }),
    ).toBeInTheDocument();
  });

  it('shows title, tags, read time and the content, fetched with the cache bypassed', async () => {
    const post = lesson();
    const { fetch } = await renderApp('/blog/ser-y-estar', { user: personas.pending(), setup: setup(post) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ser y estar' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['#verbs', '#grammar']);
    expect(screen.getByText('4 min read')).toBeInTheDocument();
    expect(screen.getByText('permanent').tagName).toBe('STRONG');
    expect(screen.queryByRole('button', { name: 'Edit Post' })).not.toBeInTheDocument();
    await waitFor(() => expect(fetch.calls('GET', '/api/posts/public/ser-y-estar')).toHaveLength(1));
  });

  it('shows the spec text for a missing post', async () => {
    await renderApp('/blog/nope', {
      user: personas.student(),
      setup: (f) =>
        f.on('GET', '/api/posts/public/nope', {
          status: 404,
          json: { statusCode: 404, message: 'Post not found' },
        }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Post Not Found' })).toBeInTheDocument();
    expect(
      screen.getByText("The blog post you're looking for doesn't exist or has been removed."),
    ).toBeInTheDocument();
  });

  it('shows comments with one level of replies and labels own pending ones', async () => {
    const post = lesson();
    const top = makeComment({ postId: post.id, authorName: 'Ana', content: '<p>Great lesson</p>' });
    top.replies = [
      makeComment({ postId: post.id, parentId: top.id, authorName: 'Tia', content: '<p>Thanks!</p>' }),
    ];
    const mine = makeComment({
      postId: post.id,
      authorName: 'Sam Student',
      content: '<p>Question</p>',
      status: 'pending',
      own: true,
    });
    await renderApp('/blog/ser-y-estar', { user: personas.student(), setup: setup(post, [top, mine]) });
    expect(await screen.findByText('Great lesson')).toBeInTheDocument();
    expect(screen.getByText('Thanks!')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Comments (3)' })).toBeInTheDocument();
    const pending = screen.getByText('Question').closest('li') as HTMLElement;
    expect(within(pending).getByText(ContentMessages.pendingApproval)).toBeInTheDocument();
    expect(screen.getAllByText(ContentMessages.pendingApproval)).toHaveLength(1);
    // Replies only to approved top-level comments.
    expect(screen.getByRole('button', { name: 'Reply to Ana' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reply to Tia' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reply to Sam Student' })).not.toBeInTheDocument();
  });

  it('posts a comment and a reply with status approved, then reloads the comments', async () => {
    const post = lesson();
    const top = makeComment({ postId: post.id, authorName: 'Ana' });
    const { user, fetch } = await renderApp('/blog/ser-y-estar', {
      user: personas.student(),
      setup: setup(post, [top]),
    });
    fetch.on('POST', `/api/posts/${post.id}/comments`, (req) => ({
      status: 201,
      json: makeComment({ postId: post.id, content: (req.body as { content: string }).content }),
    }));
    await user.type(await screen.findByLabelText('Leave a comment'), '  Muy bien  ');
    await user.click(screen.getByRole('button', { name: 'Post Comment' }));
    await waitFor(() => expect(fetch.calls('POST', `/api/posts/${post.id}/comments`)).toHaveLength(1));
    expect(fetch.calls('POST', `/api/posts/${post.id}/comments`)[0]?.body).toEqual({
      content: 'Muy bien',
      parentId: null,
      status: 'approved',
    });
    await waitFor(() => expect(screen.getByLabelText('Leave a comment')).toHaveValue(''));
    // The emptied box gets focus back, not the page (the submit button is disabled again).
    expect(screen.getByLabelText('Leave a comment')).toHaveFocus();
    await waitFor(() =>
      expect(fetch.calls('GET', `/api/posts/${post.id}/comments`).length).toBeGreaterThan(1),
    );

    await user.click(screen.getByRole('button', { name: 'Reply to Ana' }));
    await user.type(screen.getByLabelText('Reply to Ana'), 'Yo también');
    await user.click(screen.getByRole('button', { name: 'Post Reply' }));
    await waitFor(() => expect(fetch.calls('POST', `/api/posts/${post.id}/comments`)).toHaveLength(2));
    expect(fetch.calls('POST', `/api/posts/${post.id}/comments`)[1]?.body).toEqual({
      content: 'Yo también',
      parentId: top.id,
      status: 'approved',
    });
    // The reply form closes; focus goes back to the Reply button rather than the top of the page.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reply to Ana' })).toHaveFocus());
  });

  it('shows the spec text when comments fail to load', async () => {
    const post = lesson();
    await renderApp('/blog/ser-y-estar', {
      user: personas.student(),
      setup: (f) => {
        setup(post)(f);
        f.on('GET', `/api/posts/${post.id}/comments`, {
          status: 500,
          json: { statusCode: 500, message: 'Internal error' },
        });
      },
    });
    expect(await screen.findByText(ContentMessages.commentsLoadFailed)).toBeInTheDocument();
  });

  it('lets an admin edit inline with Edit Post or a double-click, Save with PUT and Cancel', async () => {
    const post = lesson();
    const { user, fetch } = await renderApp('/blog/ser-y-estar', {
      user: personas.admin(),
      setup: setup(post),
    });
    let current = post;
    fetch.on('GET', `/api/posts/public/${post.slug}`, () => ({ json: current }));
    fetch.on('PUT', `/api/posts/${post.id}`, (req) => {
      current = { ...post, ...(req.body as object) };
      return { json: current };
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Post' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(fetch.calls('PUT', `/api/posts/${post.id}`)).toHaveLength(0);

    await user.dblClick(screen.getByRole('heading', { level: 1, name: 'Ser y estar' }));
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Ser, estar');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ser, estar' })).toBeInTheDocument();
    expect(fetch.calls('PUT', `/api/posts/${post.id}`)[0]?.body).toEqual({
      title: 'Ser, estar',
      content: post.content,
    });
  });

  it('reports a failed inline save with the status', async () => {
    const post = lesson();
    const { user, fetch } = await renderApp('/blog/ser-y-estar', {
      user: personas.admin(),
      setup: setup(post),
    });
    fetch.on('PUT', `/api/posts/${post.id}`, { status: 500, json: { statusCode: 500, message: 'boom' } });
    await user.click(await screen.findByRole('button', { name: 'Edit Post' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to save post: 500')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Title'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(ContentMessages.enterTitle)).toBeInTheDocument();
  });
});
