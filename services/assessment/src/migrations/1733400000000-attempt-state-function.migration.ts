import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A submission's attempt lock and the state its checks need, in one round trip (ADR 0019). The function takes the
 * transaction-scoped advisory lock of the quiz and person, then reads the quiz, the results the person has on it,
 * their extra attempts and a result already stored under the submission's key. It is VOLATILE and written in SQL
 * with two statements, so PostgreSQL neither inlines it nor reuses one snapshot: the read after the lock gets a
 * snapshot of its own (READ COMMITTED) and sees the result the lock's previous holder committed. The lock's key is
 * the one the service used before this function (`assessment:attempt:<quiz>:<person>`, both canonical UUIDs), so
 * replicas of either version exclude each other during a rolling deploy.
 * Its columns follow `QUIZ_COLUMNS` (quizzes.repository.ts): a new quiz column means a new version of it.
 */
export class AttemptStateFunction1733400000000 implements MigrationInterface {
  name = 'AttemptStateFunction1733400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION attempt_state(p_kind varchar, p_quiz uuid, p_user uuid, p_key uuid)
      RETURNS TABLE (
        id uuid, kind varchar, title varchar, description varchar, max_attempts integer, audio_play_limit integer,
        questions jsonb, created_by_id uuid, created_by_name varchar, version integer, created_at timestamptz,
        updated_at timestamptz, taken integer, extra integer, stored_id uuid
      )
      LANGUAGE sql VOLATILE AS $fn$
        SELECT pg_advisory_xact_lock(hashtextextended('assessment:attempt:' || p_quiz::text || ':' || p_user::text, 0));
        SELECT q.id, q.kind, q.title, q.description, q.max_attempts, q.audio_play_limit, q.questions, q.created_by_id,
          q.created_by_name, q.version, q.created_at, q.updated_at,
          (SELECT count(*)::int FROM grades g WHERE g.quiz_id = p_quiz AND g.user_id = p_user),
          COALESCE((SELECT a.extra_attempts FROM accommodations a WHERE a.quiz_id = p_quiz AND a.user_id = p_user), 0),
          (SELECT g.id FROM grades g WHERE p_key IS NOT NULL AND g.user_id = p_user AND g.idempotency_key = p_key)
        FROM (SELECT 1) AS one LEFT JOIN quizzes q ON q.kind = p_kind AND q.id = p_quiz;
      $fn$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION attempt_state(varchar, uuid, uuid, uuid)`);
  }
}
