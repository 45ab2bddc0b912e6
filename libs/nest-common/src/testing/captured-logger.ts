import { Writable } from 'node:stream';
import { APP_FILTER } from '@nestjs/core';
import type { Provider } from '@nestjs/common';
import pino from 'pino';
import { ServiceMetrics } from '../health/metrics';
import { Readiness } from '../health/readiness';
import { ErrorFilter } from '../http/error.filter';
import { PLATFORM_LOGGER, SERVICE_NAME } from '../http/tokens';

/** A pino logger whose lines a test reads back, parsed, in the order written. */
export function capturedLogger(level = 'info'): {
  logger: pino.Logger;
  lines: Array<Record<string, unknown>>;
} {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/**
 * What `startService` and the health endpoints need from the platform, without a database or a bus: for a test's
 * own module around a probe controller.
 */
export function bareServiceProviders(logger: pino.Logger, readiness = new Readiness()): Provider[] {
  return [
    { provide: Readiness, useValue: readiness },
    { provide: ServiceMetrics, useValue: new ServiceMetrics('probe', false) },
    { provide: SERVICE_NAME, useValue: 'probe' },
    { provide: PLATFORM_LOGGER, useValue: logger },
    { provide: APP_FILTER, useClass: ErrorFilter },
  ];
}
