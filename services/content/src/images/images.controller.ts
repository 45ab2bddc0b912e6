import {
  Controller,
  Get,
  Inject,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { ContentMessages, MAX_IMAGE_BYTES } from '@district/contracts';
import { CurrentUser, Public, RequireAdmin, type AuthUser } from '@district/nest-common';
import { ContentErrorsInterceptor } from '../content-errors.interceptor';
import { ImageTooLargeError, NotAnImageError } from '../content.errors';
import { matchesEtag } from '../http/etag';
import { ImagesService } from './images.service';

const IMAGE_FIELD = 'image';
const ONE_YEAR = 'public, max-age=31536000, immutable';

/** Image upload for the post editor (admins) and the content-addressed image files (anyone). */
@Controller()
@UseInterceptors(ContentErrorsInterceptor)
export class ImagesController {
  constructor(@Inject(ImagesService) private readonly images: ImagesService) {}

  /** Multipart, field `image` (spec §7); the answer carries the URL. */
  @Post('api/upload-image')
  @RequireAdmin()
  async upload(@CurrentUser() user: AuthUser, @Req() request: FastifyRequest): Promise<{ url: string }> {
    if (!request.isMultipart()) throw new NotAnImageError();
    const bytes = await readImageField(request);
    return { url: await this.images.store(bytes, user.id) };
  }

  @Get('uploads/:file')
  @Public()
  async serve(
    @Param('file') file: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const image = await this.images.find(file);
    if (!image) throw new NotFoundException(ContentMessages.imageNotFound);
    const etag = `"${image.sha256}"`;
    reply
      .header('etag', etag)
      .header('cache-control', ONE_YEAR)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox");
    if (matchesEtag(request, etag)) return reply.status(304).send();
    return reply.status(200).type(image.mime).send(image.data);
  }
}

/**
 * The bytes of the `image` file part; other parts are ignored. Oversize stops reading at the limit, which is the
 * largest size accepted (MAX_IMAGE_BYTES, one byte under 5 MiB), so a file of exactly 5 MiB is cut and refused.
 */
async function readImageField(request: FastifyRequest): Promise<Buffer> {
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 20 } })) {
      if (part.type === 'file' && part.fieldname === IMAGE_FIELD) {
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw new ImageTooLargeError();
        return bytes;
      }
      if (part.type === 'file') part.file.resume();
    }
  } catch (error) {
    if (error instanceof ImageTooLargeError || error instanceof NotAnImageError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ImageTooLargeError();
    // Anything else thrown while reading the parts is the form itself being broken (busboy's "Unexpected end of
    // form", "Malformed part header", a boundary that never comes): the caller's mistake, not ours (found by the
    // route fuzzer, which got a 500 for a cut-off form).
    if (code?.startsWith('FST_') || error instanceof Error) throw new NotAnImageError();
    throw error;
  }
  throw new NotAnImageError();
}
