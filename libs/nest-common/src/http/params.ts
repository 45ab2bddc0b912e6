import { BadRequestException, NotFoundException, Param, type PipeTransform } from '@nestjs/common';

/** Any letter case: PostgreSQL's uuid type accepts both, so both must be canonicalised before comparing. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one spelling of a UUID (lower case) that rules, keys and revocations use; undefined when not a UUID. */
export function canonicalUuid(value: unknown): string | undefined {
  return typeof value === 'string' && UUID_PATTERN.test(value) ? value.toLowerCase() : undefined;
}

export const NUL_MESSAGE = 'Text may not contain NUL characters';

/** True when a string anywhere in the value holds U+0000 (PostgreSQL text cannot store it). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  for (const [key, v] of Object.entries(value))
    if (key.includes('\u0000') || containsNul(v, depth + 1)) return true;
  return false;
}

/**
 * An id path parameter, canonicalised once at the edge: NUL is a 400, anything but a UUID is not found (the
 * service's own error, so the spec's message is kept), and every UUID reaches the service in lower case.
 */
export class IdPipe implements PipeTransform<unknown, string> {
  constructor(private readonly notFound: () => Error = () => new NotFoundException('Not found')) {}

  transform(value: unknown): string {
    if (containsNul(value)) throw new BadRequestException(NUL_MESSAGE);
    const id = canonicalUuid(value);
    if (id === undefined) throw this.notFound();
    return id;
  }
}

/** `@IdParam('id', () => new UserNotFoundError())`: a canonical UUID or the given not-found error. */
export const IdParam = (name: string, notFound?: () => Error) => Param(name, new IdPipe(notFound));

/**
 * A free-text path parameter (a slug, a file name): NUL is a 400; longer than `maxLength` cannot exist, so it is
 * not found without a query.
 */
export class TextParamPipe implements PipeTransform<unknown, string> {
  constructor(
    private readonly maxLength: number,
    private readonly notFound: () => Error = () => new NotFoundException('Not found'),
  ) {}

  transform(value: unknown): string {
    if (typeof value !== 'string') throw this.notFound();
    if (containsNul(value)) throw new BadRequestException(NUL_MESSAGE);
    if (value.length === 0 || value.length > this.maxLength) throw this.notFound();
    return value;
  }
}
