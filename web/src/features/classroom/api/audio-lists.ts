import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  audioListListSchema,
  audioListSchema,
  type AudioList,
  type AudioListInput,
} from '@district/contracts/classroom';
import { api } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';
import { noRetryOnClientError } from './retry';

/** Audio lists (classroom-tools §7): GET/POST /api/audio-lists, PUT/DELETE /api/audio-lists/{id}. */
export const AUDIO_LISTS_PATH = '/api/audio-lists';
export const audioListsQueryKey = ['classroom', 'audio-lists'] as const;
const listPath = (id: string) => `${AUDIO_LISTS_PATH}/${encodeURIComponent(id)}`;

export const getAudioLists = (signal?: AbortSignal): Promise<AudioList[]> =>
  api.get(AUDIO_LISTS_PATH, { schema: audioListListSchema, signal });

export function useAudioLists(enabled = true) {
  return useQuery({
    ...listRefreshOptions,
    enabled,
    queryKey: audioListsQueryKey,
    queryFn: ({ signal }) => getAudioLists(signal),
    retry: noRetryOnClientError,
  });
}

export function useSaveAudioList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: AudioListInput }) =>
      id
        ? api.put(listPath(id), body, { schema: audioListSchema })
        : api.post(AUDIO_LISTS_PATH, body, { schema: audioListSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: audioListsQueryKey }),
  });
}

export function useDeleteAudioList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(listPath(id)),
    onSuccess: (_void, id) => {
      client.setQueryData<AudioList[]>(audioListsQueryKey, (list) => list?.filter((l) => l.id !== id));
      void client.invalidateQueries({ queryKey: audioListsQueryKey });
    },
  });
}
