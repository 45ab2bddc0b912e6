/** Spec §9: search matches are highlighted once the user has stopped typing this long. */
export const SEARCH_HIGHLIGHT_DELAY_MS = 300;
/** Cards per page of the lesson list (the API's `limit`). */
export const BLOG_PAGE_SIZE = 9;

/** Post page texts of the spec not already in @district/contracts (section 8). */
export const BlogMessages = {
  savePostFailed: (status: number) => `Failed to save post: ${status}`,
} as const;
