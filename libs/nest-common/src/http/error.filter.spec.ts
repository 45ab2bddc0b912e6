import { BadRequestException, type ArgumentsHost } from '@nestjs/common';
import pino from 'pino';
import { DEPENDENCY_UNAVAILABLE, ErrorFilter, isDependencyUnavailable } from './error.filter';

function replyProbe() {
  const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
    },
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getResponse: () => reply }),
  } as unknown as ArgumentsHost;
  return { sent, host };
}

describe('ErrorFilter', () => {
  const filter = new ErrorFilter(pino({ level: 'silent' }));

  it('answers 503 with Retry-After when a datastore cannot be reached (a restart, an outage), never 500', () => {
    const typeormWrapped = Object.assign(new Error('Connection terminated unexpectedly'), {
      driverError: new Error('Connection terminated unexpectedly'),
    });
    const cases: unknown[] = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      typeormWrapped,
      Object.assign(new Error('Reached the max retries per request limit (which is 3).'), {
        name: 'MaxRetriesPerRequestError',
      }),
      new Error('Connection is closed.'),
      new Error('Client was closed and is not queryable'),
      Object.assign(new Error('Query runner already released. Cannot run queries anymore.'), {
        name: 'QueryRunnerAlreadyReleasedError',
      }),
      Object.assign(new Error('query failed'), {
        cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }),
      }),
    ];
    for (const error of cases) {
      const { sent, host } = replyProbe();
      filter.catch(error, host);
      expect([
        String(error),
        sent.status,
        sent.headers['Retry-After'],
        (sent.body as { message: string }).message,
      ]).toEqual([String(error), 503, '1', DEPENDENCY_UNAVAILABLE]);
    }
  });

  it('keeps 500 for other failures and the client errors as they are', () => {
    for (const error of [
      new Error('boom'),
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      null,
    ]) {
      expect(isDependencyUnavailable(error)).toBe(false);
      const { sent, host } = replyProbe();
      filter.catch(error, host);
      expect(sent.status).toBe(500);
      expect(sent.headers['Retry-After']).toBeUndefined();
    }
    const { sent, host } = replyProbe();
    filter.catch(new BadRequestException('Quiz title is required.'), host);
    expect([sent.status, (sent.body as { message: string }).message]).toEqual([
      400,
      'Quiz title is required.',
    ]);
  });
});
