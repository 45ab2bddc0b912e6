import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  chatroomListSchema,
  chatroomSchema,
  invitableUsersResponseSchema,
  type Chatroom,
  type CreateChatroomRequest,
  type InvitableUser,
} from '@district/contracts/chat';
import { api } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';
import { chatroomsQueryKey } from './chatrooms';

/** Chatroom management (accounts spec §7): GET/POST /api/admin/chatrooms, PUT/DELETE /api/admin/chatrooms/{id}. */
export const adminChatroomsQueryKey = ['admin', 'chatrooms'] as const;
export const invitableUsersQueryKey = ['admin', 'chatrooms', 'invitable-users'] as const;

const chatroomPath = (id: string) => `/api/admin/chatrooms/${encodeURIComponent(id)}`;

export function getAdminChatrooms(signal?: AbortSignal): Promise<Chatroom[]> {
  return api.get('/api/admin/chatrooms', { schema: chatroomListSchema, signal });
}

export function useAdminChatrooms() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: adminChatroomsQueryKey,
    queryFn: ({ signal }) => getAdminChatrooms(signal),
  });
}

/** Everyone but administrators (spec §6), by name. The service answers 503 while identity is unreachable. */
export function getInvitableUsers(signal?: AbortSignal): Promise<InvitableUser[]> {
  return api.get('/api/admin/chatrooms/invitable-users', { schema: invitableUsersResponseSchema, signal });
}

export function useInvitableUsers(enabled: boolean) {
  return useQuery({
    queryKey: invitableUsersQueryKey,
    queryFn: ({ signal }) => getInvitableUsers(signal),
    enabled,
    retry: false,
  });
}

export const createChatroom = (body: CreateChatroomRequest): Promise<Chatroom> =>
  api.post('/api/admin/chatrooms', body, { schema: chatroomSchema });
export const setChatroomActive = (id: string, isActive: boolean): Promise<Chatroom> =>
  api.put(chatroomPath(id), { isActive }, { schema: chatroomSchema });
export const deleteChatroom = (id: string): Promise<void> => api.delete(chatroomPath(id));

/** The chat screen's own list changes with every admin change, so it is invalidated too. */
function useInvalidateRoomLists() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: chatroomsQueryKey });
}

export function useCreateChatroom() {
  const client = useQueryClient();
  const invalidateRooms = useInvalidateRoomLists();
  return useMutation({
    mutationFn: createChatroom,
    onSuccess: (room) => {
      // Newest first, as the server lists them.
      client.setQueryData<Chatroom[]>(adminChatroomsQueryKey, (list) => [
        room,
        ...(list ?? []).filter((r) => r.id !== room.id),
      ]);
      invalidateRooms();
    },
  });
}

export function useSetChatroomActive() {
  const client = useQueryClient();
  const invalidateRooms = useInvalidateRoomLists();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) => setChatroomActive(id, isActive),
    onSuccess: (room) => {
      client.setQueryData<Chatroom[]>(adminChatroomsQueryKey, (list) =>
        list?.map((r) => (r.id === room.id ? room : r)),
      );
      invalidateRooms();
    },
  });
}

export function useDeleteChatroom() {
  const client = useQueryClient();
  const invalidateRooms = useInvalidateRoomLists();
  return useMutation({
    mutationFn: deleteChatroom,
    onSuccess: (_void, id) => {
      client.setQueryData<Chatroom[]>(adminChatroomsQueryKey, (list) => list?.filter((r) => r.id !== id));
      invalidateRooms();
    },
  });
}
