import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { userSchema, usersListResponseSchema, type Role, type User } from '@district/contracts/identity';
import { api } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';

export const usersQueryKey = ['admin', 'users'] as const;

export function getUsers(signal?: AbortSignal): Promise<User[]> {
  return api.get('/api/users', { schema: usersListResponseSchema, signal });
}

export function useUsers() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: usersQueryKey,
    queryFn: ({ signal }) => getUsers(signal),
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
      client.setQueryData<User[]>(usersQueryKey, (list) =>
        list?.map((u) => (u.id === updated.id ? updated : u)),
      );
    },
  });
}

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_void, id) => {
      client.setQueryData<User[]>(usersQueryKey, (list) => list?.filter((u) => u.id !== id));
    },
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ id, newPassword }: { id: string; newPassword: string }) => resetPassword(id, newPassword),
  });
}
