import { randomUUID } from 'node:crypto';
import type { Chatroom } from '@district/contracts';
import {
  startTokenServiceForTest,
  type HttpClient,
  type TokenServiceTestApp,
  type TokenServiceTestOptions,
} from '@district/nest-common/testing';
import { defineChatService } from '../../src';

export type ChatTestOptions = Pick<TokenServiceTestOptions, 'demo' | 'env' | 'schema' | 'runtime'>;
export type ChatTestApp = TokenServiceTestApp;

/**
 * Boots the real chat module on the real database, in a throwaway schema, on a loopback port. A second replica
 * passes the first one's `schema` and shared `runtime` adapters.
 */
export function startChat(options: ChatTestOptions = {}): Promise<ChatTestApp> {
  return startTokenServiceForTest('chat', defineChatService, options);
}

/** A chatroom made by `admin` through the admin API (a random name unless given); throws unless it was created. */
export async function createRoom(
  admin: HttpClient,
  invitedUserIds: string[] = [],
  name = `Room ${randomUUID().slice(0, 8)}`,
): Promise<Chatroom> {
  const res = await admin.post<Chatroom>('/api/admin/chatrooms', { name, invitedUserIds });
  if (res.status !== 201) throw new Error(`room: ${res.status} ${res.text}`);
  return res.body;
}
