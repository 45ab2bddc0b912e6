import pino, { type Logger } from 'pino';
import { currentRequestId } from './request-context';

/** JSON logs; every line written inside a request or bus handler carries its request id. */
export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    base: { name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['password', 'newPassword', '*.password', '*.newPassword', 'req.headers.cookie', 'headers.cookie'],
      censor: '***',
    },
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  });
}

export type { Logger };
