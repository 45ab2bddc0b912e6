import { lazy, Suspense, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import {
  ContentMessages,
  MAX_IMAGE_BYTES,
  createPostRequestSchema,
  type Post,
  type PostStatus,
} from '@district/contracts';
import {
  Alert,
  Button,
  ButtonLink,
  Card,
  CardBody,
  CardHeader,
  SelectField,
  Spinner,
  TextAreaField,
  TextField,
  useToast,
} from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { announceBlogDataUpdated } from '@/lib/react-query';
import {
  adminPostsQueryKey,
  createPost,
  savePost,
  uploadImage,
  useAdminCategories,
  useAdminPost,
} from '../api/content';
import { findMatches, imagesWithoutAlt, insertAt, linkHtml } from './html-tools';
import { HtmlPreview } from './html-preview';
import { InsertLinkDialog, type LinkRequest } from './insert-link-dialog';
import { analyzeSeo, parseKeywords } from './seo-analysis';

/** TipTap and its extensions load only when an admin opens rich-text mode (their own chunk, off every other route). */
const loadRichText = () => import('./rich-text-editor');
const RichTextEditor = lazy(() => loadRichText().then((m) => ({ default: m.RichTextEditor })));

type ContentMode = 'rich' | 'html';

/** Shown instead of switching when rich text would drop part of the HTML (lost: what, as lostInConversion says). */
export function richTextWarning(lost: string[]): string {
  const shown = lost.slice(0, 5).join(', ');
  const more = lost.length > 5 ? ` and ${lost.length - 5} more` : '';
  return `Rich text would drop part of this post's HTML (${shown}${more}). Stay in HTML mode to keep it, or remove it from the HTML first.`;
}

const textareaClasses =
  'block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20';

/** Spec §8: 'Failed to save post: {status}' when the server answered; 'Error saving post: {message or Unknown error}' otherwise. */
export function saveErrorText(err: unknown): { toast: boolean; text: string } {
  if (err instanceof ApiError && err.status >= 400)
    return { toast: true, text: `Failed to save post: ${err.status}` };
  return {
    toast: false,
    text: `Error saving post: ${err instanceof Error && err.message ? err.message : 'Unknown error'}`,
  };
}

/** Spec §5/§8 upload checks before the file leaves the browser (the server checks the bytes again). */
export function uploadProblem(file: File): string | null {
  if (!file.type.startsWith('image/')) return ContentMessages.selectImageFile;
  if (file.size > MAX_IMAGE_BYTES) return ContentMessages.imageTooLarge;
  return null;
}

interface Draft {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  status: PostStatus;
  categoryId: string;
  tags: string;
  featuredImage: string;
  seoTitle: string;
  metaDescription: string;
  metaKeywords: string;
  focusKeyword: string;
}

function draftOf(post?: Post): Draft {
  return {
    title: post?.title ?? '',
    slug: post?.slug ?? '',
    excerpt: post?.excerpt ?? '',
    content: post?.content ?? '',
    status: post?.status ?? 'draft',
    categoryId: post?.categoryId ?? '',
    tags: post?.tags.join(', ') ?? '',
    featuredImage: post?.featuredImage ?? '',
    seoTitle: post?.seoTitle ?? '',
    metaDescription: post?.metaDescription ?? '',
    metaKeywords: post?.metaKeywords.join(', ') ?? '',
    focusKeyword: post?.focusKeyword ?? '',
  };
}

function FindBar({
  text,
  onSelect,
  onClose,
}: {
  text: string;
  onSelect: (start: number, end: number) => void;
  onClose: () => void;
}) {
  const [term, setTerm] = useState('');
  const [index, setIndex] = useState(0);
  const matches = findMatches(text, term);
  const current = matches.length ? Math.min(index, matches.length - 1) : -1;

  const go = (step: number) => {
    if (!matches.length) return;
    const next = (current + step + matches.length) % matches.length;
    setIndex(next);
    onSelect(matches[next]!, matches[next]! + term.length);
  };

  return (
    <div
      role="search"
      aria-label="Find in HTML"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-2"
    >
      <label className="flex items-center gap-2 text-sm">
        <span className="font-medium text-slate-700">Find</span>
        <input
          autoFocus
          type="search"
          value={term}
          onChange={(e) => {
            setTerm(e.target.value);
            setIndex(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              go(e.shiftKey ? -1 : 1);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              onClose();
            }
          }}
          className="rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <span className="text-xs text-slate-600" aria-live="polite">
        {term ? (matches.length ? `${current + 1} of ${matches.length}` : 'No matches') : ''}
      </span>
      <Button size="sm" variant="outline" onClick={() => go(-1)} disabled={!matches.length}>
        Previous
      </Button>
      <Button size="sm" variant="outline" onClick={() => go(1)} disabled={!matches.length}>
        Next
      </Button>
      <Button size="sm" variant="ghost" onClick={onClose}>
        Close
      </Button>
    </div>
  );
}

function PostEditorForm({ post }: { post?: Post }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { toast } = useToast();
  const categories = useAdminCategories();
  const [draft, setDraft] = useState<Draft>(() => draftOf(post));
  const [mode, setMode] = useState<'edit' | 'preview'>('edit');
  // HTML first for new and existing posts alike: nothing is rewritten until the admin asks for rich text (ADR 0007).
  const [contentMode, setContentMode] = useState<ContentMode>('html');
  const [switchingMode, setSwitchingMode] = useState(false);
  const [modeWarning, setModeWarning] = useState<string | null>(null);
  const [finding, setFinding] = useState(false);
  const [linkDialog, setLinkDialog] = useState<{ start: number; end: number; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const seo = analyzeSeo({
    seoTitle: draft.seoTitle,
    metaDescription: draft.metaDescription,
    focusKeyword: draft.focusKeyword,
    metaKeywords: parseKeywords(draft.metaKeywords),
  });

  const selectInContent = (start: number, end: number) => {
    const area = contentRef.current;
    if (!area) return;
    area.focus();
    area.setSelectionRange(start, end);
  };

  const onEditorKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
      // Replaces the browser's page search with a search inside the HTML source.
      event.preventDefault();
      setFinding(true);
    }
  };

  const openLinkDialog = () => {
    const area = contentRef.current;
    const start = area?.selectionStart ?? draft.content.length;
    const end = area?.selectionEnd ?? draft.content.length;
    setLinkDialog({ start, end, text: draft.content.slice(start, end) });
  };

  const insertLink = ({ url, text }: LinkRequest) => {
    if (!linkDialog) return;
    const next = insertAt(draft.content, linkDialog.start, linkDialog.end, linkHtml(url, text));
    set('content', next.text);
    setLinkDialog(null);
    requestAnimationFrame(() => selectInContent(next.caret, next.caret));
  };

  const chooseContentMode = async (next: ContentMode) => {
    if (next === contentMode || switchingMode) return;
    setModeWarning(null);
    if (next === 'html') {
      setContentMode('html');
      return;
    }
    // The HTML is read-only meanwhile, so the check below sees exactly what the editor will open.
    setSwitchingMode(true);
    try {
      const { richTextLosses } = await loadRichText();
      const lost = richTextLosses(draft.content);
      if (lost.length) {
        setModeWarning(richTextWarning(lost));
      } else {
        setFinding(false);
        setContentMode('rich');
      }
    } catch (err) {
      console.error('Loading the rich text editor failed', err);
      toast({ type: 'error', message: 'The rich text editor could not be loaded. Please try again.' });
    } finally {
      setSwitchingMode(false);
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = uploadProblem(file);
    if (problem) {
      toast({ type: 'error', message: problem });
      return;
    }
    setUploading(true);
    try {
      set('featuredImage', await uploadImage(file));
    } catch (err) {
      console.error('Image upload failed', err);
      toast({
        type: 'error',
        message: `Upload failed: ${err instanceof Error ? err.message : 'Unknown error'}`,
      });
    } finally {
      setUploading(false);
    }
  };

  const save = async () => {
    setError(null);
    if (!draft.title.trim()) {
      setError(ContentMessages.enterTitle);
      return;
    }
    const missingAlt = imagesWithoutAlt(draft.content);
    if (draft.status === 'published' && missingAlt > 0) {
      setError(
        `Add alt text to every image before publishing (${missingAlt} image${missingAlt === 1 ? '' : 's'} without alt text).`,
      );
      return;
    }
    const body = {
      title: draft.title.trim(),
      content: draft.content,
      excerpt: draft.excerpt.trim(),
      categoryId: draft.categoryId || null,
      tags: parseKeywords(draft.tags),
      featuredImage: draft.featuredImage.trim() || null,
      status: draft.status,
      seoTitle: draft.seoTitle.trim(),
      metaDescription: draft.metaDescription.trim(),
      metaKeywords: parseKeywords(draft.metaKeywords),
      focusKeyword: draft.focusKeyword.trim(),
      // The slug is sent only when typed (new post) or changed (existing post), so the server keeps it otherwise.
      ...(draft.slug.trim() && draft.slug.trim() !== post?.slug ? { slug: draft.slug.trim() } : {}),
    };
    const checked = createPostRequestSchema.safeParse(body);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Please check the post fields');
      return;
    }
    setSaving(true);
    try {
      if (post) await savePost(post.id, body);
      else await createPost(body);
      await client.invalidateQueries({ queryKey: adminPostsQueryKey });
      announceBlogDataUpdated();
      toast({ type: 'success', message: 'Post saved successfully' });
      void navigate('/admin/posts');
    } catch (err) {
      console.error('Saving the post failed', err);
      const shown = saveErrorText(err);
      if (shown.toast) toast({ type: 'error', message: shown.text });
      else setError(shown.text);
    } finally {
      setSaving(false);
    }
  };

  const modeButton = (id: 'edit' | 'preview', label: string) => (
    <button
      type="button"
      aria-pressed={mode === id}
      onClick={() => setMode(id)}
      className={cn(
        'rounded-md px-3 py-1.5 text-sm font-medium',
        mode === id ? 'bg-brand-700 text-white' : 'text-slate-600 hover:bg-slate-100',
      )}
    >
      {label}
    </button>
  );

  const contentModeButton = (id: ContentMode, label: string) => (
    <button
      type="button"
      aria-pressed={contentMode === id}
      disabled={switchingMode}
      onClick={() => void chooseContentMode(id)}
      className={cn(
        'rounded-md px-2.5 py-1 text-xs font-medium disabled:cursor-wait',
        contentMode === id ? 'bg-brand-700 text-white' : 'text-slate-600 hover:bg-slate-100',
      )}
    >
      {label}
    </button>
  );

  return (
    <PageContainer>
      <PageHeader
        title={post ? 'Edit Post' : 'New Post'}
        actions={
          <>
            <ButtonLink to="/admin/posts" variant="outline">
              Cancel
            </ButtonLink>
            <Button onClick={() => void save()} loading={saving}>
              Save Post
            </Button>
          </>
        }
      />
      {error ? (
        <Alert tone="error" className="mb-4">
          {error}
        </Alert>
      ) : null}
      <div
        className="mb-4 inline-flex rounded-lg border border-slate-200 bg-white p-1"
        role="group"
        aria-label="Editor mode"
      >
        {modeButton('edit', 'Edit')}
        {modeButton('preview', 'Preview')}
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-4 lg:col-span-2">
          {mode === 'preview' ? (
            <HtmlPreview
              title="Post preview"
              heading={draft.title}
              html={draft.content}
              className="h-[70vh] w-full rounded-lg border border-slate-200 bg-white"
            />
          ) : (
            <>
              <TextField
                label="Title"
                value={draft.title}
                maxLength={200}
                onChange={(e) => set('title', e.target.value)}
              />
              <TextAreaField
                label="Excerpt"
                rows={2}
                maxLength={1000}
                value={draft.excerpt}
                onChange={(e) => set('excerpt', e.target.value)}
              />
              <div onKeyDown={contentMode === 'html' ? onEditorKeyDown : undefined} className="space-y-2">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  {contentMode === 'html' ? (
                    <label htmlFor="post-content" className="text-sm font-medium text-slate-700">
                      Content (HTML)
                    </label>
                  ) : (
                    <span className="text-sm font-medium text-slate-700">Content (rich text)</span>
                  )}
                  <div className="flex flex-wrap items-center gap-2">
                    <div
                      role="group"
                      aria-label="Content mode"
                      aria-busy={switchingMode || undefined}
                      className="inline-flex rounded-lg border border-slate-200 bg-white p-0.5"
                    >
                      {contentModeButton('rich', 'Rich text')}
                      {contentModeButton('html', 'HTML')}
                    </div>
                    {contentMode === 'html' ? (
                      <>
                        <Button size="sm" variant="outline" onClick={openLinkDialog}>
                          Insert Link
                        </Button>
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => setFinding(true)}
                          aria-keyshortcuts="Control+F"
                        >
                          Find (Ctrl+F)
                        </Button>
                      </>
                    ) : null}
                  </div>
                </div>
                {modeWarning ? <Alert tone="warning">{modeWarning}</Alert> : null}
                {contentMode === 'html' ? (
                  <>
                    {finding ? (
                      <FindBar
                        text={draft.content}
                        onSelect={selectInContent}
                        onClose={() => setFinding(false)}
                      />
                    ) : null}
                    <textarea
                      id="post-content"
                      ref={contentRef}
                      rows={18}
                      spellCheck={false}
                      readOnly={switchingMode}
                      value={draft.content}
                      onChange={(e) => set('content', e.target.value)}
                      className={cn(textareaClasses, 'font-mono')}
                    />
                    <p className="text-xs text-slate-500">Ctrl+F searches this HTML source.</p>
                  </>
                ) : (
                  <>
                    <Suspense fallback={<Spinner label="Loading the rich text editor…" />}>
                      <RichTextEditor
                        initialContent={draft.content}
                        onChange={(html) => set('content', html)}
                      />
                    </Suspense>
                    <p className="text-xs text-slate-500">
                      Ctrl+F is the browser&apos;s own find here; switch to HTML to search the source.
                    </p>
                  </>
                )}
              </div>
              <div>
                <h2 className="mb-2 text-sm font-medium text-slate-700">Live preview</h2>
                <HtmlPreview title="Live preview" html={draft.content} />
              </div>
            </>
          )}
        </div>

        <div className="space-y-6">
          <Card>
            <CardHeader title="Settings" as="h2" />
            <CardBody className="space-y-4">
              <SelectField
                label="Status"
                value={draft.status}
                onChange={(e) => set('status', e.target.value as PostStatus)}
              >
                <option value="draft">Draft</option>
                <option value="published">Published</option>
              </SelectField>
              <SelectField
                label="Category"
                value={draft.categoryId}
                onChange={(e) => set('categoryId', e.target.value)}
              >
                <option value="">No category</option>
                {(categories.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </SelectField>
              <TextField
                label="Slug"
                value={draft.slug}
                maxLength={120}
                hint="Made from the title when left empty."
                onChange={(e) => set('slug', e.target.value)}
              />
              <TextField
                label="Tags"
                value={draft.tags}
                hint="Comma separated"
                onChange={(e) => set('tags', e.target.value)}
              />
              <div className="space-y-2">
                <TextField
                  label="Featured image URL"
                  value={draft.featuredImage}
                  placeholder="https://… or upload"
                  onChange={(e) => set('featuredImage', e.target.value)}
                />
                <input
                  ref={fileRef}
                  type="file"
                  accept="image/*"
                  className="sr-only"
                  aria-label="Upload featured image"
                  onChange={(e) => void onFile(e)}
                />
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    variant="outline"
                    loading={uploading}
                    onClick={() => fileRef.current?.click()}
                  >
                    Upload Image
                  </Button>
                  {draft.featuredImage ? (
                    <Button size="sm" variant="ghost" onClick={() => set('featuredImage', '')}>
                      Remove Image
                    </Button>
                  ) : null}
                </div>
                {draft.featuredImage ? (
                  <img
                    src={draft.featuredImage}
                    alt="Featured image preview"
                    className="max-h-40 rounded-lg border border-slate-200"
                  />
                ) : null}
              </div>
            </CardBody>
          </Card>

          <Card>
            <CardHeader title="SEO" as="h2" />
            <CardBody className="space-y-4">
              <TextField
                label="SEO title"
                value={draft.seoTitle}
                maxLength={200}
                onChange={(e) => set('seoTitle', e.target.value)}
              />
              <TextAreaField
                label="Meta description"
                rows={3}
                maxLength={500}
                value={draft.metaDescription}
                onChange={(e) => set('metaDescription', e.target.value)}
              />
              <TextField
                label="Focus keyword"
                value={draft.focusKeyword}
                maxLength={100}
                onChange={(e) => set('focusKeyword', e.target.value)}
              />
              <TextField
                label="Meta keywords"
                value={draft.metaKeywords}
                hint="Comma separated"
                onChange={(e) => set('metaKeywords', e.target.value)}
              />
              <ul aria-label="SEO analysis" className="space-y-1 text-sm">
                {seo.map((c) => (
                  <li key={c.id} className={c.ok ? 'text-emerald-700' : 'text-amber-800'}>
                    <span aria-hidden="true">{c.ok ? '✓ ' : '✗ '}</span>
                    <span className="sr-only">{c.ok ? 'Passed: ' : 'Needs work: '}</span>
                    {c.label} — {c.detail}
                  </li>
                ))}
              </ul>
            </CardBody>
          </Card>
        </div>
      </div>
      {linkDialog ? (
        <InsertLinkDialog
          open
          initialText={linkDialog.text}
          onInsert={insertLink}
          onClose={() => setLinkDialog(null)}
        />
      ) : null}
    </PageContainer>
  );
}

/** The post editor (spec §2) for /admin/posts/new and /admin/posts/edit/{id}. */
export function PostEditorPage() {
  const { id } = useParams();
  const post = useAdminPost(id);
  if (!id) return <PostEditorForm />;
  if (post.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-24">
        <Spinner size="lg" label="Loading post…" />
      </div>
    );
  }
  if (post.isError) {
    const missing = post.error instanceof ApiError && post.error.status === 404;
    return (
      <PageContainer>
        <Alert tone="error" title={missing ? 'Post Not Found' : 'The post could not be loaded'}>
          <ButtonLink to="/admin/posts" variant="outline" size="sm" className="mt-2">
            Back to Posts
          </ButtonLink>
        </Alert>
      </PageContainer>
    );
  }
  return <PostEditorForm key={post.data.id} post={post.data} />;
}
