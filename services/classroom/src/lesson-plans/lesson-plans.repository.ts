import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type {
  LessonPlan,
  LessonPlanEvaluatePhase,
  LessonPlanInput,
  LessonPlanPhase,
} from '@district/contracts';
import { jsonb } from '@district/nest-common';
import type { Creator } from '../rights/stored-item';

interface LessonPlanRow {
  id: string;
  title: string;
  teacher: string;
  plan_date: string;
  subject: string;
  topic: string;
  standards: string;
  i_can_statements: string;
  academic_vocabulary: string;
  dok_questions: string;
  warm_up: LessonPlanPhase;
  explore: LessonPlanPhase;
  explain: LessonPlanPhase;
  elaborate: LessonPlanPhase;
  evaluate: LessonPlanEvaluatePhase;
  total_time: string;
  evaluation: string;
  reflection: string;
  creator_id: string | null;
  creator_name: string;
  school_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A lesson plan as stored: the contract's fields but `canEdit`, which depends on the caller. */
export type StoredLessonPlan = Omit<LessonPlan, 'canEdit' | 'schoolId'> & { schoolId: string | null };

const COLUMNS = `id, title, teacher, plan_date, subject, topic, standards, i_can_statements, academic_vocabulary,
  dok_questions, warm_up, explore, explain, elaborate, evaluate, total_time, evaluation, reflection, creator_id,
  creator_name, school_id::text AS school_id, created_at, updated_at`;

function toPlan(row: LessonPlanRow): StoredLessonPlan {
  return {
    id: row.id,
    title: row.title,
    teacher: row.teacher,
    date: row.plan_date,
    subject: row.subject,
    topic: row.topic,
    standards: row.standards,
    iCanStatements: row.i_can_statements,
    academicVocabulary: row.academic_vocabulary,
    dokQuestions: row.dok_questions,
    warmUp: row.warm_up,
    explore: row.explore,
    explain: row.explain,
    elaborate: row.elaborate,
    evaluate: row.evaluate,
    totalTime: row.total_time,
    evaluation: row.evaluation,
    reflection: row.reflection,
    creatorId: row.creator_id,
    creatorName: row.creator_name,
    schoolId: row.school_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The plan's own fields in column order ($2…$18 of the statements below). */
function values(p: LessonPlanInput): unknown[] {
  return [
    p.title,
    p.teacher,
    p.date,
    p.subject,
    p.topic,
    p.standards,
    p.iCanStatements,
    p.academicVocabulary,
    p.dokQuestions,
    jsonb(p.warmUp),
    jsonb(p.explore),
    jsonb(p.explain),
    jsonb(p.elaborate),
    jsonb(p.evaluate),
    p.totalTime,
    p.evaluation,
    p.reflection,
  ];
}

/** The SQL of lesson plans. `tx` runs a statement inside the caller's transaction. */
@Injectable()
export class LessonPlansRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Newest first, at most `limit`. */
  async list(limit: number): Promise<StoredLessonPlan[]> {
    const rows: LessonPlanRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM lesson_plans ORDER BY created_at DESC, id LIMIT $1`,
      [limit],
    );
    return rows.map(toPlan);
  }

  async find(id: string): Promise<StoredLessonPlan | null> {
    const rows: LessonPlanRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM lesson_plans WHERE id = $1`,
      [id],
    );
    return rows.length > 0 ? toPlan(rows[0]) : null;
  }

  /** The row locked for the caller's change (FOR UPDATE), or null. */
  async findForUpdate(tx: EntityManager, id: string): Promise<StoredLessonPlan | null> {
    const rows: LessonPlanRow[] = await tx.query(
      `SELECT ${COLUMNS} FROM lesson_plans WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows.length > 0 ? toPlan(rows[0]) : null;
  }

  /** A new plan (of `schoolId`); with `id`, nothing when that id exists (demo data), answering null. */
  async insert(
    tx: EntityManager,
    input: LessonPlanInput,
    creator: Creator,
    id?: string,
    schoolId: string | null = null,
  ): Promise<StoredLessonPlan | null> {
    const rows: LessonPlanRow[] = await tx.query(
      `INSERT INTO lesson_plans (id, title, teacher, plan_date, subject, topic, standards, i_can_statements,
         academic_vocabulary, dok_questions, warm_up, explore, explain, elaborate, evaluate, total_time, evaluation,
         reflection, creator_id, creator_name, school_id)
       VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb,
         $13::jsonb, $14::jsonb, $15::jsonb, $16, $17, $18, $19, $20, $21::uuid)
       ON CONFLICT (id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [id ?? null, ...values(input), creator.id, creator.name, schoolId],
    );
    return rows.length > 0 ? toPlan(rows[0]) : null;
  }

  /** The whole plan replaced; null when it is gone. */
  async update(tx: EntityManager, id: string, input: LessonPlanInput): Promise<StoredLessonPlan | null> {
    const [rows] = (await tx.query(
      `UPDATE lesson_plans SET title = $2, teacher = $3, plan_date = $4, subject = $5, topic = $6, standards = $7,
         i_can_statements = $8, academic_vocabulary = $9, dok_questions = $10, warm_up = $11::jsonb,
         explore = $12::jsonb, explain = $13::jsonb, elaborate = $14::jsonb, evaluate = $15::jsonb, total_time = $16,
         evaluation = $17, reflection = $18, updated_at = now()
       WHERE id = $1
       RETURNING ${COLUMNS}`,
      [id, ...values(input)],
    )) as [LessonPlanRow[], number];
    return rows.length > 0 ? toPlan(rows[0]) : null;
  }

  async delete(tx: EntityManager, id: string): Promise<boolean> {
    const [, affected] = (await tx.query(`DELETE FROM lesson_plans WHERE id = $1`, [id])) as [
      unknown,
      number,
    ];
    return affected > 0;
  }
}
