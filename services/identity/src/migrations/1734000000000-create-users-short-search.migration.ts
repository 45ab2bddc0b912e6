import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin user search's one- and two-character queries (ADR 0042, "User search"). A trigram index cannot serve a
 * pattern shorter than three characters, so `q=lu` read every user, for the page and again for its count. Such a
 * query matches the start of a word of the name, of the username or of the email instead: this function lists each
 * row's one- and two-character starts (`{a, an, r, ru, ana, …}` for "Ana Ruiz"), and a GIN index over them answers
 * `users_short_search_keys(name, username, email) @> ARRAY[lower(q)]` (UsersRepository.searchPage repeats the
 * expression exactly). Only pg_catalog functions: the same keys whatever the search_path. No pending list
 * (fastupdate), as for users_search_trgm_idx: a bulk import's rows are searchable at once without a vacuum.
 */
export class CreateUsersShortSearch1734000000000 implements MigrationInterface {
  name = 'CreateUsersShortSearch1734000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION users_short_search_keys(name text, username text, email text) RETURNS text[]
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$
          SELECT array(
            SELECT DISTINCT left(word, n)
              FROM (SELECT regexp_split_to_table(lower($1), '[[:space:]-]+')
                    UNION ALL SELECT lower($2)
                    UNION ALL SELECT lower($3)) AS words (word),
                   (VALUES (1), (2)) AS lengths (n)
             WHERE word <> '')
        $$`);
    await queryRunner.query(
      `CREATE INDEX users_short_search_idx ON users USING gin (users_short_search_keys(name, username, email)) WITH (fastupdate = off)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX users_short_search_idx`);
    await queryRunner.query(`DROP FUNCTION users_short_search_keys(text, text, text)`);
  }
}
