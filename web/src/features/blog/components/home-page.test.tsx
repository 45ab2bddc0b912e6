import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BLOG_DATA_UPDATED_EVENT } from '@/config/constants';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makePost } from '@/testing/content-fixtures';

function post(i: number) {
  const date = new Date(Date.UTC(2025, 0, i)).toISOString();
  return makePost({
    slug: `lesson-${i}`,
    title: `Lesson ${i}`,
    excerpt: `Excerpt ${i}`,
    categoryName: 'Spanish',
    category: 'Spanish',
    tags: ['spanish'],
    publishedAt: date,
    createdAt: date,
  });
}

const lessons = () => screen.getByRole('region', { name: 'Latest Lessons' });

describe('home page (spec section 2)', () => {
  it('shows the hero, the 6 latest posts newest first, and View All Posts', async () => {
    const posts = Array.from({ length: 8 }, (_, i) => post(i + 1));
    await renderApp('/', { user: null, setup: (f) => f.on('GET', '/api/posts/public', { json: posts }) });
    expect(
      await screen.findByRole('heading', { level: 1, name: /Lessons and classroom tools/ }),
    ).toBeInTheDocument();
    const titles = (await within(lessons()).findAllByRole('heading', { level: 3 })).map((h) => h.textContent);
    expect(titles).toEqual(['Lesson 8', 'Lesson 7', 'Lesson 6', 'Lesson 5', 'Lesson 4', 'Lesson 3']);
    expect(within(lessons()).getByRole('link', { name: 'View All Posts' })).toHaveAttribute('href', '/blog');
  });

  it('Read More sends a visitor to third-party sign-in', async () => {
    await renderApp('/', { user: null, setup: (f) => f.on('GET', '/api/posts/public', { json: [post(1)] }) });
    expect(await screen.findByRole('link', { name: 'Read More: Lesson 1' })).toHaveAttribute(
      'href',
      '/api/auth/google',
    );
  });

  it('without a third-party provider, Read More opens the email sign-in, then the lesson (issue #34)', async () => {
    const lesson = post(1);
    const student = personas.student();
    const { user, router, fetch } = await renderApp('/', {
      user: null,
      setup: (f) => {
        f.on('GET', '/api/posts/public', { json: [lesson] });
        f.on('GET', '/api/auth/sign-in-methods', { json: { password: true, thirdParty: false } });
        f.on('POST', '/api/auth/login', { json: student });
        f.on('GET', `/api/posts/public/${lesson.slug}`, { json: lesson });
        f.on('GET', `/api/posts/${lesson.id}/comments`, { json: [] });
      },
    });
    const readMore = await screen.findByRole('button', { name: 'Read More: Lesson 1' });
    expect(screen.queryByRole('link', { name: 'Read More: Lesson 1' })).not.toBeInTheDocument();
    await user.click(readMore);
    const dialog = within(await screen.findByRole('dialog', { name: 'Sign In' }));
    // No link to a provider the site does not have.
    expect(dialog.queryByRole('link', { name: 'Continue with Google' })).not.toBeInTheDocument();
    await user.type(dialog.getByLabelText('Email'), student.email);
    await user.type(dialog.getByLabelText('Password'), 'demo1234');
    await user.click(dialog.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blog/lesson-1'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Lesson 1' })).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/auth/login')).toHaveLength(1);
  });

  it('Read More opens the post for a signed-in user', async () => {
    const { user, router } = await renderApp('/', {
      user: personas.student(),
      setup: (f) => f.on('GET', '/api/posts/public', { json: [post(1)] }),
    });
    const link = await screen.findByRole('link', { name: 'Read More: Lesson 1' });
    expect(link).toHaveAttribute('href', '/blog/lesson-1');
    await user.click(link);
    expect(router.state.location.pathname).toBe('/blog/lesson-1');
  });

  it('shows a friendly empty state while no posts exist', async () => {
    await renderApp('/', { user: null });
    expect(await within(lessons()).findByText('No lessons published yet')).toBeInTheDocument();
  });

  it('stays calm when the posts service is unavailable', async () => {
    const { fetch, user } = await renderApp('/', {
      user: null,
      setup: (f) =>
        f.on('GET', '/api/posts/public', {
          status: 503,
          json: { statusCode: 503, message: 'Service Unavailable' },
        }),
    });
    expect(await within(lessons()).findByText('Lessons are unavailable right now')).toBeInTheDocument();
    fetch.on('GET', '/api/posts/public', { json: [post(2)] });
    await user.click(within(lessons()).getByRole('button', { name: 'Try again' }));
    expect(await within(lessons()).findByRole('heading', { name: 'Lesson 2' })).toBeInTheDocument();
  });

  it.each([
    ['login-required', 'Please sign in to access that page.'],
    ['admin-required', 'Admin access required for that page.'],
  ])('shows the message for ?message=%s and clears the query', async (value, text) => {
    const { router } = await renderApp(`/?message=${value}`, { user: null });
    expect(await screen.findByText(text)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByText(text)).toBeInTheDocument();
  });

  it('ignores an unknown message value but still clears it', async () => {
    const { router } = await renderApp('/?message=<script>', { user: null });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByText('Please sign in to access that page.')).not.toBeInTheDocument();
  });

  it('refetches the list on the blog-data-updated event', async () => {
    const { fetch } = await renderApp('/', { user: null });
    await within(lessons()).findByText('No lessons published yet');
    const before = fetch.calls('GET', '/api/posts/public').length;
    fetch.on('GET', '/api/posts/public', { json: [post(3)] });
    act(() => {
      window.dispatchEvent(new Event(BLOG_DATA_UPDATED_EVENT));
    });
    expect(await within(lessons()).findByRole('heading', { name: 'Lesson 3' })).toBeInTheDocument();
    expect(fetch.calls('GET', '/api/posts/public').length).toBeGreaterThan(before);
  });
});
