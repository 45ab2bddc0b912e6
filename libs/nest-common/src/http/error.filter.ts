import {
  Catch,
  HttpException,
  HttpStatus,
  Inject,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import type { ErrorResponse } from '@district/contracts';
import { currentRequestId } from '../logging/request-context';
import { PLATFORM_LOGGER } from './tokens';

interface ReplyLike {
  status(code: number): ReplyLike;
  header(name: string, value: string): ReplyLike;
  send(body: unknown): void;
}

/** Every error leaves as JSON with a `message`; only unexpected failures are 500s, and those are logged. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(@Inject(PLATFORM_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const reply = host.switchToHttp().getResponse<ReplyLike>();
    const requestId = currentRequestId();
    const unavailable = !(exception instanceof HttpException) && isDependencyUnavailable(exception);
    const body = unavailable
      ? { statusCode: HttpStatus.SERVICE_UNAVAILABLE, message: DEPENDENCY_UNAVAILABLE }
      : this.toBody(exception);
    if (requestId) body.requestId = requestId;
    if (unavailable) this.logger.warn({ err: exception }, 'a datastore is unreachable');
    else if (body.statusCode >= 500) this.logger.error({ err: exception }, 'unhandled error');
    const retryAfter =
      exception instanceof HttpException
        ? (exception.getResponse() as { retryAfter?: number }).retryAfter
        : unavailable
          ? 1
          : undefined;
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    reply.status(body.statusCode).send(body);
  }

  private toBody(exception: unknown): ErrorResponse {
    if (exception instanceof ZodError) return zodErrorBody(exception);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      if (typeof response === 'string') return { statusCode: status, message: response };
      const r = response as {
        message?: unknown;
        errors?: ErrorResponse['errors'];
        details?: ErrorResponse['details'];
      };
      const message = Array.isArray(r.message)
        ? r.message.join('; ')
        : typeof r.message === 'string'
          ? r.message
          : exception.message;
      return {
        statusCode: status,
        message,
        ...(r.errors ? { errors: r.errors } : {}),
        ...(r.details ? { details: r.details } : {}),
      };
    }
    // Fastify raises its own errors for malformed JSON, oversize bodies and bad content types: those are the client's.
    const fastify = exception as { statusCode?: number; message?: string; code?: string };
    if (typeof fastify?.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
      return { statusCode: fastify.statusCode, message: clientMessage(fastify) };
    }
    return {
      statusCode: HttpStatus.INTERNAL_SERVER_ERROR,
      message: 'Something went wrong on our side. Please try again.',
    };
  }
}

export const DEPENDENCY_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';

/** Connection-level failures of PostgreSQL (pg, TypeORM) and Redis (ioredis): the store is away, not the request at fault. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);
// pg's "Client was closed and is not queryable" and TypeORM's QueryRunnerAlreadyReleasedError: a pooled connection
// that died during a restart, met by the next query on it.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|Connection is closed|Stream isn't writeable|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Query runner already released|Reached the max retries per request/;

/**
 * True for an error that says a datastore could not be reached (a restart, an outage): the service answers 503
 * with Retry-After, as the issue #14 fault suite expects, rather than a 500 that reads as a bug.
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
  };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  return isDependencyUnavailable(e.driverError, depth + 1) || isDependencyUnavailable(e.cause, depth + 1);
}

function clientMessage(error: { statusCode?: number; message?: string; code?: string }): string {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'Unsupported content type';
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413)
    return 'Request body is too large';
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'Request body must not be empty';
  if (error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError)
    return 'Request body is not valid JSON';
  return error.message ?? 'Bad request';
}

export function zodErrorBody(error: ZodError): ErrorResponse {
  const errors = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return { statusCode: HttpStatus.BAD_REQUEST, message: errors[0]?.message ?? 'Invalid request', errors };
}
