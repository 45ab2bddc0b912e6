import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Categories, posts, comments, images and site settings. Names are unqualified: the connection's
 * search_path puts them in content's own schema (or a test's throwaway one).
 */
export class CreateContent1732400000000 implements MigrationInterface {
  name = 'CreateContent1732400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE categories (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name varchar(100) NOT NULL,
        slug varchar(120) NOT NULL CONSTRAINT categories_slug_key UNIQUE,
        description text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE posts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        slug varchar(120) NOT NULL CONSTRAINT posts_slug_key UNIQUE,
        title varchar(200) NOT NULL,
        content text NOT NULL DEFAULT '',
        content_text text NOT NULL DEFAULT '',
        excerpt text NOT NULL DEFAULT '',
        category_id uuid REFERENCES categories (id) ON DELETE SET NULL,
        status varchar(16) NOT NULL DEFAULT 'draft' CONSTRAINT posts_status_check CHECK (status IN ('draft', 'published')),
        featured_image text,
        tags text[] NOT NULL DEFAULT '{}',
        author_id uuid NOT NULL,
        author_name varchar(120) NOT NULL,
        published_at timestamptz,
        meta_description text NOT NULL DEFAULT '',
        meta_keywords text[] NOT NULL DEFAULT '{}',
        seo_title varchar(200) NOT NULL DEFAULT '',
        focus_keyword varchar(100) NOT NULL DEFAULT '',
        read_time integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- 'simple' rather than a language: lessons mix Spanish and English.
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('simple', title), 'A') ||
          setweight(to_tsvector('simple', excerpt), 'B') ||
          setweight(to_tsvector('simple', content_text), 'C')
        ) STORED
      )`);
    // The public list's order and filter, so a page is an index range scan even with 10,000 posts.
    await queryRunner.query(
      `CREATE INDEX posts_public_idx ON posts (published_at DESC, id DESC) WHERE status = 'published'`,
    );
    await queryRunner.query(`CREATE INDEX posts_category_idx ON posts (category_id, status)`);
    await queryRunner.query(`CREATE INDEX posts_author_idx ON posts (author_id)`);
    await queryRunner.query(`CREATE INDEX posts_search_idx ON posts USING gin (search)`);
    await queryRunner.query(`
      CREATE TABLE comments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        post_id uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
        parent_id uuid REFERENCES comments (id) ON DELETE CASCADE,
        author_id uuid,
        author_name varchar(120) NOT NULL,
        content text NOT NULL,
        status varchar(16) NOT NULL CONSTRAINT comments_status_check CHECK (status IN ('pending', 'approved')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX comments_post_idx ON comments (post_id, created_at, id)`);
    await queryRunner.query(`CREATE INDEX comments_parent_idx ON comments (parent_id)`);
    await queryRunner.query(`CREATE INDEX comments_author_idx ON comments (author_id)`);
    await queryRunner.query(`CREATE INDEX comments_created_idx ON comments (created_at DESC, id DESC)`);
    // In the database, so every replica serves every image; the hash is the name, so a file never changes.
    await queryRunner.query(`
      CREATE TABLE images (
        sha256 char(64) PRIMARY KEY,
        mime varchar(40) NOT NULL,
        ext varchar(8) NOT NULL,
        size integer NOT NULL,
        data bytea NOT NULL,
        uploaded_by uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE settings (
        key varchar(40) PRIMARY KEY,
        value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE settings`);
    await queryRunner.query(`DROP TABLE images`);
    await queryRunner.query(`DROP TABLE comments`);
    await queryRunner.query(`DROP TABLE posts`);
    await queryRunner.query(`DROP TABLE categories`);
  }
}
