import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ContentMessages, slugify, type Category } from '@district/contracts';
import { PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { CategoryNotFoundError, InvalidInputError, SlugTakenError } from '../content.errors';
import { UUID, violatedUniqueConstraint } from '../unique-violation';

export interface CategoryInput {
  name: string;
  slug?: string;
  description?: string;
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

/** Categories (spec §3, §5): the slug comes from the name unless one is given, and is unique. */
@Injectable()
export class CategoriesService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  /** By name, each with its number of posts: published ones only, unless `allPosts` (admins). */
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

  async create(input: CategoryInput): Promise<Category> {
    const slug = categorySlug(input);
    const rows: { id: string }[] = await this.guard(() =>
      this.dataSource.query(
        `INSERT INTO categories (name, slug, description) VALUES ($1, $2, $3) RETURNING id`,
        [input.name, slug, input.description ?? ''],
      ),
    );
    this.logger.info({ categoryId: rows[0].id }, 'category created');
    return this.get(rows[0].id);
  }

  async update(id: string, input: CategoryInput): Promise<Category> {
    if (!UUID.test(id)) throw new CategoryNotFoundError();
    const slug = categorySlug(input);
    const [, affected] = (await this.guard(() =>
      this.dataSource.query(
        `UPDATE categories SET name = $2, slug = $3, description = coalesce($4, description) WHERE id = $1`,
        [id, input.name, slug, input.description ?? null],
      ),
    )) as [unknown, number];
    if (affected === 0) throw new CategoryNotFoundError();
    return this.get(id);
  }

  /** Its posts stay, without a category. */
  async remove(id: string): Promise<void> {
    if (!UUID.test(id)) throw new CategoryNotFoundError();
    const [, affected] = (await this.dataSource.query(`DELETE FROM categories WHERE id = $1`, [id])) as [
      unknown,
      number,
    ];
    if (affected === 0) throw new CategoryNotFoundError();
    this.logger.info({ categoryId: id }, 'category deleted');
  }

  private async get(id: string): Promise<Category> {
    const rows: CategoryRow[] = await this.dataSource.query(
      `SELECT c.id, c.name, c.slug, c.description, c.created_at,
              (SELECT count(*)::int FROM posts p WHERE p.category_id = c.id) AS post_count
       FROM categories c WHERE c.id = $1`,
      [id],
    );
    if (!rows[0]) throw new CategoryNotFoundError();
    return toCategory(rows[0]);
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'categories_slug_key')
        throw new SlugTakenError(ContentMessages.categorySlugTaken);
      throw error;
    }
  }
}

/** Spec §5: made from the name, or the admin's own slug put through the same rule. */
function categorySlug(input: CategoryInput): string {
  const slug = slugify(input.slug?.trim() ? input.slug : input.name);
  if (!slug) throw new InvalidInputError('Slug must contain letters or digits');
  return slug;
}
