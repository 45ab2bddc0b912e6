import { Headers } from '@district/contracts';
import { currentRequestId } from '@district/nest-common';

/** The request id travels with the event, so one trace spans the change and its consumers. */
export function eventHeaders(): Record<string, string> | undefined {
  const requestId = currentRequestId();
  return requestId ? { [Headers.requestId]: requestId } : undefined;
}
