import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A whole submission in one round trip and one statement (ADR 0019): `submit_grade` takes the attempt lock, answers
 * a result already stored under the key, checks the quiz is the version the replica marked against and the attempt
 * limit, then inserts the result and its event. The replica marks beforehand, from the quiz as it last read it; the
 * version check under the lock makes that safe (a quiz edited since answers 'stale' and nothing is written).
 * Called on its own, the statement is its own transaction, so the lock is held until it commits.
 *
 * PL/pgSQL, VOLATILE: each statement after the lock takes a snapshot of its own (READ COMMITTED), so it sees the
 * result the lock's previous holder committed. The lock's key is the one `attempt_state` and the service before it
 * used (`assessment:attempt:<quiz>:<person>`), so replicas of every version exclude each other during a rolling
 * deploy. The limit's rule is `attempts_allowed` and `may_attempt`, the SQL twins of grades/marking.ts's
 * `attemptsAllowed` and `mayAttempt` (a property test holds them equal). The result's title, questions and version
 * are the quiz row's, read under the lock. Its columns follow the grade's `COLUMNS` (grades.repository.ts), the
 * event's the platform's outbox table.
 */
export class SubmitGradeFunction1733500000000 implements MigrationInterface {
  name = 'SubmitGradeFunction1733500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION attempts_allowed(p_max_attempts integer, p_extra integer) RETURNS integer
      LANGUAGE sql IMMUTABLE AS $fn$
        SELECT CASE WHEN p_max_attempts = -1 THEN -1 ELSE p_max_attempts + p_extra END;
      $fn$`);
    await queryRunner.query(`
      CREATE FUNCTION may_attempt(p_taken integer, p_allowed integer) RETURNS boolean
      LANGUAGE sql IMMUTABLE AS $fn$
        SELECT p_allowed = -1 OR p_taken < p_allowed;
      $fn$`);
    await queryRunner.query(`
      CREATE FUNCTION submit_grade(
        p_kind varchar, p_quiz uuid, p_user uuid, p_key uuid, p_version integer,
        p_id uuid, p_created_at timestamptz, p_user_name varchar, p_score integer, p_correct integer,
        p_total integer, p_passed boolean, p_answers jsonb,
        p_event_id uuid, p_event_subject varchar, p_event_payload jsonb, p_event_headers jsonb
      )
      RETURNS TABLE (
        status text, taken integer, allowed integer,
        id uuid, kind varchar, quiz_id uuid, user_id uuid, user_name varchar, quiz_title varchar, score integer,
        correct_answers integer, total_questions integer, passed boolean, user_answers jsonb, questions jsonb,
        quiz_version integer, created_at timestamptz
      )
      LANGUAGE plpgsql VOLATILE AS $fn$
      #variable_conflict use_column
      DECLARE
        q quizzes%ROWTYPE;
        n integer;
        extra integer;
        lim integer;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended('assessment:attempt:' || p_quiz::text || ':' || p_user::text, 0));
        IF p_key IS NOT NULL THEN
          RETURN QUERY SELECT 'replayed'::text, NULL::integer, NULL::integer, g.id, g.kind, g.quiz_id, g.user_id,
            g.user_name, g.quiz_title, g.score, g.correct_answers, g.total_questions, g.passed, g.user_answers,
            g.questions, g.quiz_version, g.created_at
          FROM grades g WHERE g.user_id = p_user AND g.idempotency_key = p_key;
          IF FOUND THEN RETURN; END IF;
        END IF;
        SELECT * INTO q FROM quizzes qz WHERE qz.kind = p_kind AND qz.id = p_quiz;
        IF NOT FOUND OR q.version <> p_version THEN
          RETURN QUERY SELECT CASE WHEN q.id IS NULL THEN 'missing' ELSE 'stale' END::text, NULL::integer,
            NULL::integer, NULL::uuid, NULL::varchar, NULL::uuid, NULL::uuid, NULL::varchar, NULL::varchar,
            NULL::integer, NULL::integer, NULL::integer, NULL::boolean, NULL::jsonb, NULL::jsonb, NULL::integer,
            NULL::timestamptz;
          RETURN;
        END IF;
        SELECT count(*)::integer INTO n FROM grades g WHERE g.quiz_id = p_quiz AND g.user_id = p_user;
        SELECT COALESCE((SELECT a.extra_attempts FROM accommodations a WHERE a.quiz_id = p_quiz AND a.user_id = p_user), 0)
          INTO extra;
        lim := attempts_allowed(q.max_attempts, extra);
        IF NOT may_attempt(n, lim) THEN
          RETURN QUERY SELECT 'limit'::text, n, lim, NULL::uuid, NULL::varchar, NULL::uuid, NULL::uuid,
            NULL::varchar, NULL::varchar, NULL::integer, NULL::integer, NULL::integer, NULL::boolean, NULL::jsonb,
            NULL::jsonb, NULL::integer, NULL::timestamptz;
          RETURN;
        END IF;
        RETURN QUERY INSERT INTO grades AS g (id, created_at, kind, quiz_id, user_id, user_name, quiz_title, score,
            correct_answers, total_questions, passed, user_answers, questions, quiz_version, idempotency_key)
          VALUES (p_id, p_created_at, p_kind, p_quiz, p_user, p_user_name, q.title, p_score, p_correct, p_total,
            p_passed, p_answers, q.questions, q.version, p_key)
          RETURNING 'created'::text, n, lim, g.id, g.kind, g.quiz_id, g.user_id, g.user_name, g.quiz_title, g.score,
            g.correct_answers, g.total_questions, g.passed, g.user_answers, g.questions, g.quiz_version, g.created_at;
        INSERT INTO outbox (id, subject, payload, headers)
          VALUES (p_event_id, p_event_subject, p_event_payload, p_event_headers);
      END;
      $fn$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION submit_grade(varchar, uuid, uuid, uuid, integer, uuid, timestamptz, varchar, integer, integer,
        integer, boolean, jsonb, uuid, varchar, jsonb, jsonb)`,
    );
    await queryRunner.query(`DROP FUNCTION may_attempt(integer, integer)`);
    await queryRunner.query(`DROP FUNCTION attempts_allowed(integer, integer)`);
  }
}
