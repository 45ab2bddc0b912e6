import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** What classroom's roster projection (ADR 0042) says of schools, for items' schools. */
@Injectable()
export class SchoolsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The active schools the person teaches an active class in or administers, in id order. */
  async schoolsOf(userId: string): Promise<string[]> {
    const rows: { school_id: string }[] = await this.dataSource.query(
      `SELECT c.school_id::text AS school_id FROM roster_members m JOIN roster_classes c ON c.id = m.class_id
       WHERE m.user_id = $1 AND m.role = 'teacher' AND c.active
       UNION
       SELECT a.school_id::text FROM roster_school_admins a JOIN roster_schools s ON s.id = a.school_id
       WHERE a.user_id = $1 AND s.active
       ORDER BY 1`,
      [userId],
    );
    return rows.map((r) => r.school_id);
  }

  /** Whether the district has this school (active, or the school of an active class). */
  async exists(schoolId: string): Promise<boolean> {
    const [row] = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM roster_schools WHERE id = $1 AND active)
           OR EXISTS (SELECT 1 FROM roster_classes WHERE school_id = $1 AND active) AS known`,
      [schoolId],
    );
    return row.known === true;
  }
}
