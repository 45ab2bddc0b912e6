import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  googleSlideListSchema,
  googleSlideSchema,
  type GoogleSlide,
  type GoogleSlideInput,
} from '@district/contracts/classroom';
import { api } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';
import { noRetryOnClientError } from './retry';

/** Google Slides (classroom-tools §7): GET/POST /api/google-slides, PUT/DELETE /api/google-slides/{id}. */
export const GOOGLE_SLIDES_PATH = '/api/google-slides';
export const googleSlidesQueryKey = ['classroom', 'google-slides'] as const;
const slidePath = (id: string) => `${GOOGLE_SLIDES_PATH}/${encodeURIComponent(id)}`;

/** The body of POST and PUT (spec §7). `embedUrl` is sent as the spec's client does; the server derives its own. */
export type GoogleSlideWrite = GoogleSlideInput & { embedUrl: string };

export const getGoogleSlides = (signal?: AbortSignal): Promise<GoogleSlide[]> =>
  api.get(GOOGLE_SLIDES_PATH, { schema: googleSlideListSchema, signal });

export function useGoogleSlides(enabled = true) {
  return useQuery({
    ...listRefreshOptions,
    enabled,
    queryKey: googleSlidesQueryKey,
    queryFn: ({ signal }) => getGoogleSlides(signal),
    retry: noRetryOnClientError,
  });
}

export function useSaveGoogleSlide() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: GoogleSlideWrite }) =>
      id
        ? api.put(slidePath(id), body, { schema: googleSlideSchema })
        : api.post(GOOGLE_SLIDES_PATH, body, { schema: googleSlideSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: googleSlidesQueryKey }),
  });
}

export function useDeleteGoogleSlide() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(slidePath(id)),
    onSuccess: (_void, id) => {
      client.setQueryData<GoogleSlide[]>(googleSlidesQueryKey, (list) => list?.filter((s) => s.id !== id));
      void client.invalidateQueries({ queryKey: googleSlidesQueryKey });
    },
  });
}
