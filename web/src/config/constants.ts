/** Constants of the spec (blog-accounts-admin.md sections 4 and 9), in one place so code and tests agree. */
export const USER_STORAGE_KEY = 'user';
export const USER_UPDATED_EVENT = 'userUpdated';
export const BLOG_DATA_UPDATED_EVENT = 'blog-data-updated';

export const LIST_REFRESH_INTERVAL_MS = 30_000;
export const HOME_POSTS_LIMIT = 6;

export const TOAST_SUCCESS_MS = 3_000;
export const TOAST_ERROR_MS = 5_000;

export const READ_TIME_CHARS_PER_MINUTE = 200;

/** Third-party sign-in is a full browser navigation, never a fetch. */
export const THIRD_PARTY_SIGN_IN_URL = '/api/auth/google';
