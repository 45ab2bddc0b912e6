import type { AuthUser } from '@district/nest-common';
import type { Post, PostStatus } from '@district/contracts';
import { sanitizePostHtml } from '../html/html-sanitizer';
import { htmlToText } from '../html/html-text';
import { editedSlug } from './post-slug';
import { excerptOf, readTimeOf } from './post-text';
import type { NewPost, PostChanges } from './posts.repository';

/** Fields of a create or update, already validated by the contracts schema. */
export interface PostInput {
  title?: string;
  slug?: string;
  content?: string;
  excerpt?: string;
  categoryId?: string | null;
  tags?: string[];
  featuredImage?: string | null;
  status?: PostStatus;
  metaDescription?: string;
  metaKeywords?: string[];
  seoTitle?: string;
  focusKeyword?: string;
}

/**
 * A new post's columns. The content is sanitised here, on the way in, so every reader gets safe HTML; its
 * plain text (for search), read time and, when none is given, the excerpt are derived from it.
 */
export function newPost(author: AuthUser, input: PostInput & { title: string }, slug: string): NewPost {
  const content = sanitizePostHtml(input.content ?? '');
  const text = htmlToText(content);
  return {
    slug,
    title: input.title,
    content,
    contentText: text,
    excerpt: excerptOf(input.excerpt, text),
    categoryId: input.categoryId ?? null,
    status: input.status ?? 'draft',
    featuredImage: input.featuredImage ?? null,
    tags: input.tags ?? [],
    authorId: author.id,
    authorName: author.name,
    metaDescription: input.metaDescription ?? '',
    metaKeywords: input.metaKeywords ?? [],
    seoTitle: input.seoTitle ?? '',
    focusKeyword: input.focusKeyword ?? '',
    readTime: readTimeOf(text),
  };
}

/**
 * What an edit changes: the fields sent (the slug only when one is sent and differs), with the derived
 * columns following the content. `storedText` is read only when the excerpt must be made from unchanged text.
 */
export async function postChanges(
  before: Post,
  input: PostInput,
  storedText: () => Promise<string>,
): Promise<PostChanges> {
  const slug = editedSlug(input.slug);
  const changes: PostChanges = {
    title: input.title,
    slug: slug !== before.slug ? slug : undefined,
    categoryId: input.categoryId,
    tags: input.tags,
    featuredImage: input.featuredImage,
    metaDescription: input.metaDescription,
    metaKeywords: input.metaKeywords,
    seoTitle: input.seoTitle,
    focusKeyword: input.focusKeyword,
    status: input.status,
  };
  if (input.content !== undefined) {
    changes.content = sanitizePostHtml(input.content);
    changes.contentText = htmlToText(changes.content);
    changes.readTime = readTimeOf(changes.contentText);
  }
  // An excerpt left blank is made from the text; one never sent stays as it is.
  if (input.excerpt !== undefined)
    changes.excerpt = excerptOf(input.excerpt, changes.contentText ?? (await storedText()));
  return changes;
}
