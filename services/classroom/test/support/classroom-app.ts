import {
  startTokenServiceForTest,
  type TokenServiceTestApp,
  type TokenServiceTestOptions,
} from '@district/nest-common/testing';
import { defineClassroomService } from '../../src';

export type ClassroomTestOptions = Pick<TokenServiceTestOptions, 'demo' | 'env' | 'schema' | 'runtime'>;
export type ClassroomTestApp = TokenServiceTestApp;

/** Boots the real classroom module on the real database, in a throwaway schema, on a loopback port. */
export function startClassroom(options: ClassroomTestOptions = {}): Promise<ClassroomTestApp> {
  return startTokenServiceForTest('classroom', defineClassroomService, options);
}
