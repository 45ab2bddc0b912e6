import { UNLIMITED_ATTEMPTS } from '@district/contracts';

/** The attempts a student has on a quiz: its limit plus their extra attempts; -1 stays unlimited. */
export function attemptsAllowed(maxAttempts: number, extraAttempts: number): number {
  return maxAttempts === UNLIMITED_ATTEMPTS ? UNLIMITED_ATTEMPTS : maxAttempts + extraAttempts;
}

/** Whether another attempt may start after `taken` (spec §5: not once past attempts reach the limit). */
export function mayAttempt(taken: number, allowed: number): boolean {
  return allowed === UNLIMITED_ATTEMPTS || taken < allowed;
}
