import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MAX_IMAGE_BYTES } from '@district/contracts';
import { PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { ImageTooLargeError, NotAnImageError } from '../content.errors';
import { detectImageType } from './image-type';

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
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  /** Stores the image and returns its URL path, `/uploads/<sha256>.<ext>`. */
  async store(bytes: Buffer, uploadedBy: string): Promise<string> {
    if (bytes.length > MAX_IMAGE_BYTES) throw new ImageTooLargeError();
    const type = detectImageType(bytes);
    if (!type) throw new NotAnImageError();
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await this.dataSource.query(
      `INSERT INTO images (sha256, mime, ext, size, data, uploaded_by) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (sha256) DO NOTHING`,
      [sha256, type.mime, type.ext, bytes.length, bytes, uploadedBy],
    );
    this.logger.info({ sha256, size: bytes.length, by: uploadedBy }, 'image stored');
    return `/uploads/${sha256}.${type.ext}`;
  }

  /** The image named `<sha256>.<ext>`, or null. */
  async find(fileName: string): Promise<StoredImage | null> {
    const match = /^([0-9a-f]{64})\.([a-z]{3,4})$/.exec(fileName);
    if (!match) return null;
    const rows: { mime: string; data: Buffer }[] = await this.dataSource.query(
      `SELECT mime, data FROM images WHERE sha256 = $1 AND ext = $2`,
      [match[1], match[2]],
    );
    return rows[0] ? { mime: rows[0].mime, data: rows[0].data, sha256: match[1] } : null;
  }
}
