import { IdentityMessages } from '@district/contracts';
import { IdentityError } from '../identity.errors';

/** Failures of the third-party sign-in. The browser is mid-navigation, so the controller answers each with a page. */
export class OidcNotConfiguredError extends IdentityError {
  constructor() {
    super(IdentityMessages.oidcNotConfigured);
  }
}

/** The provider could not be reached, or its discovery document was unusable. */
export class OidcUnavailableError extends IdentityError {
  constructor() {
    super(IdentityMessages.oidcUnavailable);
  }
}

/** A callback that cannot be trusted or completed: no pending sign-in, state or code rejected, user cancelled. */
export class OidcFailedError extends IdentityError {
  constructor() {
    super(IdentityMessages.oidcFailed);
  }
}

/** New accounts and account links need an email address the provider has verified. */
export class OidcEmailRequiredError extends IdentityError {
  constructor() {
    super(IdentityMessages.oidcEmailRequired);
  }
}
