import { useEffect, useMemo, useRef, useState } from 'react';
import type { Comment } from '@district/contracts/content';
import { Badge, Button, ButtonLink, ConfirmDialog, QueryState, useToastMutation } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { cn } from '@/lib/cn';
import { formatFullDate, formatRelativeDate, htmlToText } from '@/lib/format';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import { ContentAdminMessages } from '../blog.constants';
import { useAllComments, useDeleteComment, useSetCommentStatus } from '../api/comments';

type Filter = 'all' | 'pending' | 'approved';

/** Comment moderation (spec §2): All / Pending / Approved with counts, approve/unapprove and delete. */
export function AdminCommentsPage() {
  const comments = useAllComments();
  const setStatus = useSetCommentStatus();
  const deleteComment = useToastMutation(useDeleteComment(), {
    success: ContentAdminMessages.commentDeleted,
    error: ContentAdminMessages.commentDeleteFailed,
    log: 'Deleting the comment failed',
  });
  const [filter, setFilter] = useState<Filter>('all');
  const [busyId, setBusyId] = useState<string | null>(null);
  // A deleted comment takes its Delete button (the dialog's opener) with it, and an approved one leaves the Pending
  // filter with its button: focus then goes to the comment now in its place instead of the top of the page.
  const lastFocusedAt = useRef<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const filterRef = useRef<HTMLDivElement>(null);
  const remove = useConfirmedAction(async (deleting: Comment) => {
    await deleteComment.run(deleting.id);
  });

  const all = useMemo(() => comments.data ?? [], [comments.data]);
  const counts = {
    all: all.length,
    pending: all.filter((c) => c.status === 'pending').length,
    approved: all.filter((c) => c.status === 'approved').length,
  };
  const visible = filter === 'all' ? all : all.filter((c) => c.status === filter);

  useEffect(() => {
    const at = lastFocusedAt.current;
    if (at === null || remove.target !== null) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    lastFocusedAt.current = null;
    // The comment now in its place (or the last one), else the chosen filter.
    const items = listRef.current?.querySelectorAll<HTMLElement>(':scope > li') ?? [];
    const item = items[Math.min(Math.max(at, 0), items.length - 1)];
    (
      item?.querySelector<HTMLElement>('button') ??
      filterRef.current?.querySelector<HTMLElement>('button[aria-pressed="true"]')
    )?.focus();
  }, [visible, remove.target]);
  const filters: Array<{ id: Filter; label: string }> = [
    { id: 'all', label: `All (${counts.all})` },
    { id: 'pending', label: `Pending (${counts.pending})` },
    { id: 'approved', label: `Approved (${counts.approved})` },
  ];

  const toggle = async (c: Comment) => {
    setBusyId(c.id);
    try {
      await setStatus.mutateAsync({ id: c.id, status: c.status === 'approved' ? 'pending' : 'approved' });
    } catch (err) {
      // Spec §7: status-change failures are only logged.
      console.error('Changing the comment status failed', err);
    } finally {
      setBusyId(null);
    }
  };

  return (
    <PageContainer>
      <PageHeader
        title="Comment Moderation"
        description="Approve, unapprove and delete comments and replies."
        actions={
          <ButtonLink to="/admin" variant="outline">
            Back to Dashboard
          </ButtonLink>
        }
      />
      <div
        ref={filterRef}
        role="group"
        aria-label="Filter by status"
        className="mb-4 inline-flex rounded-lg border border-slate-200 bg-white p-1"
      >
        {filters.map((f) => (
          <button
            key={f.id}
            type="button"
            aria-pressed={filter === f.id}
            onClick={() => setFilter(f.id)}
            className={cn(
              'rounded-md px-3 py-1.5 text-sm font-medium',
              filter === f.id ? 'bg-brand-700 text-white' : 'text-slate-600 hover:bg-slate-100',
            )}
          >
            {f.label}
          </button>
        ))}
      </div>

      <QueryState
        query={comments}
        loading="Loading comments…"
        errorTitle="Failed to load comments"
        errorText="Please try again in a moment."
        retryLabel="Try again"
        isEmpty={() => visible.length === 0}
        empty={
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-600">
            {all.length === 0 ? 'No comments yet.' : 'No comments match this filter.'}
          </p>
        }
      >
        {() => (
          <ul
            ref={listRef}
            className="space-y-4"
            aria-label="Comments"
            onFocus={(e) => {
              const items = Array.from(e.currentTarget.children);
              lastFocusedAt.current = items.findIndex((li) => li.contains(e.target));
            }}
          >
            {visible.map((c) => {
              const approved = c.status === 'approved';
              const label = `comment by ${c.authorName}: ${htmlToText(c.content).slice(0, 40)}`;
              return (
                <li key={c.id} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    <span className="font-semibold text-slate-900">{c.authorName}</span>
                    <Badge tone={approved ? 'success' : 'warning'}>{approved ? 'Approved' : 'Pending'}</Badge>
                    {c.parentId ? <Badge>Reply</Badge> : null}
                    <time
                      dateTime={c.createdAt}
                      title={formatFullDate(c.createdAt)}
                      className="text-slate-500"
                    >
                      {formatRelativeDate(c.createdAt)}
                    </time>
                  </div>
                  {c.postTitle ? <p className="mt-1 text-xs text-slate-500">On: {c.postTitle}</p> : null}
                  {/* Comment HTML is sanitised by the content service when written (allow-list), so it is safe to render. */}
                  <div
                    className="mt-2 text-sm text-slate-700"
                    dangerouslySetInnerHTML={{ __html: c.content }}
                  />
                  <div className="mt-3 flex gap-2">
                    <Button
                      size="sm"
                      variant={approved ? 'outline' : 'success'}
                      loading={busyId === c.id}
                      aria-label={`${approved ? 'Unapprove' : 'Approve'} ${label}`}
                      onClick={() => void toggle(c)}
                    >
                      {approved ? 'Unapprove' : 'Approve'}
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      aria-label={`Delete ${label}`}
                      onClick={() => remove.ask(c)}
                    >
                      Delete
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
      <ConfirmDialog
        open={remove.target !== null}
        title="Delete comment"
        message="Are you sure you want to delete this comment? Its replies are deleted too."
        confirmLabel="Delete"
        busy={remove.busy}
        onConfirm={() => void remove.confirm()}
        onCancel={remove.cancel}
      />
    </PageContainer>
  );
}
