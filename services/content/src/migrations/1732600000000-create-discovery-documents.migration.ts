import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stored sitemap: regenerated when a post is published, changed, unpublished or deleted (content.post.*
 * events) and on the admin's "Generate sitemap", then served as is, so a crawler's request costs one row read
 * however many lessons the district has (ADR 0008).
 */
export class CreateDiscoveryDocuments1732600000000 implements MigrationInterface {
  name = 'CreateDiscoveryDocuments1732600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE discovery_documents (
        name varchar(40) PRIMARY KEY,
        body text NOT NULL,
        item_count integer NOT NULL,
        generated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE discovery_documents`);
  }
}
