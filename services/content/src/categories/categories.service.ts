import { Inject, Injectable } from '@nestjs/common';
import { ContentMessages, slugify, type Category } from '@district/contracts';
import { PLATFORM_LOGGER, UUID_PATTERN, mapUniqueViolation, type Logger } from '@district/nest-common';
import { CategoryNotFoundError, InvalidInputError, SlugTakenError } from '../content.errors';
import { CATEGORY_SLUG_KEY, CategoriesRepository } from './categories.repository';

export interface CategoryInput {
  name: string;
  slug?: string;
  description?: string;
}

/** A lost race for a slug is the same 409 as any taken slug. */
const SLUG_TAKEN = { [CATEGORY_SLUG_KEY]: () => new SlugTakenError(ContentMessages.categorySlugTaken) };

/** Categories (spec §3, §5): the slug comes from the name unless one is given, and is unique. */
@Injectable()
export class CategoriesService {
  constructor(
    @Inject(CategoriesRepository) private readonly categories: CategoriesRepository,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  /** By name, each with its number of posts: published ones only, unless `allPosts` (admins). */
  list(allPosts: boolean): Promise<Category[]> {
    return this.categories.list(allPosts);
  }

  async create(input: CategoryInput): Promise<Category> {
    const slug = categorySlug(input);
    const id = await this.guard(() =>
      this.categories.insert({ name: input.name, slug, description: input.description ?? '' }),
    );
    this.logger.info({ categoryId: id }, 'category created');
    return this.get(id);
  }

  async update(id: string, input: CategoryInput): Promise<Category> {
    if (!UUID_PATTERN.test(id)) throw new CategoryNotFoundError();
    const slug = categorySlug(input);
    const found = await this.guard(() =>
      this.categories.update(id, { name: input.name, slug, description: input.description ?? null }),
    );
    if (!found) throw new CategoryNotFoundError();
    return this.get(id);
  }

  /** Its posts stay, without a category. */
  async remove(id: string): Promise<void> {
    if (!UUID_PATTERN.test(id)) throw new CategoryNotFoundError();
    if (!(await this.categories.delete(id))) throw new CategoryNotFoundError();
    this.logger.info({ categoryId: id }, 'category deleted');
  }

  private async get(id: string): Promise<Category> {
    const category = await this.categories.find(id);
    if (!category) throw new CategoryNotFoundError();
    return category;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw mapUniqueViolation(error, SLUG_TAKEN) ?? error;
    }
  }
}

/** Spec §5: made from the name, or the admin's own slug put through the same rule. */
function categorySlug(input: CategoryInput): string {
  const slug = slugify(input.slug?.trim() ? input.slug : input.name);
  if (!slug) throw new InvalidInputError('Slug must contain letters or digits');
  return slug;
}
