import {
  startTokenServiceForTest,
  type TokenServiceTestApp,
  type TokenServiceTestOptions,
} from '@district/nest-common/testing';
import { defineAssessmentService } from '../../src';

export type AssessmentTestOptions = Pick<
  TokenServiceTestOptions,
  'demo' | 'env' | 'schema' | 'runtime' | 'warmUpRounds'
>;
export type AssessmentTestApp = TokenServiceTestApp;

/** Boots the real assessment module on the real database, in a throwaway schema, on a loopback port. */
export function startAssessment(options: AssessmentTestOptions = {}): Promise<AssessmentTestApp> {
  return startTokenServiceForTest('assessment', defineAssessmentService, options);
}
