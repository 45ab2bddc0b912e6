import { IdentityError } from '../identity.errors';

/** The message of a right-of-access export that some service did not answer (503), naming them. */
export const exportUnavailableMessage = (services: readonly string[]): string =>
  `The export could not be assembled: ${services.join(', ')} did not answer. Try again in a moment.`;

/** One or more services did not answer (or answered out of contract) within the export's timeout. */
export class ExportUnavailableError extends IdentityError {
  constructor(readonly services: readonly string[]) {
    super(exportUnavailableMessage(services));
  }
}
