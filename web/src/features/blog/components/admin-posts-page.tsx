import { useState } from 'react';
import { Link } from 'react-router';
import type { Post } from '@district/contracts/content';
import { Badge, Button, ButtonLink, ConfirmDialog, QueryState, useToastMutation } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { ApiError } from '@/lib/api-client';
import { formatFullDate, htmlToText, truncate } from '@/lib/format';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import { ADMIN_EXCERPT_LENGTH, ContentAdminMessages } from '../blog.constants';
import { useAllPosts, useDeletePost, useSetPostStatus } from '../api/posts';

/** Spec §9: the admin card excerpt is cut to 100 characters. */
export function adminExcerpt(post: Pick<Post, 'excerpt' | 'content'>): string {
  return truncate(post.excerpt.trim() || htmlToText(post.content), ADMIN_EXCERPT_LENGTH);
}

function PostAdminCard({
  post,
  busy,
  onToggle,
  onDelete,
}: {
  post: Post;
  busy: boolean;
  onToggle: () => void;
  onDelete: () => void;
}) {
  const published = post.status === 'published';
  return (
    <article className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
        <Badge tone={published ? 'success' : 'warning'}>{published ? 'Published' : 'Draft'}</Badge>
        {post.categoryName ? <Badge tone="brand">{post.categoryName}</Badge> : null}
        <time dateTime={post.publishedAt ?? post.createdAt}>
          {formatFullDate(post.publishedAt ?? post.createdAt)}
        </time>
      </div>
      <h2 className="mt-3 text-lg font-semibold text-slate-900">
        {published ? (
          <Link
            to={`/blog/${encodeURIComponent(post.slug)}`}
            className="hover:text-brand-700 hover:underline"
          >
            {post.title}
          </Link>
        ) : (
          post.title
        )}
      </h2>
      <p className="mt-2 flex-1 text-sm text-slate-600">{adminExcerpt(post)}</p>
      <p className="mt-3 text-xs text-slate-500">By {post.authorName}</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <ButtonLink
          to={`/admin/posts/edit/${encodeURIComponent(post.id)}`}
          size="sm"
          variant="outline"
          aria-label={`Edit ${post.title}`}
        >
          Edit
        </ButtonLink>
        <Button
          size="sm"
          variant={published ? 'outline' : 'success'}
          loading={busy}
          onClick={onToggle}
          aria-label={`${published ? 'Unpublish' : 'Publish'} ${post.title}`}
        >
          {published ? 'Unpublish' : 'Publish'}
        </Button>
        <Button size="sm" variant="danger" onClick={onDelete} aria-label={`Delete ${post.title}`}>
          Delete
        </Button>
      </div>
    </article>
  );
}

/** Post management (spec §2): every post as a card with Edit, Publish/Unpublish and Delete. */
export function AdminPostsPage() {
  const posts = useAllPosts();
  const setStatus = useSetPostStatus();
  const deletePost = useToastMutation(useDeletePost(), {
    success: ContentAdminMessages.postDeleted,
    // The server refused: 'Failed to delete post'; the request never completed: 'Error deleting post'.
    error: (err) =>
      err instanceof ApiError && err.status > 0
        ? ContentAdminMessages.postDeleteFailed
        : ContentAdminMessages.postDeleteError,
    log: 'Deleting the post failed',
  });
  const [busyId, setBusyId] = useState<string | null>(null);
  const remove = useConfirmedAction(async (deleting: Post) => {
    await deletePost.run(deleting.id);
  });

  const toggle = async (post: Post) => {
    setBusyId(post.id);
    try {
      await setStatus.mutateAsync({
        id: post.id,
        status: post.status === 'published' ? 'draft' : 'published',
      });
    } catch (err) {
      // Spec §7: status-change failures are only logged.
      console.error('Changing the post status failed', err);
    } finally {
      setBusyId(null);
    }
  };

  return (
    <PageContainer>
      <PageHeader
        title="Post Management"
        description="Edit, publish, unpublish and delete lessons."
        actions={
          <>
            <ButtonLink to="/admin" variant="outline">
              Back to Dashboard
            </ButtonLink>
            <ButtonLink to="/admin/posts/new">New Post</ButtonLink>
          </>
        }
      />
      <QueryState
        query={posts}
        loading="Loading posts…"
        errorTitle="Failed to load posts"
        errorText="Please try again in a moment."
        retryLabel="Try again"
        empty={
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
            <h2 className="text-lg font-semibold text-slate-900">No posts yet</h2>
            <p className="mt-2 text-slate-600">Write the first lesson with New Post.</p>
          </div>
        }
      >
        {(list) => (
          <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {list.map((post) => (
              <li key={post.id}>
                <PostAdminCard
                  post={post}
                  busy={busyId === post.id}
                  onToggle={() => void toggle(post)}
                  onDelete={() => remove.ask(post)}
                />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <ConfirmDialog
        open={remove.target !== null}
        title="Delete post"
        message={ContentAdminMessages.confirmDeletePost}
        confirmLabel="Delete"
        busy={remove.busy}
        onConfirm={() => void remove.confirm()}
        onCancel={remove.cancel}
      />
    </PageContainer>
  );
}
