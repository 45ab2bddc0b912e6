import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { jsonb } from '@district/nest-common';

/** The SQL of the settings table: one JSON value per key. */
@Injectable()
export class SiteSettingsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The stored value, or undefined when the key was never saved. */
  async get(key: string): Promise<unknown> {
    const rows: { value: unknown }[] = await this.dataSource.query(
      `SELECT value FROM settings WHERE key = $1`,
      [key],
    );
    return rows[0]?.value;
  }

  /** Merges the fields into the stored object in one statement, so concurrent saves of different fields both land. */
  async merge(key: string, fields: object): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO settings (key, value) VALUES ($1, $2::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = settings.value || EXCLUDED.value, updated_at = now()`,
      [key, jsonb(fields)],
    );
  }

  async replace(key: string, value: object): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO settings (key, value) VALUES ($1, $2::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [key, jsonb(value)],
    );
  }
}
