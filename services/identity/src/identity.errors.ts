import { IdentityMessages } from '@district/contracts';

/**
 * Expected failures of identity's use cases. Services throw these; the controllers' interceptor maps them
 * to HTTP (identity-errors.interceptor.ts), so the domain code never speaks HTTP.
 */
export abstract class IdentityError extends Error {}

export class UserNotFoundError extends IdentityError {
  constructor() {
    super(IdentityMessages.userNotFound);
  }
}

export class AccountTakenError extends IdentityError {
  constructor(readonly field: 'email' | 'username') {
    super(field === 'email' ? IdentityMessages.emailTaken : IdentityMessages.usernameTaken);
  }
}

/** A school administrator acted on someone outside their schools, or on a district administrator (ADR 0042). */
export class NotManagedUserError extends IdentityError {
  constructor() {
    super(IdentityMessages.adminRequired);
  }
}

/** An admin tried to change their own role or admin flag, or to delete themselves. */
export class SelfChangeError extends IdentityError {}

export class InvalidCredentialsError extends IdentityError {
  constructor() {
    super(IdentityMessages.invalidCredentials);
  }
}

export class TooManyAttemptsError extends IdentityError {
  constructor(readonly retryAfterSeconds: number) {
    super(IdentityMessages.tooManyAttempts);
  }
}

export class NotDemoAccountError extends IdentityError {
  constructor() {
    super(IdentityMessages.quickLoginDemoOnly);
  }
}

/** The message of a right-of-access export that some service did not answer (503), naming them. */
export const exportUnavailableMessage = (services: readonly string[]): string =>
  `The export could not be assembled: ${services.join(', ')} did not answer. Try again in a moment.`;

/** One or more services did not answer (or answered out of contract) within the export's timeout. */
export class ExportUnavailableError extends IdentityError {
  constructor(readonly services: readonly string[]) {
    super(exportUnavailableMessage(services));
  }
}
