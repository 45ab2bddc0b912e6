import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { Post } from '@district/contracts/content';
import {
  Alert,
  Button,
  ButtonLink,
  QueryState,
  Spinner,
  TextAreaField,
  TextField,
  useToastMutation,
} from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { saveErrorInline, savePostErrorText, usePost, useSavePost } from '../../api/posts';
import { draftToRequest, usePostDraft } from '../../hooks/use-post-draft';
import { HtmlPreview } from './html-preview';
import { PostContentEditor, useContentMode } from './post-content-editor';
import { PostSeoPanel } from './post-seo-panel';
import { PostSettingsPanel } from './post-settings-panel';

/**
 * Spec §8: a refused save is alerted as 'Failed to save post: {status}' (a toast), and the editor itself always
 * shows 'Error saving post: {message or Unknown error}' where the admin is working, refusal or not (issue #34).
 */
export function saveErrorText(err: unknown): { toast: string | null; inline: string } {
  const refused = err instanceof ApiError && err.status >= 400;
  return { toast: refused ? savePostErrorText(err) : null, inline: saveErrorInline(err) };
}

function PostEditorForm({ post }: { post?: Post }) {
  const navigate = useNavigate();
  const { draft, set } = usePostDraft(post);
  const savePost = useToastMutation(useSavePost(post?.id), {
    success: 'Post saved successfully',
    // Spec §8: an alert-style toast for a refusal ('Failed to save post: {status}'), the inline text always.
    error: (err) => saveErrorText(err).toast ?? null,
    log: 'Saving the post failed',
  });
  const contentMode = useContentMode();
  const [mode, setMode] = useState<'edit' | 'preview'>('edit');
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    setError(null);
    const request = draftToRequest(draft, post);
    if ('error' in request) {
      setError(request.error);
      return;
    }
    const outcome = await savePost.run(request.body);
    if (outcome.ok) void navigate('/admin/posts');
    else setError(saveErrorText(outcome.error).inline);
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

  return (
    <PageContainer>
      <PageHeader
        title={post ? 'Edit Post' : 'New Post'}
        actions={
          <>
            <ButtonLink to="/admin/posts" variant="outline">
              Cancel
            </ButtonLink>
            <Button onClick={() => void save()} loading={savePost.isPending}>
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

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
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
              <PostContentEditor
                content={draft.content}
                onChange={(html) => set('content', html)}
                contentMode={contentMode}
              />
              <div>
                <h2 className="mb-2 text-sm font-medium text-slate-700">Live preview</h2>
                <HtmlPreview title="Live preview" html={draft.content} />
              </div>
            </>
          )}
        </div>

        <div className="space-y-6">
          <PostSettingsPanel draft={draft} set={set} />
          <PostSeoPanel draft={draft} set={set} />
        </div>
      </div>
    </PageContainer>
  );
}

/** The post editor (spec §2) for /admin/posts/new and /admin/posts/edit/{id}. */
export function PostEditorPage() {
  const { id } = useParams();
  const post = usePost(id);
  if (!id) return <PostEditorForm />;
  return (
    <QueryState
      query={post}
      loadingView={
        <div className="flex flex-1 items-center justify-center py-24">
          <Spinner size="lg" label="Loading post…" />
        </div>
      }
      errorView={({ error }) => (
        <PageContainer>
          <Alert
            tone="error"
            title={
              error instanceof ApiError && error.status === 404
                ? 'Post Not Found'
                : 'The post could not be loaded'
            }
          >
            <ButtonLink to="/admin/posts" variant="outline" size="sm" className="mt-2">
              Back to Posts
            </ButtonLink>
          </Alert>
        </PageContainer>
      )}
    >
      {(loaded) => <PostEditorForm key={loaded.id} post={loaded} />}
    </QueryState>
  );
}
