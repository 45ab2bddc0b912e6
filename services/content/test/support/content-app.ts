import {
  startTokenServiceForTest,
  type TokenServiceTestApp,
  type TokenServiceTestOptions,
} from '@district/nest-common/testing';
import { defineContentService } from '../../src';

export type ContentTestOptions = TokenServiceTestOptions;
export type ContentTestApp = TokenServiceTestApp;

/** Boots the real content module on the real database, in a throwaway schema, on a loopback port. */
export function startContent(options: ContentTestOptions = {}): Promise<ContentTestApp> {
  return startTokenServiceForTest('content', defineContentService, options);
}
