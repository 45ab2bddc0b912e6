import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Class chatrooms (issue #36, ADR 0042): a room may be for a class of the district's roster. Its invited list is
 * then the class's teachers and students, kept from chat's roster projection (RosterChanges), so `invited_user_ids`
 * stays the one list every join and listing reads. No foreign key: the class is identity's, known here through the
 * projection (roster_classes), and a room outlives a class that ends.
 */
export class AddChatroomClass1733800000100 implements MigrationInterface {
  name = 'AddChatroomClass1733800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE chatrooms ADD COLUMN class_id uuid NULL`);
    await queryRunner.query(
      `CREATE INDEX chatrooms_class_idx ON chatrooms (class_id) WHERE class_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX chatrooms_class_idx`);
    await queryRunner.query(`ALTER TABLE chatrooms DROP COLUMN class_id`);
  }
}
