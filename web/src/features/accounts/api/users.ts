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

/** The screen's server filters; `approved` is its Pending (`false`) / Approved (`true`) filter, absent for All. */
export type UsersFilters = Pick<UsersPageQuery, 'q' | 'schoolId' | 'role'> & { approved?: boolean };

const filterParams = (filters: UsersFilters) => ({
  q: filters.q,
  schoolId: filters.schoolId,
  role: filters.role,
  approved: filters.approved === undefined ? undefined : String(filters.approved),
});

/** GET /api/users?q&schoolId&role&approved&cursor: the admin users screen's server search, a page at a time. */
export function useUsersPages(filters: UsersFilters) {
  return usePagedList<User>({
    queryKey: [...usersPagesQueryKey, filters],
    path: '/api/users',
    params: filterParams(filters),
    schema: usersListResponseSchema,
    refetchInterval: listRefreshOptions.refetchInterval,
    keepPrevious: true,
  });
}

type UsersPages = InfiniteData<Page<User>>;

/**
 * Applies a change to every user list held and has the counts read again. A list filtered by approval drops a user
 * who no longer matches (approved under Pending); a list that loses rows counts them off its total.
 */
function updateUserLists(client: ReturnType<typeof useQueryClient>, change: (list: User[]) => User[]): void {
  void client.invalidateQueries({ queryKey: userCountsQueryKey });
  for (const [key, data] of client.getQueriesData<UsersPages>({ queryKey: usersPagesQueryKey })) {
    if (!data) continue;
    const { approved } = (key[usersPagesQueryKey.length] ?? {}) as UsersFilters;
    let removed = 0;
    const pages = data.pages.map((p) => {
      const items = change(p.items).filter((u) => approved === undefined || u.approved === approved);
      removed += p.items.length - items.length;
      return { ...p, items };
    });
    const [first] = pages;
    if (first && removed > 0 && first.total !== null)
      pages[0] = { ...first, total: Math.max(0, first.total - removed) };
    client.setQueryData<UsersPages>(key, { ...data, pages });
  }
}

/** The admin dashboard's figures: every account, and those waiting for approval. */
export interface UserCounts {
  total: number;
  pending: number;
}

export const userCountsQueryKey = [...usersQueryKey, 'counts'] as const;

/**
 * The count of one filter from the server's `X-Total-Count` of a one-row page (ADR 0042): a district's 42,000
 * accounts are never fetched to be counted. A server that sends no count answers every row: they are counted.
 */
async function countUsers(params: ReturnType<typeof filterParams>, signal: AbortSignal): Promise<number> {
  const page = await getPage('/api/users', { limit: 1, ...params }, usersListResponseSchema, signal);
  const approved = params.approved === undefined ? undefined : params.approved === 'true';
  return page.total ?? page.items.filter((u) => approved === undefined || u.approved === approved).length;
}

/** The dashboard's counts: every account, and those waiting for approval. */
export function useUserCounts() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: userCountsQueryKey,
    queryFn: async ({ signal }): Promise<UserCounts> => {
      const [total, pending] = await Promise.all([
        countUsers(filterParams({}), signal),
        countUsers(filterParams({ approved: false }), signal),
      ]);
      return { total, pending };
    },
  });
}

/** The users screen's Pending and Approved counts (and All, their sum) for its search, school and role. */
export interface UserStatusCounts {
  all: number;
  pending: number;
  approved: number;
}

export function useUserStatusCounts(filters: Omit<UsersFilters, 'approved'>) {
  const search = { q: filters.q, schoolId: filters.schoolId, role: filters.role };
  return useQuery({
    ...listRefreshOptions,
    queryKey: [...userCountsQueryKey, 'status', search],
    queryFn: async ({ signal }): Promise<UserStatusCounts> => {
      const [pending, approved] = await Promise.all([
        countUsers(filterParams({ ...search, approved: false }), signal),
        countUsers(filterParams({ ...search, approved: true }), signal),
      ]);
      return { all: pending + approved, pending, approved };
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
