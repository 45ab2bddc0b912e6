import { Catch, HttpException, HttpStatus, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
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
    const body = this.toBody(exception);
    if (requestId) body.requestId = requestId;
    if (body.statusCode >= 500) this.logger.error({ err: exception }, 'unhandled error');
    const retryAfter = exception instanceof HttpException ? (exception.getResponse() as { retryAfter?: number }).retryAfter : undefined;
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    reply.status(body.statusCode).send(body);
  }

  private toBody(exception: unknown): ErrorResponse {
    if (exception instanceof ZodError) return zodErrorBody(exception);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      if (typeof response === 'string') return { statusCode: status, message: response };
      const r = response as { message?: unknown; errors?: ErrorResponse['errors']; details?: ErrorResponse['details'] };
      const message = Array.isArray(r.message) ? r.message.join('; ') : typeof r.message === 'string' ? r.message : exception.message;
      return { statusCode: status, message, ...(r.errors ? { errors: r.errors } : {}), ...(r.details ? { details: r.details } : {}) };
    }
    // Fastify raises its own errors for malformed JSON, oversize bodies and bad content types: those are the client's.
    const fastify = exception as { statusCode?: number; message?: string; code?: string };
    if (typeof fastify?.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
      return { statusCode: fastify.statusCode, message: clientMessage(fastify) };
    }
    return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, message: 'Something went wrong on our side. Please try again.' };
  }
}

function clientMessage(error: { statusCode?: number; message?: string; code?: string }): string {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'Unsupported content type';
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) return 'Request body is too large';
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'Request body must not be empty';
  if (error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError) return 'Request body is not valid JSON';
  return error.message ?? 'Bad request';
}

export function zodErrorBody(error: ZodError): ErrorResponse {
  const errors = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return { statusCode: HttpStatus.BAD_REQUEST, message: errors[0]?.message ?? 'Invalid request', errors };
}
