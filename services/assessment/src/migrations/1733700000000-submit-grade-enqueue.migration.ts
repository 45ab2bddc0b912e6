import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SubmitGradeFunction1733500000000 } from './1733500000000-submit-grade-function.migration';

/**
 * `submit_grade` enqueues its event through the platform's `outbox_enqueue` (ADR 0037) instead of writing the
 * outbox table itself: the event is checked as every other event is, and the relay hears of it at the commit, so
 * the service no longer nudges it by hand. Same signature, same answers, same lock and checks as migration
 * 1733500000000, whose text stays as shipped; only the event's last statement differs.
 */
export class SubmitGradeEnqueue1733700000000 implements MigrationInterface {
  name = 'SubmitGradeEnqueue1733700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION submit_grade(
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
        PERFORM outbox_enqueue(p_event_subject, p_event_payload, p_event_headers, p_event_id);
      END;
      $fn$`);
  }

  /** Back to the three functions exactly as migration 1733500000000 ships them. */
  async down(queryRunner: QueryRunner): Promise<void> {
    const shipped = new SubmitGradeFunction1733500000000();
    await shipped.down(queryRunner);
    await shipped.up(queryRunner);
  }
}
