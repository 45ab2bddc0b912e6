import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  seoSettingsSchema,
  sitemapGenerateResponseSchema,
  type SeoSettings,
} from '@district/contracts/content';
import { api } from '@/lib/api-client';

/** Site-wide SEO settings and the sitemap (spec §7, admins only). */

export const seoSettingsQueryKey = ['admin', 'seo-settings'] as const;

export const getSeoSettings = (signal?: AbortSignal): Promise<SeoSettings> =>
  api.get('/api/seo/settings', { schema: seoSettingsSchema, signal });
export const saveSeoSettings = (body: SeoSettings): Promise<SeoSettings> =>
  api.post('/api/seo/settings', body, { schema: seoSettingsSchema });
export const generateSitemap = () =>
  api.post('/api/seo/sitemap/generate', undefined, { schema: sitemapGenerateResponseSchema });

export function useSeoSettings() {
  return useQuery({ queryKey: seoSettingsQueryKey, queryFn: ({ signal }) => getSeoSettings(signal) });
}

/** The saved settings (as the server normalised them) replace the cached ones. */
export function useSaveSeoSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveSeoSettings,
    onSuccess: (saved) => client.setQueryData(seoSettingsQueryKey, saved),
  });
}

export function useGenerateSitemap() {
  return useMutation({ mutationFn: generateSitemap });
}
