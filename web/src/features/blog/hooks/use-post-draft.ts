import { useState } from 'react';
import {
  ContentMessages,
  createPostRequestSchema,
  type CreatePostRequest,
  type Post,
  type PostStatus,
} from '@district/contracts/content';
import { imagesWithoutAlt } from '../components/post-editor/html-tools';
import { parseKeywords } from '../components/seo-analysis';

/** The post editor's fields as typed: lists (tags, meta keywords) stay comma-separated text until saved. */
export interface PostDraft {
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

export type SetDraftField = <K extends keyof PostDraft>(key: K, value: PostDraft[K]) => void;

export function draftOf(post?: Post): PostDraft {
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

/**
 * The request for a draft, or the first problem to show instead: the spec's checks (a title; alt text on every
 * image before publishing), then the contract's schema. `post` is the stored post when editing one.
 */
export function draftToRequest(
  draft: PostDraft,
  post?: Post,
): { body: CreatePostRequest } | { error: string } {
  if (!draft.title.trim()) return { error: ContentMessages.enterTitle };
  const missingAlt = imagesWithoutAlt(draft.content);
  if (draft.status === 'published' && missingAlt > 0) {
    return {
      error: `Add alt text to every image before publishing (${missingAlt} image${missingAlt === 1 ? '' : 's'} without alt text).`,
    };
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
  if (!checked.success) return { error: checked.error.issues[0]?.message ?? 'Please check the post fields' };
  return { body };
}

/** The post editor's form state, started from the stored post (or empty for a new one). */
export function usePostDraft(post?: Post): { draft: PostDraft; set: SetDraftField } {
  const [draft, setDraft] = useState<PostDraft>(() => draftOf(post));
  const set: SetDraftField = (key, value) => setDraft((d) => ({ ...d, [key]: value }));
  return { draft, set };
}
