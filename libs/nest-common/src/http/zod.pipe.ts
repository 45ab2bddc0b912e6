import { BadRequestException, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { zodErrorBody } from './error.filter';
import { containsNul, NUL_MESSAGE } from './params';

/**
 * Validates and normalises a body/param/query with a contracts schema: `@Body(new ZodPipe(schema))`. Text with a
 * NUL character is refused here for every schema (PostgreSQL cannot store it; it used to surface as a 500).
 */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  /** Public so the OpenAPI document can describe exactly what is validated. */
  constructor(readonly schema: S) {}
  transform(value: unknown): z.infer<S> {
    if (containsNul(value)) throw new BadRequestException(NUL_MESSAGE);
    const result = this.schema.safeParse(value ?? {});
    if (result.success) return result.data;
    const body = zodErrorBody(result.error);
    throw new BadRequestException({ message: body.message, errors: body.errors });
  }
}
