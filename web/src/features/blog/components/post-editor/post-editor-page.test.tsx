import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ContentMessages, type Post } from '@district/contracts/content';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeCategory, makePost } from '@/testing/content-fixtures';
import { uploadProblem } from './featured-image-field';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

const grammar = makeCategory({ name: 'Grammar' });
const UPLOADED = `/uploads/${'a'.repeat(64)}.png`;

function setup(post?: Post) {
  return (f: FetchStub) => {
    f.on('GET', '/api/categories', { json: [grammar] });
    f.on('GET', '/api/posts', { json: post ? [post] : [] });
    if (post) f.on('GET', `/api/posts/${post.id}`, { json: post });
  };
}

const content = () => screen.getByLabelText('Content (HTML)') as HTMLTextAreaElement;
/** The editor's inline error (an Alert in the page, not a toast in the notification list). */
const inlineError = () => within(screen.getByRole('main')).getByRole('alert');

describe('post editor (spec sections 2, 5 and 8)', { timeout: 20_000 }, () => {
  it('checks uploads for type and the 5 MB limit', () => {
    expect(uploadProblem(new File(['x'], 'a.txt', { type: 'text/plain' }))).toBe(
      ContentMessages.selectImageFile,
    );
    // 'less than 5MB': exactly 5 MiB is too large, one byte less is fine.
    const sized = (size: number) => {
      const file = new File(['x'], 'a.png', { type: 'image/png' });
      Object.defineProperty(file, 'size', { value: size });
      return file;
    };
    expect(uploadProblem(sized(5 * 1024 * 1024 + 1))).toBe(ContentMessages.imageTooLarge);
    expect(uploadProblem(sized(5 * 1024 * 1024))).toBe(ContentMessages.imageTooLarge);
    expect(uploadProblem(sized(5 * 1024 * 1024 - 1))).toBeNull();
    expect(uploadProblem(new File(['x'], 'a.png', { type: 'image/png' }))).toBeNull();
  });

  it('asks for a title before saving', async () => {
    const { user, fetch } = await renderApp('/admin/posts/new', { user: personas.admin(), setup: setup() });
    await user.click(await screen.findByRole('button', { name: 'Save Post' }));
    expect(screen.getByText(ContentMessages.enterTitle)).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/posts')).toHaveLength(0);
  });

  it('creates a post with its settings and SEO fields, then returns to the list', async () => {
    const { user, fetch, router } = await renderApp('/admin/posts/new', {
      user: personas.admin(),
      setup: setup(),
    });
    fetch.on('POST', '/api/posts', (req) => ({ status: 201, json: makePost(req.body as Partial<Post>) }));
    await user.type(await screen.findByLabelText('Title'), 'Ser y estar');
    await user.type(content(), '<p>Hola</p>');
    await user.selectOptions(screen.getByLabelText('Status'), 'published');
    await waitFor(() =>
      expect(within(screen.getByLabelText('Category')).getAllByRole('option')).toHaveLength(2),
    );
    await user.selectOptions(screen.getByLabelText('Category'), grammar.id);
    await user.type(screen.getByLabelText('Tags'), 'verbs, , grammar');
    await user.click(screen.getByLabelText('SEO title'));
    await user.paste('Ser and estar: the two Spanish verbs');
    await user.type(screen.getByLabelText('Focus keyword'), 'ser');
    await user.type(screen.getByLabelText('Meta keywords'), ' ser , estar,');
    await user.click(screen.getByRole('button', { name: 'Save Post' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/posts'));
    expect(fetch.calls('POST', '/api/posts')[0]?.body).toEqual({
      title: 'Ser y estar',
      content: '<p>Hola</p>',
      excerpt: '',
      categoryId: grammar.id,
      tags: ['verbs', 'grammar'],
      featuredImage: null,
      status: 'published',
      seoTitle: 'Ser and estar: the two Spanish verbs',
      metaDescription: '',
      metaKeywords: ['ser', 'estar'],
      focusKeyword: 'ser',
    });
  });

  it('analyses SEO with the spec ranges', async () => {
    const { user } = await renderApp('/admin/posts/new', { user: personas.admin(), setup: setup() });
    const analysis = await screen.findByRole('list', { name: 'SEO analysis' });
    expect(within(analysis).getByText(/SEO title: 30–60 characters — Missing/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('SEO title'), 'Too short');
    expect(within(analysis).getByText(/Too short \(9 characters\)/)).toBeInTheDocument();
    await user.click(screen.getByLabelText('Meta description'));
    await user.paste('d'.repeat(120));
    expect(
      within(analysis).getByText(/Meta description: 120–160 characters — 120 characters/),
    ).toHaveTextContent('Passed');
  });

  it('edits an existing post with PUT; a refused save shows its status and, in the editor, the reason', async () => {
    const post = makePost({ title: 'Old title', content: '<p>Old</p>', status: 'draft' });
    const { user, fetch } = await renderApp(`/admin/posts/edit/${post.id}`, {
      user: personas.admin(),
      setup: setup(post),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Post' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Old title');
    fetch.on('PUT', `/api/posts/${post.id}`, {
      status: 409,
      json: { statusCode: 409, message: ContentMessages.postSlugTaken },
    });
    await user.click(screen.getByRole('button', { name: 'Save Post' }));
    // Spec §8, both: the alert with the status and the editor's own 'Error saving post: {message}' (issue #34).
    expect(await screen.findByText('Failed to save post: 409')).toBeInTheDocument();
    expect(inlineError()).toHaveTextContent(`Error saving post: ${ContentMessages.postSlugTaken}`);
    expect(fetch.calls('PUT', `/api/posts/${post.id}`)[0]?.body).not.toHaveProperty('slug');
  });

  it('shows inline a save that got no usable answer, and a refusal without a message from the server', async () => {
    const post = makePost({ title: 'Old title', content: '<p>Old</p>', status: 'draft' });
    const { user, fetch } = await renderApp(`/admin/posts/edit/${post.id}`, {
      user: personas.admin(),
      setup: setup(post),
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit Post' });
    fetch.on('PUT', `/api/posts/${post.id}`, { json: { not: 'a post' } });
    await user.click(screen.getByRole('button', { name: 'Save Post' }));
    await waitFor(() =>
      expect(inlineError()).toHaveTextContent('Error saving post: The server sent an unexpected answer.'),
    );
    expect(screen.queryByText(/^Failed to save post/)).not.toBeInTheDocument();

    fetch.on('PUT', `/api/posts/${post.id}`, { status: 500, text: '' });
    await user.click(screen.getByRole('button', { name: 'Save Post' }));
    expect(await screen.findByText('Failed to save post: 500')).toBeInTheDocument();
    await waitFor(() => expect(inlineError()).toHaveTextContent(/^Error saving post: /));
  });

  it('needs alt text on images before publishing', async () => {
    const { user, fetch } = await renderApp('/admin/posts/new', { user: personas.admin(), setup: setup() });
    await user.type(await screen.findByLabelText('Title'), 'Pictures');
    fireEvent.change(content(), { target: { value: '<img src="/uploads/x.png">' } });
    await user.selectOptions(screen.getByLabelText('Status'), 'published');
    await user.click(screen.getByRole('button', { name: 'Save Post' }));
    expect(
      screen.getByText('Add alt text to every image before publishing (1 image without alt text).'),
    ).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/posts')).toHaveLength(0);
  });

  it('toggles edit/preview and previews in a sandboxed frame', async () => {
    const { user } = await renderApp('/admin/posts/new', { user: personas.admin(), setup: setup() });
    fireEvent.change(await screen.findByLabelText('Content (HTML)'), {
      target: { value: '<p onclick="x()">Hola</p>' },
    });
    const live = screen.getByTitle('Live preview');
    expect(live).toHaveAttribute('sandbox', '');
    expect(live.getAttribute('srcdoc')).toContain('<p onclick="x()">Hola</p>');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getByTitle('Post preview')).toHaveAttribute('sandbox', '');
    expect(screen.queryByLabelText('Content (HTML)')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(content()).toHaveValue('<p onclick="x()">Hola</p>');
  });

  it('finds in the HTML with Ctrl+F and inserts a link at the caret', async () => {
    const { user } = await renderApp('/admin/posts/new', { user: personas.admin(), setup: setup() });
    fireEvent.change(await screen.findByLabelText('Content (HTML)'), {
      target: { value: '<p>ser</p><p>SER</p>' },
    });
    content().focus();
    await user.keyboard('{Control>}f{/Control}');
    const find = within(screen.getByRole('search', { name: 'Find in HTML' }));
    await user.type(find.getByRole('searchbox'), 'ser');
    expect(find.getByText('1 of 2')).toBeInTheDocument();
    await user.click(find.getByRole('button', { name: 'Next' }));
    expect(find.getByText('2 of 2')).toBeInTheDocument();
    expect([content().selectionStart, content().selectionEnd]).toEqual([13, 16]);

    await user.click(screen.getByRole('button', { name: 'Insert Link' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Insert Link' }));
    expect(dialog.getByLabelText('Link text')).toHaveValue('SER');
    await user.type(dialog.getByLabelText('Link URL'), 'javascript:alert(1)');
    await user.click(dialog.getByRole('button', { name: 'Insert' }));
    expect(
      dialog.getByText('Please enter a link starting with http://, https://, mailto: or /'),
    ).toBeInTheDocument();
    await user.clear(dialog.getByLabelText('Link URL'));
    await user.type(dialog.getByLabelText('Link URL'), 'https://rae.es');
    await user.click(dialog.getByRole('button', { name: 'Insert' }));
    expect(content()).toHaveValue('<p>ser</p><p><a href="https://rae.es">SER</a></p>');
  });

  it('submits the Insert Link dialog with Enter, through the same URL check', async () => {
    const { user } = await renderApp('/admin/posts/new', { user: personas.admin(), setup: setup() });
    fireEvent.change(await screen.findByLabelText('Content (HTML)'), { target: { value: '<p>rae</p>' } });
    content().setSelectionRange(3, 6);
    await user.click(screen.getByRole('button', { name: 'Insert Link' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Insert Link' }));
    await user.type(dialog.getByLabelText('Link URL'), 'javascript:alert(1){Enter}');
    expect(
      dialog.getByText('Please enter a link starting with http://, https://, mailto: or /'),
    ).toBeInTheDocument();
    expect(content()).toHaveValue('<p>rae</p>');
    await user.clear(dialog.getByLabelText('Link URL'));
    await user.type(dialog.getByLabelText('Link URL'), 'https://rae.es');
    await user.type(dialog.getByLabelText('Link text'), '{Enter}');
    expect(content()).toHaveValue('<p><a href="https://rae.es">rae</a></p>');
    expect(screen.queryByRole('dialog', { name: 'Insert Link' })).not.toBeInTheDocument();
  });

  it('uploads a featured image, or says why not', async () => {
    const { user, fetch } = await renderApp('/admin/posts/new', { user: personas.admin(), setup: setup() });
    fetch.on('POST', '/api/upload-image', { status: 201, json: { url: UPLOADED } });
    const input = await screen.findByLabelText('Upload featured image');
    await user.upload(input, new File(['png'], 'cat.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByLabelText('Featured image URL')).toHaveValue(UPLOADED));
    expect(screen.getByAltText('Featured image preview')).toHaveAttribute('src', UPLOADED);

    fetch.on('POST', '/api/upload-image', {
      status: 400,
      json: { statusCode: 400, message: ContentMessages.imageTooLarge },
    });
    await user.upload(input, new File(['png'], 'dog.png', { type: 'image/png' }));
    await waitFor(() => expect(fetch.calls('POST', '/api/upload-image')).toHaveLength(2));
    expect(await screen.findByText(`Upload failed: ${ContentMessages.imageTooLarge}`)).toBeInTheDocument();

    // A file that is not an image never leaves the browser (set directly: user.upload honours accept="image/*").
    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await screen.findByText(ContentMessages.selectImageFile)).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/upload-image')).toHaveLength(2);
  });
});
