/**
 * Why a bus request failed. Callers map these to HTTP at their edge, e.g. `TIMEOUT`/`NO_RESPONDERS`
 * to 503, while `REMOTE` carries the replier's own error message.
 */
export type BusRequestErrorCode = 'TIMEOUT' | 'NO_RESPONDERS' | 'REMOTE' | 'CLOSED';

export class BusRequestError extends Error {
  override readonly name = 'BusRequestError';

  constructor(
    readonly code: BusRequestErrorCode,
    readonly subject: string,
    message: string,
  ) {
    super(message);
  }

  static timeout(subject: string, timeoutMs: number): BusRequestError {
    return new BusRequestError('TIMEOUT', subject, `request on ${subject} timed out after ${timeoutMs} ms`);
  }

  static noResponders(subject: string): BusRequestError {
    return new BusRequestError('NO_RESPONDERS', subject, `no service answers requests on ${subject}`);
  }

  static closed(subject: string): BusRequestError {
    return new BusRequestError('CLOSED', subject, `the bus is closed (request on ${subject})`);
  }
}
