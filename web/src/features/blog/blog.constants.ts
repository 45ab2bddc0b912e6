/** Spec §9: search matches are highlighted once the user has stopped typing this long. */
export const SEARCH_HIGHLIGHT_DELAY_MS = 300;
/** Cards per page of the lesson list (the API's `limit`). */
export const BLOG_PAGE_SIZE = 9;

/** Post page texts of the spec not already in @district/contracts (section 8). */
export const BlogMessages = {
  savePostFailed: (status: number) => `Failed to save post: ${status}`,
} as const;

/** Content administration texts of the spec (section 8) not already in @district/contracts. */
export const ContentAdminMessages = {
  confirmDeletePost: 'Are you sure you want to delete this post?',
  postDeleted: 'Post deleted successfully',
  postDeleteFailed: 'Failed to delete post',
  postDeleteError: 'Error deleting post',
  categoryCreated: 'Category created successfully',
  categoryUpdated: 'Category updated successfully',
  categoryDeleted: 'Category deleted successfully',
  categoryDeleteFailed: 'Failed to delete category',
  categoriesFetchFailed: 'Failed to fetch categories',
  categoriesLoadError: 'Error loading categories',
  // "Comment delete works the same way" as user delete (spec §8).
  commentDeleted: 'Comment deleted successfully',
  commentDeleteFailed: 'Failed to delete comment',
} as const;

/** Spec §9. */
export const ADMIN_EXCERPT_LENGTH = 100;
export const CATEGORY_DESCRIPTION_LENGTH = 50;
