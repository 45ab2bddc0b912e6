import type { Logger } from 'pino';

/** The part of a pino logger the messaging adapters use; any pino logger (or child) fits. */
export type BusLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
