import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RosterImport, RosterImportAccepted, RosterImportSummary } from '@district/contracts/identity';
import { api, ApiError } from '@/lib/api-client';
import { IMPORT_POLL_MS } from '../district.constants';

/**
 * The district administrator's roster imports (ADR 0042): POST /api/admin/roster/imports (multipart `file`) → 202,
 * GET …/{id} (polled while it runs), GET … (the history, newest first), GET …/{id}/errors.csv (a download link).
 */
const contract = () => import('./identity-contract');
const IMPORTS = '/api/admin/roster/imports';

export const rosterImportsQueryKey = ['district', 'roster-imports'] as const;
export const rosterImportQueryKey = (id: string) => [...rosterImportsQueryKey, id] as const;

export const importErrorsCsvUrl = (id: string) => `${IMPORTS}/${encodeURIComponent(id)}/errors.csv`;

export const uploadRoster = (file: File): Promise<RosterImportAccepted> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post(IMPORTS, form, { schema: () => contract().then((m) => m.rosterImportAcceptedSchema) });
};

export const getRosterImport = (id: string, signal?: AbortSignal): Promise<RosterImport> =>
  api.get(`${IMPORTS}/${encodeURIComponent(id)}`, {
    schema: () => contract().then((m) => m.rosterImportSchema),
    signal,
  });

export const getRosterImports = (signal?: AbortSignal): Promise<RosterImportSummary[]> =>
  api.get(IMPORTS, { schema: () => contract().then((m) => m.rosterImportSummarySchema.array()), signal });

export const inProgress = (i: Pick<RosterImport, 'status'>) =>
  i.status === 'queued' || i.status === 'running';

const notRetried = (count: number, err: Error) =>
  !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1;

/** One import, asked every second while it is queued or running; the history follows when it ends. */
export function useRosterImport(id: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: rosterImportQueryKey(id ?? ''),
    enabled: id !== null,
    queryFn: async ({ signal }) => {
      const found = await getRosterImport(id!, signal);
      if (!inProgress(found)) void client.invalidateQueries({ queryKey: rosterImportsQueryKey, exact: true });
      return found;
    },
    refetchInterval: (query) => (query.state.data && !inProgress(query.state.data) ? false : IMPORT_POLL_MS),
    retry: notRetried,
  });
}

export function useRosterImports() {
  return useQuery({
    queryKey: rosterImportsQueryKey,
    queryFn: ({ signal }) => getRosterImports(signal),
    retry: notRetried,
  });
}

export function useUploadRoster() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: uploadRoster,
    onSuccess: () => void client.invalidateQueries({ queryKey: rosterImportsQueryKey, exact: true }),
  });
}
