import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** A stored document (the sitemap) as the last regeneration left it. */
export interface StoredDocument {
  body: string;
  itemCount: number;
  generatedAt: Date;
}

/** The SQL of discovery_documents: the generated files crawlers fetch, one row per name. */
@Injectable()
export class DiscoveryRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async find(name: string): Promise<StoredDocument | null> {
    const rows: { body: string; item_count: number; generated_at: Date }[] = await this.dataSource.query(
      `SELECT body, item_count, generated_at FROM discovery_documents WHERE name = $1`,
      [name],
    );
    const row = rows[0];
    return row ? { body: row.body, itemCount: row.item_count, generatedAt: row.generated_at } : null;
  }

  /** Holds the schema's sitemap lock until the transaction ends, so regenerations run one at a time. */
  async lockSitemap(tx: EntityManager): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.sitemap'))`);
  }

  /** Stores the document as generated now; answers when. */
  async store(tx: EntityManager, name: string, body: string, itemCount: number): Promise<Date> {
    const stored: { generated_at: Date }[] = await tx.query(
      `INSERT INTO discovery_documents (name, body, item_count, generated_at) VALUES ($1, $2, $3, clock_timestamp())
       ON CONFLICT (name) DO UPDATE SET body = EXCLUDED.body, item_count = EXCLUDED.item_count,
         generated_at = EXCLUDED.generated_at
       RETURNING generated_at`,
      [name, body, itemCount],
    );
    return stored[0].generated_at;
  }
}
