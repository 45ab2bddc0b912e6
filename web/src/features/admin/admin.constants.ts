/** Admin-area texts of the spec (sections 5, 6 and 8) not already in @district/contracts. */
export const AdminMessages = {
  userDeleted: 'User deleted successfully',
  userDeleteFailed: 'Failed to delete user',
  passwordResetFailed: 'Failed to reset password',
  passwordResetDone: 'Password reset successfully',
  userUpdateFailed: 'Failed to update user',
  usersLoadFailed: 'Failed to load users',
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
