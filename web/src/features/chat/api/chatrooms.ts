import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  CHAT_LIST_MAX_RETRIES,
  CHAT_LIST_REFETCH_MS,
  CHAT_LIST_RETRY_MS,
  chatroomSummaryListSchema,
  type ChatroomSummary,
} from '@district/contracts/chat';
import { api, ApiError } from '@/lib/api-client';

/** GET /api/chatrooms: the rooms the signed-in person may join (tools spec §7). */
export const chatroomsQueryKey = ['chatrooms'] as const;

export function getChatrooms(signal?: AbortSignal): Promise<ChatroomSummary[]> {
  return api.get('/api/chatrooms', { schema: chatroomSummaryListSchema, signal });
}

/** Spec §7: a 401 is retried up to 2 more times, 1 s apart (the session cookie may still be settling). */
export function retryChatroomsOn401(failureCount: number, error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && failureCount < CHAT_LIST_MAX_RETRIES;
}

/**
 * The room list with the spec's rules: 401 retried twice at 1 s; an empty list fetched once more after 2 s
 * (a room an admin has just created may not have reached the list yet).
 */
export function useChatrooms() {
  const query = useQuery({
    queryKey: chatroomsQueryKey,
    queryFn: ({ signal }) => getChatrooms(signal),
    retry: retryChatroomsOn401,
    retryDelay: CHAT_LIST_RETRY_MS,
  });
  const refetchedEmpty = useRef(false);
  const { data, refetch } = query;
  const empty = data !== undefined && data.length === 0;
  useEffect(() => {
    if (!empty || refetchedEmpty.current) return;
    refetchedEmpty.current = true;
    const timer = setTimeout(() => void refetch(), CHAT_LIST_REFETCH_MS);
    return () => clearTimeout(timer);
  }, [empty, refetch]);
  return query;
}
