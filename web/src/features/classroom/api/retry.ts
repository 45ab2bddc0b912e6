import { ApiError } from '@/lib/api-client';

/** A 4xx (401, 403, 404) will not change by asking again; anything else is retried once. */
export const noRetryOnClientError = (count: number, err: unknown) =>
  !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1;
