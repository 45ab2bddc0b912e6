import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ContentMessages, type Comment } from '@district/contracts/content';
import { Alert, Badge, Button, QueryState, Spinner } from '@/components/ui';
import { useSession } from '@/lib/auth';
import { formatFullDate, formatRelativeDate } from '@/lib/format';
import { useAddComment, usePostComments } from '../api/comments';

function CommentForm({
  postId,
  parentId,
  label,
  onDone,
}: {
  postId: string;
  parentId: string | null;
  label: string;
  onDone?: () => void;
}) {
  const add = useAddComment(postId);
  const [text, setText] = useState('');
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const content = text.trim();
    if (!content) return;
    let posted = false;
    try {
      await add.mutateAsync({ content, parentId });
      posted = true;
      setText('');
      onDone?.();
    } catch (err) {
      // Spec §8: a failed comment post is only logged; the text stays in the box to try again.
      console.error('Posting the comment failed', err);
    }
    // The submit button is disabled while posting (and again once the box is empty), which drops keyboard focus to
    // the page: put it back in the box (a reply form closes instead; its Reply button is gone too).
    if (!posted || !onDone) box.current?.focus();
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        ref={box}
        id={id}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={parentId ? 2 : 3}
        maxLength={5000}
        className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20"
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" loading={add.isPending} disabled={!text.trim()}>
          {parentId ? 'Post Reply' : 'Post Comment'}
        </Button>
        {onDone ? (
          <Button type="button" size="sm" variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function CommentItem({ comment, postId, canReply }: { comment: Comment; postId: string; canReply: boolean }) {
  const [replying, setReplying] = useState(false);
  const replyButton = useRef<HTMLButtonElement>(null);
  const wasReplying = useRef(false);
  // Posting or cancelling a reply removes its form, and the focus in it: back to this comment's Reply button.
  useEffect(() => {
    if (wasReplying.current && !replying) {
      const active = document.activeElement;
      if (!active || active === document.body || !active.isConnected) replyButton.current?.focus();
    }
    wasReplying.current = replying;
  }, [replying]);
  // Replies go one level deep, and only under approved top-level comments (spec §5).
  const replyable = canReply && comment.parentId === null && comment.status === 'approved';
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-semibold text-slate-900">{comment.authorName}</span>
        <time
          dateTime={comment.createdAt}
          title={formatFullDate(comment.createdAt)}
          className="text-slate-500"
        >
          {formatRelativeDate(comment.createdAt)}
        </time>
        {comment.status === 'pending' ? (
          <Badge tone="warning">{ContentMessages.pendingApproval}</Badge>
        ) : null}
      </div>
      {/* Comment HTML is sanitised by the content service when written (allow-list), so it is safe to render. */}
      <div
        className="prose prose-sm mt-2 max-w-none text-slate-700"
        dangerouslySetInnerHTML={{ __html: comment.content }}
      />
      {replyable && !replying ? (
        <Button
          ref={replyButton}
          variant="ghost"
          size="sm"
          className="mt-2"
          aria-label={`Reply to ${comment.authorName}`}
          onClick={() => setReplying(true)}
        >
          Reply
        </Button>
      ) : null}
      {replying ? (
        <div className="mt-3">
          <CommentForm
            postId={postId}
            parentId={comment.id}
            label={`Reply to ${comment.authorName}`}
            onDone={() => setReplying(false)}
          />
        </div>
      ) : null}
      {comment.replies && comment.replies.length > 0 ? (
        <ul className="mt-3 space-y-3 border-l-2 border-slate-100 pl-4">
          {comment.replies.map((reply) => (
            <CommentItem key={reply.id} comment={reply} postId={postId} canReply={false} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function CommentsSection({ postId }: { postId: string }) {
  const { user } = useSession();
  const comments = usePostComments(postId);
  const count = (comments.data ?? []).reduce((n, c) => n + 1 + (c.replies?.length ?? 0), 0);

  return (
    <section aria-labelledby="comments-title" className="mt-12 border-t border-slate-200 pt-8">
      <h2 id="comments-title" className="text-xl font-bold text-slate-900">
        Comments{comments.data ? ` (${count})` : ''}
      </h2>
      <div className="mt-4">
        {user ? (
          <CommentForm postId={postId} parentId={null} label="Leave a comment" />
        ) : (
          <Alert tone="info">{ContentMessages.signInToComment}</Alert>
        )}
      </div>
      <div className="mt-6">
        <QueryState
          query={comments}
          loadingView={<Spinner label="Loading comments…" />}
          // Spec §8 asks for a page refresh here, so no retry button.
          errorText={() => ContentMessages.commentsLoadFailed}
          retry={false}
          empty={<p className="text-slate-600">No comments yet. Be the first to share your thoughts.</p>}
        >
          {(list) => (
            <ul className="space-y-4">
              {list.map((c) => (
                <CommentItem key={c.id} comment={c} postId={postId} canReply={Boolean(user)} />
              ))}
            </ul>
          )}
        </QueryState>
      </div>
    </section>
  );
}
