import pino, { type Logger } from 'pino';
import { currentRequestId } from './request-context';

let stdout: pino.DestinationStream | undefined;

/** Bytes of log lines gathered before one write, and the longest a line waits when the process is quiet. */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_MS = 100;

/**
 * One writer to standard output for every logger of the process, which writes lines in batches: a write per
 * line cost each logged request a system call (about a tenth of a kept lesson page's CPU, ADR 0016). Lines go
 * out once 4 KB have gathered or 100 ms have passed, whichever comes first, and whatever is pending when the
 * process exits (an uncaught error too); only a hard kill loses up to the last 100 ms. The writes stay
 * synchronous: written from a thread pool instead, each would wake a thread, which costs more than the write
 * on a busy single core.
 *
 * The 100 ms timer is armed by a line and fires once, not on an interval: sonic-boom's own `periodicFlush` wrote
 * an empty buffer every 100 ms whether or not anything had been logged, ten wakeups and system calls a second in
 * every idle process.
 */
function sharedStdout(): pino.DestinationStream {
  if (!stdout) {
    const stream = pino.destination({ fd: 1, sync: true, minLength: LOG_BATCH_BYTES });
    let timer: NodeJS.Timeout | undefined;
    const flushLater = () => {
      timer = undefined;
      try {
        stream.flush();
      } catch {
        // Destroyed at exit, or standard output gone: nothing more can be written anyway.
      }
    };
    const write = stream.write.bind(stream);
    stream.write = (line: string) => {
      const written = write(line);
      if (timer === undefined) {
        timer = setTimeout(flushLater, LOG_FLUSH_MS);
        timer.unref();
      }
      return written;
    };
    process.once('exit', () => {
      try {
        stream.flushSync();
      } catch {
        // Standard output is gone (a closed pipe): nothing more can be written anyway.
      }
    });
    stdout = stream;
  }
  return stdout;
}

let isoMs = -1;
let isoField = '';

/**
 * Pino's `isoTime`, formatted once per millisecond: under load many lines share one, and formatting a date is a
 * visible part of writing a line.
 */
function isoTime(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoField = `,"time":"${new Date(now).toISOString()}"`;
  }
  return isoField;
}

/**
 * JSON logs; every line written inside a request or bus handler carries its request id. The level is the launcher's
 * checked LOG_LEVEL (the logger reads no environment of its own).
 */
export function createLogger(name: string, level = 'info'): Logger {
  return pino(
    {
      name,
      level,
      base: { name },
      timestamp: isoTime,
      redact: {
        paths: [
          'password',
          'newPassword',
          '*.password',
          '*.newPassword',
          'req.headers.cookie',
          'headers.cookie',
        ],
        censor: '***',
      },
      mixin() {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    sharedStdout(),
  );
}

export type { Logger };

/**
 * The same logger's level, name and bindings, writing to the same place, but without redaction and without the
 * request-id mixin: for access lines, whose every field the platform fills itself (method, path without its
 * query, status, duration, request id) and which therefore carry no user data to redact. Both cost each line
 * a few microseconds, once per request per process (ADR 0016).
 */
export function accessLogger(logger: Logger): Logger {
  const stream = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  return pino({ level: logger.level, base: null, timestamp: isoTime }, stream).child(logger.bindings());
}
