import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Items gain their school (issue #36, ADR 0042): set on create from the creator's school in classroom's roster
 * projection, null when none. A school administrator of that school may change the item as its creator and district
 * administrators can. No foreign key: the school is identity's, known here through the projection, and an item
 * outlives a school that ends.
 */
export class AddItemSchools1733800000100 implements MigrationInterface {
  name = 'AddItemSchools1733800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['audio_lists', 'lesson_plans', 'google_slides'])
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN school_id uuid NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['audio_lists', 'lesson_plans', 'google_slides'])
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN school_id`);
  }
}
