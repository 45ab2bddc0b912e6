import {
  startTokenServiceForTest,
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
