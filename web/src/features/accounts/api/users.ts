import { useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  userSchema,
  usersListResponseSchema,
  type Role,
  type User,
  type UsersPageQuery,
} from '@district/contracts/identity';
import { api } from '@/lib/api-client';
import { getPage, usePagedList, type Page } from '@/lib/paging';
import { listRefreshOptions } from '@/lib/react-query';

export const usersQueryKey = ['admin', 'users'] as const;
/** Every searched and paged list of the users screen (ADR 0042): newest first, X-Total-Count, X-Next-Cursor. */
export const usersPagesQueryKey = ['admin', 'users', 'pages'] as const;

export type UsersFilters = Pick<UsersPageQuery, 'q' | 'schoolId' | 'role'>;

/** GET /api/users?q&schoolId&role&cursor: the admin users screen's server search, a page at a time. */
export function useUsersPages(filters: UsersFilters) {
  return usePagedList<User>({
    queryKey: [...usersPagesQueryKey, filters],
    path: '/api/users',
    params: { q: filters.q, schoolId: filters.schoolId, role: filters.role },
    schema: usersListResponseSchema,
    refetchInterval: listRefreshOptions.refetchInterval,
    keepPrevious: true,
  });
}

type UsersPages = InfiniteData<Page<User>>;

/** Applies a change to the user lists held (every searched list) and has the dashboard's counts read again. */
function updateUserLists(client: ReturnType<typeof useQueryClient>, change: (list: User[]) => User[]): void {
  void client.invalidateQueries({ queryKey: userCountsQueryKey });
  client.setQueriesData<UsersPages>({ queryKey: usersPagesQueryKey }, (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, items: change(p.items) })) } : data,
  );
}

/** The admin dashboard's figures: every account, and those waiting for approval. */
export interface UserCounts {
  total: number;
  pending: number;
}

export const userCountsQueryKey = [...usersQueryKey, 'counts'] as const;

/**
 * The dashboard's counts from the server's `X-Total-Count` of two one-row pages (ADR 0042): a district's 42,000
 * accounts are never fetched to be counted. A server that sends no count is counted from its rows.
 */
export function useUserCounts() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: userCountsQueryKey,
    queryFn: async ({ signal }): Promise<UserCounts> => {
      const [all, waiting] = await Promise.all([
        getPage('/api/users', { limit: 1 }, usersListResponseSchema, signal),
        getPage('/api/users', { limit: 1, approved: 'false' }, usersListResponseSchema, signal),
      ]);
      return {
        total: all.total ?? all.items.length,
        pending: waiting.total ?? waiting.items.filter((u) => !u.approved).length,
      };
    },
  });
}

const usersPath = (id: string) => `/api/users/${encodeURIComponent(id)}`;

export const setApproval = (id: string, approved: boolean) =>
  api.patch(`${usersPath(id)}/approval`, { approved }, { schema: userSchema });
export const setRole = (id: string, role: Role) =>
  api.patch(`${usersPath(id)}/role`, { role }, { schema: userSchema });
export const setAdmin = (id: string, isAdmin: boolean) =>
  api.patch(`${usersPath(id)}/admin`, { isAdmin }, { schema: userSchema });
export const deleteUser = (id: string) => api.delete(usersPath(id));
export const resetPassword = (id: string, newPassword: string) =>
  api.put(`/api/admin/users/${encodeURIComponent(id)}/password`, { newPassword }, { schema: userSchema });

export type UserChange =
  | { kind: 'approval'; id: string; approved: boolean }
  | { kind: 'role'; id: string; role: Role }
  | { kind: 'admin'; id: string; isAdmin: boolean };

function applyChange(change: UserChange): Promise<User> {
  switch (change.kind) {
    case 'approval':
      return setApproval(change.id, change.approved);
    case 'role':
      return setRole(change.id, change.role);
    case 'admin':
      return setAdmin(change.id, change.isAdmin);
  }
}

/** Approve/suspend, role and admin flag; the answer (the updated user) replaces the row in the cache. */
export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: applyChange,
    onSuccess: (updated) => {
      updateUserLists(client, (list) => list.map((u) => (u.id === updated.id ? updated : u)));
    },
  });
}

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_void, id) => {
      updateUserLists(client, (list) => list.filter((u) => u.id !== id));
    },
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ id, newPassword }: { id: string; newPassword: string }) => resetPassword(id, newPassword),
  });
}
