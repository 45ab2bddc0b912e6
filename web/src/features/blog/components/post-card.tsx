import { Link } from 'react-router';
import type { Post } from '@district/contracts/content';
import { Badge, buttonClasses } from '@/components/ui';
import { SignInLink } from '@/components/layout';
import { formatFullDate, formatRelativeDate, htmlToText, truncate } from '@/lib/format';
import { postCategory, postDate } from '../api/public-posts';
import { Highlight } from './highlight';

const EXCERPT_LENGTH = 160;

/**
 * A lesson card. Read More (spec section 2): a signed-out visitor goes to the third-party sign-in, or where the site
 * has none to the email dialog, which then opens this lesson (ADR 0034); a signed-in user opens the post.
 * `highlight` marks search words in the title and excerpt (the blog list).
 */
export function PostCard({
  post,
  signedIn,
  highlight = [],
  headingLevel = 3,
}: {
  post: Post;
  signedIn: boolean;
  highlight?: string[];
  /** The card title's level under the page's outline: 2 right under the page title (/blog), 3 under a section. */
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const category = postCategory(post);
  const date = postDate(post);
  const excerpt = post.excerpt.trim() || truncate(htmlToText(post.content), EXCERPT_LENGTH);
  const href = `/blog/${encodeURIComponent(post.slug || post.id)}`;
  const readMoreLabel = `Read More: ${post.title}`;

  return (
    <article className="flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md">
      {post.featuredImage ? (
        <img
          src={post.featuredImage}
          alt=""
          loading="lazy"
          decoding="async"
          className="aspect-[16/9] w-full bg-slate-100 object-cover"
        />
      ) : (
        <div
          aria-hidden="true"
          className="flex aspect-[16/9] w-full items-center justify-center bg-gradient-to-br from-brand-700 to-brand-900"
        >
          <span className="px-6 text-center text-lg font-semibold text-white/90">
            {truncate(post.title, 60)}
          </span>
        </div>
      )}
      <div className="flex flex-1 flex-col p-5">
        <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
          {category ? <Badge tone="brand">{category}</Badge> : null}
          <time dateTime={date} title={formatFullDate(date)}>
            {formatRelativeDate(date, { withWeeks: true })}
          </time>
          <span aria-hidden="true">·</span>
          <span>{post.readTime} min read</span>
        </div>
        <Heading className="mt-3 text-lg font-semibold leading-snug text-slate-900">
          <Highlight text={post.title} words={highlight} />
        </Heading>
        {excerpt ? (
          <p className="mt-2 line-clamp-3 text-sm text-slate-600">
            <Highlight text={excerpt} words={highlight} />
          </p>
        ) : null}
        <div className="mt-auto flex items-center justify-between gap-3 pt-5">
          {post.authorName ? (
            <span className="truncate text-xs text-slate-500">By {post.authorName}</span>
          ) : (
            <span />
          )}
          {signedIn ? (
            <Link to={href} className={buttonClasses('secondary', 'sm')} aria-label={readMoreLabel}>
              Read More
            </Link>
          ) : (
            <SignInLink returnTo={href} className={buttonClasses('secondary', 'sm')} label={readMoreLabel}>
              Read More
            </SignInLink>
          )}
        </div>
      </div>
    </article>
  );
}

export function PostCardSkeleton() {
  return (
    <div aria-hidden="true" className="overflow-hidden rounded-2xl border border-slate-200 bg-white">
      <div className="aspect-[16/9] animate-pulse bg-slate-200" />
      <div className="space-y-3 p-5">
        <div className="h-3 w-1/3 animate-pulse rounded bg-slate-200" />
        <div className="h-5 w-4/5 animate-pulse rounded bg-slate-200" />
        <div className="h-3 w-full animate-pulse rounded bg-slate-100" />
        <div className="h-3 w-2/3 animate-pulse rounded bg-slate-100" />
      </div>
    </div>
  );
}
