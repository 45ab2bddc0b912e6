/**
 * Lists that grow with a district (users, classes, grades) page on the server (ADR 0042): `limit` (default
 * `PAGE_LIMIT_DEFAULT`, at most `PAGE_LIMIT_MAX`) and an opaque `cursor`; the answer carries the whole list's count
 * in `X-Total-Count` and the next page's cursor in `X-Next-Cursor` (absent on the last page).
 */
export const PAGE_LIMIT_MAX = 500;
export const PAGE_LIMIT_DEFAULT = 100;
/** Response header carrying the total of a paginated list. */
export const TOTAL_COUNT_HEADER = 'x-total-count';
/** Response header carrying the next page's cursor. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';
