import { Injectable, type CallHandler, type NestInterceptor, type Type } from '@nestjs/common';
import { catchError, type Observable } from 'rxjs';

/**
 * An interceptor that turns a service's expected (typed) errors into HTTP exceptions with `toHttp`, at the
 * edge; the platform's ErrorFilter then writes the JSON. Each service supplies only its mapping.
 */
export function errorMappingInterceptor(toHttp: (error: unknown) => unknown): Type<NestInterceptor> {
  @Injectable()
  class ErrorMappingInterceptor implements NestInterceptor {
    intercept(_context: unknown, next: CallHandler): Observable<unknown> {
      return next.handle().pipe(
        catchError((error: unknown) => {
          throw toHttp(error);
        }),
      );
    }
  }
  return ErrorMappingInterceptor;
}
