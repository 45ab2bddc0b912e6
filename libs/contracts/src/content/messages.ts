/** Texts of the spec (shared/spec/blog-accounts-admin.md §5, §8), shared by the content service and web. */
export const ContentMessages = {
  enterTitle: 'Please enter a title',
  signInToComment: 'Please sign in to leave comments.',
  selectImageFile: 'Please select an image file',
  imageTooLarge: 'Image size must be less than 5MB',
  postNotFoundPage: "Post Not Found - The blog post you're looking for doesn't exist or has been removed.",
  commentsLoadFailed: 'Failed to load comments. Please try refreshing the page.',
  saveCategoryFailed: 'Failed to save category',
  saveSeoFailed: 'Failed to save SEO settings',
  generateSitemapFailed: 'Failed to generate sitemap',
  pendingApproval: 'Pending Approval',
  // Server answers the spec does not word; kept short and in the spec's tone.
  postNotFound: 'Post not found',
  categoryNotFound: 'Category not found',
  commentNotFound: 'Comment not found',
  imageNotFound: 'Image not found',
  categoryNameRequired: 'Please enter a category name',
  categorySlugTaken: 'A category with this slug already exists',
  postSlugTaken: 'A post with this slug already exists',
  commentEmpty: 'Please write a comment before posting',
  replyNotAllowed: 'You can only reply to an approved top-level comment',
  sitemapDisabled: 'The sitemap is turned off in the SEO settings',
  tooManyComments: 'Too many comments. Please wait a moment and try again.',
} as const;

/** Spec §9 and the limits. */
/** The largest image accepted: 'Image size must be less than 5MB', so 5 MiB itself is refused. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024 - 1;
export const READ_TIME_CHARS_PER_MINUTE = 200;
export const PUBLIC_POSTS_DEFAULT_LIMIT = 20;
export const PUBLIC_POSTS_MAX_LIMIT = 100;
export const POST_TITLE_MAX = 200;
export const COMMENT_MAX_LENGTH = 5000;
export const POST_CONTENT_MAX_LENGTH = 500_000;
