import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { MAX_IMAGE_BYTES } from '@district/contracts';
import { PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { ImageTooLargeError, NotAnImageError } from '../content.errors';
import { detectImageType } from './image-type';
import { ImagesRepository } from './images.repository';

export interface StoredImage {
  mime: string;
  data: Buffer;
  sha256: string;
}

/**
 * Uploaded images, in PostgreSQL (bytea) so any replica serves any image, named by their SHA-256: the same
 * bytes uploaded twice are stored once, and a URL's content never changes (so it may be cached for a year).
 */
@Injectable()
export class ImagesService {
  constructor(
    @Inject(ImagesRepository) private readonly images: ImagesRepository,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  /** Stores the image and returns its URL path, `/uploads/<sha256>.<ext>`. */
  async store(bytes: Buffer, uploadedBy: string): Promise<string> {
    if (bytes.length > MAX_IMAGE_BYTES) throw new ImageTooLargeError();
    const type = detectImageType(bytes);
    if (!type) throw new NotAnImageError();
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await this.images.insert({ sha256, mime: type.mime, ext: type.ext, data: bytes, uploadedBy });
    this.logger.info({ sha256, size: bytes.length, by: uploadedBy }, 'image stored');
    return `/uploads/${sha256}.${type.ext}`;
  }

  /** The image named `<sha256>.<ext>`, or null. */
  async find(fileName: string): Promise<StoredImage | null> {
    const match = /^([0-9a-f]{64})\.([a-z]{3,4})$/.exec(fileName);
    if (!match) return null;
    const image = await this.images.find(match[1], match[2]);
    return image ? { mime: image.mime, data: image.data, sha256: match[1] } : null;
  }
}
