import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn with a request id visible to logs and outgoing bus messages. */
export function runWithRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return storage.run({ requestId: normaliseRequestId(requestId) }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A client-sent id is kept only if it is short and plain; anything else is replaced. */
export function normaliseRequestId(value: unknown): string {
  return typeof value === 'string' && VALID_ID.test(value) ? value : randomUUID();
}
