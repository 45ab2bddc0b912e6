import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface NewImage {
  sha256: string;
  mime: string;
  ext: string;
  data: Buffer;
  uploadedBy: string;
}

/** The SQL of images: bytes keyed by their SHA-256. */
@Injectable()
export class ImagesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Stores the image unless the same bytes are stored already. */
  async insert(image: NewImage): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO images (sha256, mime, ext, size, data, uploaded_by) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (sha256) DO NOTHING`,
      [image.sha256, image.mime, image.ext, image.data.length, image.data, image.uploadedBy],
    );
  }

  async find(sha256: string, ext: string): Promise<{ mime: string; data: Buffer } | null> {
    const rows: { mime: string; data: Buffer }[] = await this.dataSource.query(
      `SELECT mime, data FROM images WHERE sha256 = $1 AND ext = $2`,
      [sha256, ext],
    );
    return rows[0] ?? null;
  }
}
