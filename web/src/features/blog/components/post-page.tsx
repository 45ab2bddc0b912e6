import { useState } from 'react';
import { useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ContentMessages, type Post } from '@district/contracts/content';
import {
  Badge,
  Button,
  ButtonLink,
  QueryState,
  type QueryErrorView,
  Spinner,
  TextField,
  useToast,
  useToastMutation,
} from '@/components/ui';
import { DocumentTitle, PageContainer } from '@/components/layout';
import { ApiError } from '@/lib/api-client';
import { isAdmin, useSession } from '@/lib/auth';
import { formatFullDate } from '@/lib/format';
import { announceBlogDataUpdated } from '@/lib/react-query';
import { savePostErrorText, updatePost } from '../api/posts';
import { postCategory, postDate, publicPostQueryKey, usePublicPost } from '../api/public-posts';
import { articleClasses } from './article-styles';
import { CommentsSection } from './comments-section';

function InlineEditor({ post, onDone }: { post: Post; onDone: () => void }) {
  const client = useQueryClient();
  const { toast } = useToast();
  const [title, setTitle] = useState(post.title);
  const [content, setContent] = useState(post.content);
  const save = useToastMutation(
    useMutation({
      mutationFn: () => updatePost(post.id, { title: title.trim(), content }),
      onSuccess: (updated) => {
        client.setQueryData(publicPostQueryKey(post.slug), updated);
        announceBlogDataUpdated();
      },
    }),
    { success: 'Post updated successfully', error: savePostErrorText, log: 'Saving the post failed' },
  );

  return (
    <form
      aria-label="Edit post"
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!title.trim()) {
          toast({ type: 'error', message: ContentMessages.enterTitle });
          return;
        }
        void save.run().then(({ ok }) => {
          if (ok) onDone();
        });
      }}
    >
      <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
      <div>
        <label htmlFor="inline-content" className="mb-1 block text-sm font-medium text-slate-700">
          Content (HTML)
        </label>
        <textarea
          id="inline-content"
          value={content}
          onChange={(e) => setContent(e.target.value)}
          rows={18}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20"
        />
      </div>
      <div className="flex gap-2">
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
        <Button type="button" variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** A post that could not be shown: missing (spec §8's 'Post Not Found'), or a failure worth retrying. */
function PostUnavailable({ error, retry }: QueryErrorView) {
  const missing = error instanceof ApiError && error.status === 404;
  const [heading, text] = ContentMessages.postNotFoundPage.split(' - ');
  return (
    <PageContainer className="flex flex-1 items-center justify-center">
      <section className="max-w-xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        {missing ? (
          <>
            <DocumentTitle title={heading} />
            <h1 className="text-2xl font-bold text-slate-900">{heading}</h1>
            <p className="mt-3 text-slate-600">{text}</p>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold text-slate-900">This lesson is unavailable right now</h1>
            <p className="mt-3 text-slate-600">We could not load the lesson. Please try again in a moment.</p>
            {retry('mt-4')}
          </>
        )}
        <div className="mt-6">
          <ButtonLink to="/blog" variant="outline">
            Browse Posts
          </ButtonLink>
        </div>
      </section>
    </PageContainer>
  );
}

/** The post page (spec §2): title, tags, read time, content and comments; admins edit inline. */
export function PostPage() {
  const { slug = '' } = useParams();
  const { user } = useSession();
  const post = usePublicPost(slug);
  const [editing, setEditing] = useState(false);
  const admin = isAdmin(user);

  return (
    <QueryState
      query={post}
      loadingView={
        <div className="flex flex-1 items-center justify-center py-24">
          <Spinner size="lg" label="Loading post…" />
        </div>
      }
      retryLabel="Try again"
      errorView={({ error, retry }) => <PostUnavailable error={error} retry={retry} />}
    >
      {(p) => {
        const category = postCategory(p);
        return (
          <PageContainer className="max-w-3xl">
            <DocumentTitle title={p.seoTitle || p.title} />
            {editing ? (
              <InlineEditor post={p} onDone={() => setEditing(false)} />
            ) : (
              <article
                onDoubleClick={admin ? () => setEditing(true) : undefined}
                title={admin ? 'Double-click to edit' : undefined}
              >
                <header>
                  <div className="flex flex-wrap items-center gap-2 text-sm text-slate-500">
                    {category ? <Badge tone="brand">{category}</Badge> : null}
                    <time dateTime={postDate(p)}>{formatFullDate(postDate(p))}</time>
                    <span aria-hidden="true">·</span>
                    <span>{p.readTime} min read</span>
                    <span aria-hidden="true">·</span>
                    <span>By {p.authorName}</span>
                  </div>
                  <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
                    {p.title}
                  </h1>
                  {p.tags.length > 0 ? (
                    <ul aria-label="Tags" className="mt-4 flex flex-wrap gap-2">
                      {p.tags.map((tag) => (
                        <li key={tag}>
                          <Badge>#{tag}</Badge>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {admin ? (
                    <Button variant="outline" size="sm" className="mt-4" onClick={() => setEditing(true)}>
                      Edit Post
                    </Button>
                  ) : null}
                </header>
                {p.featuredImage ? (
                  <img src={p.featuredImage} alt="" className="mt-6 w-full rounded-2xl object-cover" />
                ) : null}
                {/* Post HTML is sanitised by the content service when saved (allow-list: no scripts, handlers or unsafe URLs). */}
                <div className={`mt-8 ${articleClasses}`} dangerouslySetInnerHTML={{ __html: p.content }} />
              </article>
            )}
            <CommentsSection postId={p.id} />
          </PageContainer>
        );
      }}
    </QueryState>
  );
}
