import {
  BadRequestException,
  ForbiddenException,
  GatewayTimeoutException,
  HttpException,
  HttpStatus,
  BadGatewayException,
} from '@nestjs/common';
import { errorMappingInterceptor } from '@district/nest-common';

/** The proxy's answers when it refuses (the spec words none: the screens show their own 'Failed to play …'). */
export const AudioProxyMessages = {
  invalidUrl: 'Please provide a valid audio link (url).',
  unsupportedScheme: 'Only http and https audio links can be played.',
  credentials: 'Audio links with a user name or password are not accepted.',
  hostNotAllowed:
    'Audio from this host cannot be played through the proxy. Supported hosts: Google Drive, Dropbox, OneDrive and iCloud.',
  portNotAllowed: 'Audio links must use the standard HTTPS port.',
  addressNotAllowed: 'This audio link points to an address the proxy may not reach.',
  tooManyRedirects: 'The audio host redirected too many times.',
  badRedirect: 'The audio host redirected to an invalid address.',
  upstreamStatus: (status: number) => `The audio host answered ${status}.`,
  rangeNotSatisfiable: 'The requested part of the audio file is not available.',
  notAudio: 'The link does not point to an audio file.',
  tooLarge: (maxBytes: number) =>
    `The audio file is larger than the ${Math.floor(maxBytes / (1024 * 1024))} MB limit.`,
  unreachable: 'The audio host could not be reached.',
  timeout: 'The audio host took too long to answer.',
  rateLimited: 'Too many audio requests. Please wait a moment and try again.',
} as const;

export type AudioProxyRefusal =
  | 'invalidUrl'
  | 'unsupportedScheme'
  | 'credentials'
  | 'hostNotAllowed'
  | 'portNotAllowed'
  | 'addressNotAllowed'
  | 'tooManyRedirects'
  | 'badRedirect'
  | 'upstreamStatus'
  | 'rangeNotSatisfiable'
  | 'notAudio'
  | 'tooLarge'
  | 'unreachable'
  | 'timeout';

/** An expected refusal of the proxy, with its reason (tests and logs read it) and its message. */
export class AudioProxyError extends Error {
  constructor(
    readonly reason: AudioProxyRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'AudioProxyError';
  }
}

const STATUS: Record<AudioProxyRefusal, HttpStatus> = {
  invalidUrl: HttpStatus.BAD_REQUEST,
  unsupportedScheme: HttpStatus.BAD_REQUEST,
  credentials: HttpStatus.BAD_REQUEST,
  hostNotAllowed: HttpStatus.FORBIDDEN,
  portNotAllowed: HttpStatus.FORBIDDEN,
  addressNotAllowed: HttpStatus.FORBIDDEN,
  tooManyRedirects: HttpStatus.BAD_GATEWAY,
  badRedirect: HttpStatus.BAD_GATEWAY,
  upstreamStatus: HttpStatus.BAD_GATEWAY,
  rangeNotSatisfiable: HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
  notAudio: HttpStatus.BAD_GATEWAY,
  tooLarge: HttpStatus.BAD_GATEWAY,
  unreachable: HttpStatus.BAD_GATEWAY,
  timeout: HttpStatus.GATEWAY_TIMEOUT,
};

export function audioProxyErrorToHttp(error: unknown): unknown {
  if (!(error instanceof AudioProxyError)) return error;
  const status = STATUS[error.reason];
  if (status === HttpStatus.BAD_REQUEST) return new BadRequestException(error.message);
  if (status === HttpStatus.FORBIDDEN) return new ForbiddenException(error.message);
  if (status === HttpStatus.GATEWAY_TIMEOUT) return new GatewayTimeoutException(error.message);
  if (status === HttpStatus.BAD_GATEWAY) return new BadGatewayException(error.message);
  return new HttpException({ statusCode: status, message: error.message }, status);
}

export const AudioProxyErrorsInterceptor = errorMappingInterceptor(audioProxyErrorToHttp);
