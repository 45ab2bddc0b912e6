import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Post } from '@district/contracts/content';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeCategory, makePost } from '@/testing/content-fixtures';

// Whole-app renders with lazy routes (and the lazy editor chunk) are slow on a busy 2-core runner.
configure({ asyncUtilTimeout: 4000 });

const grammar = makeCategory({ name: 'Grammar' });

function setup(post?: Post) {
  return (f: FetchStub) => {
    f.on('GET', '/api/categories', { json: [grammar] });
    f.on('GET', '/api/posts', { json: post ? [post] : [] });
    if (post) f.on('GET', `/api/posts/${post.id}`, { json: post });
  };
}

const html = () => screen.getByLabelText('Content (HTML)') as HTMLTextAreaElement;
const modeButton = (name: 'Rich text' | 'HTML') =>
  within(screen.getByRole('group', { name: 'Content mode' })).getByRole('button', { name });
const toolbar = () => within(screen.getByRole('toolbar', { name: 'Formatting' }));

/** Opens the editor with `content` typed in HTML mode, then switches to rich text. */
async function openInRichText(content: string, path = '/admin/posts/new', post?: Post) {
  const app = await renderApp(path, { user: personas.admin(), setup: setup(post) });
  fireEvent.change(await screen.findByLabelText('Content (HTML)'), { target: { value: content } });
  await app.user.click(modeButton('Rich text'));
  const editor = await screen.findByRole('textbox', { name: 'Content (rich text)' });
  return { ...app, editor };
}

/** Puts the caret in the editor and selects everything in it (ProseMirror's own Mod-a). */
async function selectAll(app: Awaited<ReturnType<typeof openInRichText>>) {
  app.editor.focus();
  await app.user.keyboard('{Control>}a{/Control}');
}

describe(
  'post editor, rich-text mode (spec sections 2 and 4: content mode rich or html)',
  { timeout: 20_000 },
  () => {
    it('starts in HTML mode and keeps the content unchanged across a switch to rich text and back', async () => {
      const original = '<h2>Ser y estar</h2><p>Hola <b>amigos</b></p>\n<ul><li>uno</li></ul>';
      const app = await openInRichText(original);
      expect(modeButton('Rich text')).toHaveAttribute('aria-pressed', 'true');
      expect(modeButton('HTML')).toHaveAttribute('aria-pressed', 'false');
      expect(within(app.editor).getByRole('heading', { level: 2, name: 'Ser y estar' })).toBeInTheDocument();
      expect(within(app.editor).getByText('amigos').tagName).toBe('STRONG');
      // The HTML source search belongs to HTML mode; rich text leaves Ctrl+F to the browser.
      expect(screen.queryByRole('button', { name: 'Find (Ctrl+F)' })).not.toBeInTheDocument();
      expect(screen.queryByLabelText('Content (HTML)')).not.toBeInTheDocument();

      await app.user.click(modeButton('HTML'));
      // Nothing was edited, so nothing was rewritten: the admin's own HTML comes back byte for byte.
      expect(html()).toHaveValue(original);
    });

    it('keeps rich-text mode and the content across preview, and updates the live preview while typing', async () => {
      const app = await openInRichText('<p>Hola</p>');
      await selectAll(app);
      await app.user.click(toolbar().getByRole('button', { name: 'Heading 2' }));
      await waitFor(() =>
        expect(screen.getByTitle('Live preview').getAttribute('srcdoc')).toContain('<h2>Hola</h2>'),
      );
      await app.user.click(screen.getByRole('button', { name: 'Preview' }));
      expect(screen.getByTitle('Post preview').getAttribute('srcdoc')).toContain('<h2>Hola</h2>');
      await app.user.click(screen.getByRole('button', { name: 'Edit' }));
      const editor = await screen.findByRole('textbox', { name: 'Content (rich text)' });
      expect(within(editor).getByRole('heading', { level: 2, name: 'Hola' })).toBeInTheDocument();
      expect(toolbar().getByRole('button', { name: 'Heading 2' })).toHaveAttribute('aria-pressed', 'true');
      await app.user.click(modeButton('HTML'));
      expect(html()).toHaveValue('<h2>Hola</h2>');
    });

    it('makes the selection bold from the toolbar, which the HTML shows as <strong>, and undoes it', async () => {
      const app = await openInRichText('<p>Hola</p>');
      const bold = toolbar().getByRole('button', { name: 'Bold' });
      expect(bold).toHaveAttribute('aria-pressed', 'false');
      expect(toolbar().getByRole('button', { name: 'Undo' })).toBeDisabled();
      await selectAll(app);
      await app.user.click(bold);
      expect(within(app.editor).getByText('Hola').tagName).toBe('STRONG');
      expect(bold).toHaveAttribute('aria-pressed', 'true');
      await app.user.click(modeButton('HTML'));
      expect(html()).toHaveValue('<p><strong>Hola</strong></p>');

      await app.user.click(modeButton('Rich text'));
      const editor = await screen.findByRole('textbox', { name: 'Content (rich text)' });
      await app.user.click(toolbar().getByRole('button', { name: 'Bullet list' }));
      expect(within(editor).getByRole('listitem')).toHaveTextContent('Hola');
      await app.user.click(toolbar().getByRole('button', { name: 'Undo' }));
      await app.user.click(modeButton('HTML'));
      expect(html()).toHaveValue('<p><strong>Hola</strong></p>');
    });

    it('inserts a link through the same dialog, refusing javascript: URLs', async () => {
      const app = await openInRichText('<p>Ver la RAE</p>');
      await selectAll(app);
      await app.user.click(toolbar().getByRole('button', { name: 'Insert Link' }));
      const dialog = within(screen.getByRole('dialog', { name: 'Insert Link' }));
      expect(dialog.getByLabelText('Link text')).toHaveValue('Ver la RAE');
      await app.user.type(dialog.getByLabelText('Link URL'), 'javascript:alert(1)');
      await app.user.click(dialog.getByRole('button', { name: 'Insert' }));
      expect(
        dialog.getByText('Please enter a link starting with http://, https://, mailto: or /'),
      ).toBeInTheDocument();
      expect(within(app.editor).queryByRole('link')).not.toBeInTheDocument();
      await app.user.clear(dialog.getByLabelText('Link URL'));
      await app.user.type(dialog.getByLabelText('Link URL'), 'https://rae.es');
      await app.user.click(dialog.getByRole('button', { name: 'Insert' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(within(app.editor).getByRole('link', { name: 'Ver la RAE' })).toHaveAttribute(
        'href',
        'https://rae.es',
      );
      await app.user.click(modeButton('HTML'));
      expect(html()).toHaveValue('<p><a href="https://rae.es">Ver la RAE</a></p>');
    });

    it('does not read a javascript: link from the HTML as a link', async () => {
      const app = await openInRichText('<p><a href="javascript:alert(1)">Hola</a></p>');
      expect(within(app.editor).queryByRole('link')).not.toBeInTheDocument();
      expect(within(app.editor).getByText('Hola')).toBeInTheDocument();
    });

    it('needs alt text on images before publishing in rich-text mode, and in the Insert Image dialog', async () => {
      const app = await openInRichText('<p>Mira <img src="/uploads/x.png"></p>');
      await app.user.type(screen.getByLabelText('Title'), 'Pictures');
      await app.user.selectOptions(screen.getByLabelText('Status'), 'published');

      await selectAll(app);
      await app.user.keyboard('{ArrowRight}');
      await app.user.click(toolbar().getByRole('button', { name: 'Insert Image' }));
      const dialog = within(screen.getByRole('dialog', { name: 'Insert Image' }));
      await app.user.type(dialog.getByLabelText('Image URL'), 'javascript:alert(1)');
      await app.user.click(dialog.getByRole('button', { name: 'Insert' }));
      expect(
        dialog.getByText('Please enter an image link starting with http://, https:// or /'),
      ).toBeInTheDocument();
      expect(dialog.getByText('Please describe the image in the alt text')).toBeInTheDocument();
      await app.user.clear(dialog.getByLabelText('Image URL'));
      await app.user.type(dialog.getByLabelText('Image URL'), '/uploads/y.png');
      await app.user.click(dialog.getByRole('button', { name: 'Insert' }));
      expect(dialog.getByText('Please describe the image in the alt text')).toBeInTheDocument();
      // Enter in a field inserts, like the button (a form, as in the Insert Link dialog).
      await app.user.type(dialog.getByLabelText('Alt text'), 'A cat on a mat{Enter}');
      expect(await within(app.editor).findByAltText('A cat on a mat')).toHaveAttribute(
        'src',
        '/uploads/y.png',
      );

      // The image read from the HTML still has no alt text, so publishing is refused.
      await app.user.click(screen.getByRole('button', { name: 'Save Post' }));
      expect(
        screen.getByText('Add alt text to every image before publishing (1 image without alt text).'),
      ).toBeInTheDocument();
      expect(app.fetch.calls('POST', '/api/posts')).toHaveLength(0);
      expect(screen.getByTitle('Live preview').getAttribute('srcdoc')).toContain(
        '<img src="/uploads/y.png" alt="A cat on a mat">',
      );
    });

    it('keeps a frame from an allowed host through a round trip and drops one from any other host', async () => {
      const slides =
        '<iframe src="https://docs.google.com/presentation/d/abc/embed" width="960" height="569" allowfullscreen="true" frameborder="0"></iframe>';
      const app = await openInRichText(
        `<p>Intro</p>${slides}<iframe src="https://evil.example.com/embed/x"></iframe>`,
      );
      expect(within(app.editor).getByText('Embedded Google Slides')).toBeInTheDocument();
      expect(within(app.editor).queryByText(/evil\.example\.com/)).not.toBeInTheDocument();
      // An edit makes the editor write the HTML out.
      await selectAll(app);
      await app.user.click(toolbar().getByRole('button', { name: 'Italic' }));
      await app.user.click(modeButton('HTML'));
      expect(html()).toHaveValue(`<p><em>Intro</em></p>${slides}`);
    });

    it('stays in HTML mode with a warning when rich text would drop part of the HTML', async () => {
      const post = makePost({ content: '<table><tr><td>ser</td></tr></table><p title="note">estar</p>' });
      const { user } = await renderApp(`/admin/posts/edit/${post.id}`, {
        user: personas.admin(),
        setup: setup(post),
      });
      await user.click(await screen.findByRole('button', { name: 'Rich text' }));
      expect(
        await screen.findByText(
          'Rich text would drop part of this post\'s HTML (<table>, <tbody>, <tr>, <td>, <p title="note">). Stay in HTML mode to keep it, or remove it from the HTML first.',
        ),
      ).toBeInTheDocument();
      expect(modeButton('HTML')).toHaveAttribute('aria-pressed', 'true');
      expect(html()).toHaveValue(post.content);
      expect(screen.queryByRole('textbox', { name: 'Content (rich text)' })).not.toBeInTheDocument();

      // Once the HTML only has what rich text keeps, the switch goes through and the warning goes away.
      fireEvent.change(html(), { target: { value: '<p>estar</p>' } });
      await user.click(modeButton('Rich text'));
      expect(await screen.findByRole('textbox', { name: 'Content (rich text)' })).toHaveTextContent('estar');
      expect(screen.queryByText(/Rich text would drop/)).not.toBeInTheDocument();
    });

    it('saves what the rich-text editor wrote', async () => {
      const { user, fetch, router, editor } = await openInRichText('<p>Hola</p>');
      fetch.on('POST', '/api/posts', (req) => ({ status: 201, json: makePost(req.body as Partial<Post>) }));
      await user.type(screen.getByLabelText('Title'), 'Saludos');
      editor.focus();
      await user.keyboard('{Control>}a{/Control}');
      await user.click(toolbar().getByRole('button', { name: 'Quote' }));
      await user.click(screen.getByRole('button', { name: 'Save Post' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/posts'));
      expect(fetch.calls('POST', '/api/posts')[0]?.body).toMatchObject({
        title: 'Saludos',
        content: '<blockquote><p>Hola</p></blockquote>',
      });
    });
  },
);
