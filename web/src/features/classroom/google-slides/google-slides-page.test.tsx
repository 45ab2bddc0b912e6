import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClassroomMessages, deriveEmbedUrl, type GoogleSlide } from '@district/contracts/classroom';
import type { User } from '@district/contracts/identity';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeSlide, PUBLISHED_URL, SLIDES_URL } from '../classroom.fixtures.testing';

configure({ asyncUtilTimeout: 4000 });
afterEach(() => vi.restoreAllMocks());

async function open(user: User, slides: GoogleSlide[], setup?: (f: FetchStub) => void) {
  const view = await renderApp('/google-slides', {
    user,
    setup: (f) => {
      f.on('GET', '/api/google-slides', () => ({ json: slides }));
      setup?.(f);
    },
  });
  await screen.findByRole('heading', { level: 1, name: 'Google Slides' });
  return view;
}

const card = async (title: string) =>
  within((await screen.findByRole('heading', { level: 2, name: title })).closest('li')!);
const banner = () =>
  screen.getAllByRole('alert').find((el) => el.querySelector('button[aria-label="Dismiss error"]'));

describe('/google-slides (spec §2, §5, §6, §8)', { timeout: 30_000 }, () => {
  it('cards show every field, the 200 px sandboxed preview of the server embedUrl, Public badge and Open in a new tab', async () => {
    const slide = makeSlide();
    await open(personas.student(), [
      slide,
      makeSlide({
        title: 'Sin vista',
        googleSlidesUrl: 'https://docs.google.com/presentation/u/0/',
        embedUrl: '',
        tags: [],
      }),
    ]);
    const c = await card('Los colores');
    for (const text of [
      'Public',
      'Colours vocabulary',
      'Vocabulary',
      'Tia Teacher',
      'March 7, 2025',
      'colours',
      'unit 2',
    ])
      expect(c.getByText(text)).toBeInTheDocument();
    const frame = c.getByTitle('Preview of Los colores');
    expect(frame).toHaveAttribute(
      'src',
      'https://docs.google.com/presentation/d/1AbC_d-9/embed?start=false&loop=false&delayms=3000',
    );
    expect(frame).toHaveAttribute('height', '200');
    expect(frame.getAttribute('sandbox')?.split(' ').sort()).toEqual([
      'allow-popups',
      'allow-popups-to-escape-sandbox',
      'allow-same-origin',
      'allow-scripts',
    ]);
    const link = c.getByRole('link', { name: /Open in Google Slides/ });
    expect(link).toHaveAttribute('href', SLIDES_URL);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    // Students are not told about visibility, nor offered Add, Edit or Delete.
    expect(c.queryByText('Visible to students')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Google Slides' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Los colores' })).not.toBeInTheDocument();

    const none = await card('Sin vista');
    expect(none.getByText('Preview not available.')).toBeInTheDocument();
    expect(none.queryByTitle(/Preview of/)).not.toBeInTheDocument();
    expect(screen.getByText(/Anyone with the link can view/)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Presentations' })).toHaveClass(
      'grid-cols-1',
      'md:grid-cols-2',
      'lg:grid-cols-3',
    );
  });

  it('never frames an embed address that is not a Google Slides embed', async () => {
    await open(personas.student(), [makeSlide({ embedUrl: 'https://evil.example/embed' })]);
    const c = await card('Los colores');
    expect(c.getByText('Preview not available.')).toBeInTheDocument();
  });

  it("'No Google Slides URL available for this presentation' when there is no link to open", async () => {
    const { user } = await open(personas.student(), [makeSlide({ googleSlidesUrl: '', embedUrl: '' })]);
    await user.click((await card('Los colores')).getByRole('button', { name: 'Open in Google Slides' }));
    expect(await screen.findByText(ClassroomMessages.noSlidesUrl)).toBeInTheDocument();
  });

  it('empty states by role', async () => {
    const student = await open(personas.student(), []);
    expect(await screen.findByText('No presentations are available yet.')).toBeInTheDocument();
    student.unmount();
    await open(personas.teacher(), []);
    expect(
      await screen.findByText('Add your first Google Slides presentation to get started'),
    ).toBeInTheDocument();
  });

  it("a 401 from the list shows 'Authentication Required: Please log in to access Google Slides.'", async () => {
    await open(personas.student(), [], (f) =>
      f.on('GET', '/api/google-slides', { status: 401, json: { message: 'Unauthorized' } }),
    );
    expect(await screen.findByText(ClassroomMessages.slidesLoginRequired)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/api/auth/google');
  });

  it('a fetch failure shows in a dismissible banner with Try Again', async () => {
    const { user, fetch } = await open(personas.teacher(), [], (f) =>
      f.on('GET', '/api/google-slides', { status: 500, text: '' }),
    );
    expect(await screen.findByText(ClassroomMessages.fetchSlidesFailed)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss error' }));
    expect(screen.queryByText(ClassroomMessages.fetchSlidesFailed)).not.toBeInTheDocument();
    fetch.on('GET', '/api/google-slides', { json: [makeSlide()] });
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await card('Los colores')).toBeTruthy();
  });

  it("a teacher adds a slide: title and URL required, 'Please enter a valid Google Slides URL' checked before sending; tags split; public by default", async () => {
    const slides: GoogleSlide[] = [];
    const { user, fetch } = await open(personas.teacher(), slides, (f) =>
      f.on('POST', '/api/google-slides', (req) => {
        const body = req.body as GoogleSlide;
        const slide = makeSlide({ ...body, embedUrl: deriveEmbedUrl(body.googleSlidesUrl), canEdit: true });
        slides.push(slide);
        return { status: 201, json: slide };
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Add Google Slides' }));
    const form = within(screen.getByRole('form', { name: 'Add Google Slides presentation' }));
    expect(form.getByLabelText('Public (visible to students)')).toBeChecked();
    expect(form.getByText(/Anyone with the link can view/)).toBeInTheDocument();

    await user.click(form.getByRole('button', { name: 'Add Slide' }));
    await waitFor(() => expect(banner()).toHaveTextContent('Title is required'));
    await user.type(form.getByLabelText('Title'), 'Los animales');
    await user.click(form.getByRole('button', { name: 'Add Slide' }));
    await waitFor(() => expect(banner()).toHaveTextContent('Google Slides URL is required'));
    for (const bad of [
      'https://example.com/presentation/d/abc',
      'https://docs.google.com/document/d/abc/edit',
      'not a url',
    ]) {
      await user.clear(form.getByLabelText('Google Slides URL'));
      await user.type(form.getByLabelText('Google Slides URL'), bad);
      await user.click(form.getByRole('button', { name: 'Add Slide' }));
      await waitFor(() => expect(banner()).toHaveTextContent('Please enter a valid Google Slides URL'));
    }
    expect(fetch.calls('POST', '/api/google-slides')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Dismiss error' }));

    await user.clear(form.getByLabelText('Google Slides URL'));
    await user.type(form.getByLabelText('Google Slides URL'), PUBLISHED_URL);
    await user.type(form.getByLabelText('Tags'), ' animals ,  unit 3,,animals ');
    await user.type(form.getByLabelText('Category'), 'Vocabulary');
    await user.click(form.getByRole('button', { name: 'Add Slide' }));
    expect(await screen.findByText('Google Slide added successfully')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/google-slides')[0]?.body).toEqual({
      title: 'Los animales',
      description: '',
      googleSlidesUrl: PUBLISHED_URL,
      embedUrl:
        'https://docs.google.com/presentation/d/e/2PACX-1vQ_x-Y/embed?start=false&loop=false&delayms=3000',
      isPublic: true,
      category: 'Vocabulary',
      tags: ['animals', 'unit 3'],
    });
    const c = await card('Los animales');
    expect(c.getByTitle('Preview of Los animales')).toHaveAttribute(
      'src',
      'https://docs.google.com/presentation/d/e/2PACX-1vQ_x-Y/embed?start=false&loop=false&delayms=3000',
    );
    expect(c.getByText('Visible to students')).toBeInTheDocument();
  });

  it("edits with PUT (prefilled, made private); the server's message or 'Failed to save Google Slide'; delete with confirmation", async () => {
    const slide = makeSlide({ canEdit: true });
    const slides = [slide];
    const { user, fetch } = await open(personas.admin(), slides);
    await user.click(await screen.findByRole('button', { name: 'Edit Los colores' }));
    const form = within(screen.getByRole('form', { name: 'Edit Google Slides presentation' }));
    expect(form.getByLabelText('Google Slides URL')).toHaveValue(SLIDES_URL);
    expect(form.getByLabelText('Tags')).toHaveValue('colours, unit 2');
    await user.click(form.getByLabelText('Public (visible to students)'));

    fetch.on('PUT', `/api/google-slides/${slide.id}`, {
      status: 403,
      json: { message: ClassroomMessages.slideOwnerOnly },
    });
    await user.click(form.getByRole('button', { name: 'Update Slide' }));
    await waitFor(() => expect(banner()).toHaveTextContent(ClassroomMessages.slideOwnerOnly));
    fetch.on('PUT', `/api/google-slides/${slide.id}`, { status: 500, text: '' });
    await user.click(form.getByRole('button', { name: 'Update Slide' }));
    await waitFor(() => expect(banner()).toHaveTextContent(ClassroomMessages.saveSlideFailed));

    fetch.on('PUT', `/api/google-slides/${slide.id}`, (req) => {
      Object.assign(slide, req.body);
      return { json: slide };
    });
    await user.click(form.getByRole('button', { name: 'Update Slide' }));
    expect(await screen.findByText('Google Slide updated successfully')).toBeInTheDocument();
    expect(fetch.calls('PUT', `/api/google-slides/${slide.id}`).at(-1)?.body).toMatchObject({
      isPublic: false,
      tags: ['colours', 'unit 2'],
    });
    const c = await card('Los colores');
    expect(c.getByText('Teachers only')).toBeInTheDocument();
    expect(c.queryByText('Public')).not.toBeInTheDocument();

    fetch.on('DELETE', `/api/google-slides/${slide.id}`, { status: 500, text: '' });
    await user.click(c.getByRole('button', { name: 'Delete Los colores' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText('Are you sure you want to delete this Google Slide?')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(banner()).toHaveTextContent(ClassroomMessages.deleteSlideFailed));

    fetch.on('DELETE', `/api/google-slides/${slide.id}`, () => {
      slides.pop();
      return { status: 204 };
    });
    await user.click(screen.getByRole('button', { name: 'Delete Los colores' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Google Slide deleted successfully')).toBeInTheDocument();
    expect(
      await screen.findByText('Add your first Google Slides presentation to get started'),
    ).toBeInTheDocument();
  });
});
