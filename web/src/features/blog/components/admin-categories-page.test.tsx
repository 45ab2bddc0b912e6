import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ContentMessages, type Category } from '@district/contracts/content';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeCategory } from '@/testing/content-fixtures';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

function setup(categories: Category[]) {
  return (f: FetchStub) => f.on('GET', '/api/categories', () => ({ json: categories }));
}

const row = (name: string) => screen.getByRole('cell', { name }).closest('tr') as HTMLElement;

describe('category management (spec sections 2, 5, 8 and 9)', { timeout: 20_000 }, () => {
  it('lists categories with the description cut to 50 characters', async () => {
    const long = makeCategory({
      name: 'Grammar',
      slug: 'grammar',
      description: 'd'.repeat(80),
      postCount: 3,
    });
    await renderApp('/admin/categories', { user: personas.admin(), setup: setup([long]) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Category Management' })).toBeInTheDocument();
    await screen.findByRole('cell', { name: 'Grammar' });
    expect(within(row('Grammar')).getByText(`${'d'.repeat(50)}…`)).toBeInTheDocument();
    expect(within(row('Grammar')).getByRole('cell', { name: '3' })).toBeInTheDocument();
  });

  it('generates the slug from the name, keeps an edited slug, and creates the category', async () => {
    const list: Category[] = [];
    const { user, fetch } = await renderApp('/admin/categories', {
      user: personas.admin(),
      setup: setup(list),
    });
    fetch.on('POST', '/api/categories', (req) => {
      const body = req.body as { name: string; slug: string; description: string };
      list.push(makeCategory(body));
      return { status: 201, json: list[0] };
    });
    await screen.findByText('No categories yet.');
    await user.type(screen.getByLabelText('Name'), 'Verbos  Irregulares!!');
    expect(screen.getByLabelText('Slug')).toHaveValue('verbos-irregulares');
    await user.clear(screen.getByLabelText('Slug'));
    await user.type(screen.getByLabelText('Slug'), 'irregular-verbs');
    await user.type(screen.getByLabelText('Name'), ' 2');
    expect(screen.getByLabelText('Slug')).toHaveValue('irregular-verbs');
    await user.type(screen.getByLabelText('Description'), 'Verbs that break the rules');
    await user.click(screen.getByRole('button', { name: 'Add Category' }));
    expect(await screen.findByText('Category created successfully')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/categories')[0]?.body).toEqual({
      name: 'Verbos  Irregulares!! 2',
      slug: 'irregular-verbs',
      description: 'Verbs that break the rules',
    });
    expect(await screen.findByRole('cell', { name: 'Verbos Irregulares!! 2' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it('asks for a name before saving', async () => {
    const { user, fetch } = await renderApp('/admin/categories', {
      user: personas.admin(),
      setup: setup([]),
    });
    await screen.findByText('No categories yet.');
    await user.click(screen.getByRole('button', { name: 'Add Category' }));
    expect(screen.getByText(ContentMessages.categoryNameRequired)).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/categories')).toHaveLength(0);
  });

  it('edits a category with PUT and says so', async () => {
    const grammar = makeCategory({ name: 'Grammar', slug: 'grammar', description: 'Rules' });
    const { user, fetch } = await renderApp('/admin/categories', {
      user: personas.admin(),
      setup: setup([grammar]),
    });
    fetch.on('PUT', `/api/categories/${grammar.id}`, (req) => ({
      json: { ...grammar, ...(req.body as object) },
    }));
    await user.click(await screen.findByRole('button', { name: 'Edit Grammar' }));
    expect(screen.getByLabelText('Name')).toHaveValue('Grammar');
    expect(screen.getByLabelText('Slug')).toHaveValue('grammar');
    await user.type(screen.getByLabelText('Name'), ' basics');
    expect(screen.getByLabelText('Slug')).toHaveValue('grammar');
    await user.click(screen.getByRole('button', { name: 'Update Category' }));
    expect(await screen.findByText('Category updated successfully')).toBeInTheDocument();
    expect(fetch.calls('PUT', `/api/categories/${grammar.id}`)[0]?.body).toEqual({
      name: 'Grammar basics',
      slug: 'grammar',
      description: 'Rules',
    });
  });

  it("shows the server's message, else 'Failed to save category'", async () => {
    const { user, fetch } = await renderApp('/admin/categories', {
      user: personas.admin(),
      setup: setup([]),
    });
    fetch.on('POST', '/api/categories', {
      status: 409,
      json: { statusCode: 409, message: ContentMessages.categorySlugTaken },
    });
    await screen.findByText('No categories yet.');
    await user.type(screen.getByLabelText('Name'), 'Grammar');
    await user.click(screen.getByRole('button', { name: 'Add Category' }));
    expect(await screen.findByText(ContentMessages.categorySlugTaken)).toBeInTheDocument();
    fetch.on('POST', '/api/categories', { status: 502, text: '<html>Bad gateway</html>' });
    await user.click(screen.getByRole('button', { name: 'Add Category' }));
    expect(await screen.findByText('Failed to save category')).toBeInTheDocument();
  });

  it('deletes after confirmation, or reports the failure', async () => {
    const grammar = makeCategory({ name: 'Grammar' });
    const list = [grammar];
    const { user, fetch } = await renderApp('/admin/categories', {
      user: personas.admin(),
      setup: setup(list),
    });
    fetch.on('DELETE', `/api/categories/${grammar.id}`, { status: 500, text: 'oops' });
    await user.click(await screen.findByRole('button', { name: 'Delete Grammar' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete category')).toBeInTheDocument();
    fetch.on('DELETE', `/api/categories/${grammar.id}`, () => {
      list.length = 0;
      return { status: 204 };
    });
    await user.click(screen.getByRole('button', { name: 'Delete Grammar' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Category deleted successfully')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Delete Grammar' })).not.toBeInTheDocument(),
    );
  });

  it.each([
    // Replies are made per request: a rejected promise built while collecting tests would go unhandled.
    ['the server refuses', () => ({ status: 500, text: 'oops' }), 'Failed to fetch categories'],
    ['the request fails', () => Promise.reject(new TypeError('Failed to fetch')), 'Error loading categories'],
  ] as const)('says so when loading fails because %s', async (_label, reply, text) => {
    await renderApp('/admin/categories', {
      user: personas.admin(),
      setup: (f) => f.on('GET', '/api/categories', reply),
    });
    expect(await screen.findByText(text)).toBeInTheDocument();
  });
});
