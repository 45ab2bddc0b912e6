import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Category } from '@district/contracts';

/** The unique constraint on slugs (migration 1732400000000): a lost race for a slug breaks it. */
export const CATEGORY_SLUG_KEY = 'categories_slug_key';

/** A category's own columns. */
export interface CategoryFields {
  name: string;
  slug: string;
  description: string;
}

interface CategoryRow {
  id: string;
  name: string;
  slug: string;
  description: string;
  post_count: number;
  created_at: Date;
}

function toCategory(row: CategoryRow): Category {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    postCount: row.post_count,
    createdAt: row.created_at.toISOString(),
  };
}

/** The SQL of categories. */
@Injectable()
export class CategoriesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** By name, each with its number of posts: published ones only, unless `allPosts`. */
  async list(allPosts: boolean): Promise<Category[]> {
    const rows: CategoryRow[] = await this.dataSource.query(
      `SELECT c.id, c.name, c.slug, c.description, c.created_at,
              count(p.id) FILTER (WHERE $1::boolean OR p.status = 'published')::int AS post_count
       FROM categories c LEFT JOIN posts p ON p.category_id = c.id
       GROUP BY c.id ORDER BY lower(c.name), c.id`,
      [allPosts],
    );
    return rows.map(toCategory);
  }

  /** One category, counting all its posts. */
  async find(id: string): Promise<Category | null> {
    const rows: CategoryRow[] = await this.dataSource.query(
      `SELECT c.id, c.name, c.slug, c.description, c.created_at,
              (SELECT count(*)::int FROM posts p WHERE p.category_id = c.id) AS post_count
       FROM categories c WHERE c.id = $1`,
      [id],
    );
    return rows[0] ? toCategory(rows[0]) : null;
  }

  async exists(id: string, tx?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (tx ?? this.dataSource.manager).query(
      `SELECT 1 FROM categories WHERE id = $1`,
      [id],
    );
    return rows.length > 0;
  }

  /** Answers the new category's id. */
  async insert(fields: CategoryFields): Promise<string> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO categories (name, slug, description) VALUES ($1, $2, $3) RETURNING id`,
      [fields.name, fields.slug, fields.description],
    );
    return rows[0].id;
  }

  /** A null description keeps the stored one. False when there is no such category. */
  async update(
    id: string,
    fields: Omit<CategoryFields, 'description'> & { description: string | null },
  ): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(
      `UPDATE categories SET name = $2, slug = $3, description = coalesce($4, description) WHERE id = $1`,
      [id, fields.name, fields.slug, fields.description],
    )) as [unknown, number];
    return affected > 0;
  }

  /** Its posts stay, without a category (foreign key SET NULL). False when there is no such category. */
  async delete(id: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(`DELETE FROM categories WHERE id = $1`, [id])) as [
      unknown,
      number,
    ];
    return affected > 0;
  }

  /** A demo category, unless one with its id or slug exists. */
  async insertDemo(tx: EntityManager, category: CategoryFields & { id: string }): Promise<void> {
    await tx.query(
      `INSERT INTO categories (id, name, slug, description) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [category.id, category.name, category.slug, category.description],
    );
  }
}
