import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * For the public post list (issue #4, bench/reports/content.md):
 *
 * - `posts_public_category_idx`: a category's published posts in list order, so a category page is an index
 *   range (EXPLAIN ANALYZE with 10,000 posts, page 21 of a category: 6.8 ms through `posts_category_idx` and a
 *   sort, 0.3 ms on this index).
 * - A statement trigger on `posts` and `categories` that notifies the schema's channel (see
 *   posts/public-list-listener.ts), so every replica's cache of rendered list pages hears every committed
 *   change, whoever made it: the posts service, category edits, identity's user events, or SQL by hand.
 *   PostgreSQL delivers a notification only on commit, and once per transaction for the same channel.
 */
export class PublicListIndexesAndNotifications1732800000000 implements MigrationInterface {
  name = 'PublicListIndexesAndNotifications1732800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX posts_public_category_idx ON posts (category_id, published_at DESC, id DESC) WHERE status = 'published'`,
    );
    await queryRunner.query(`
      CREATE FUNCTION public_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('content_public_list_' || md5(TG_TABLE_SCHEMA), TG_TABLE_NAME);
        RETURN NULL;
      END
      $$`);
    for (const table of ['posts', 'categories']) {
      await queryRunner.query(
        `CREATE TRIGGER ${table}_public_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
         FOR EACH STATEMENT EXECUTE FUNCTION public_list_changed()`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER categories_public_list_changed ON categories`);
    await queryRunner.query(`DROP TRIGGER posts_public_list_changed ON posts`);
    await queryRunner.query(`DROP FUNCTION public_list_changed()`);
    await queryRunner.query(`DROP INDEX posts_public_category_idx`);
  }
}
