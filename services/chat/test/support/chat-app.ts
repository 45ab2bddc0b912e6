import {
  startTokenServiceForTest,
  type TokenServiceTestApp,
  type TokenServiceTestOptions,
} from '@district/nest-common/testing';
import { defineChatService } from '../../src';

export type ChatTestOptions = Pick<TokenServiceTestOptions, 'demo'>;
export type ChatTestApp = TokenServiceTestApp;

/** Boots the real chat module on the real database, in a throwaway schema, on a loopback port. */
export function startChat(options: ChatTestOptions = {}): Promise<ChatTestApp> {
  return startTokenServiceForTest('chat', defineChatService, options);
}
