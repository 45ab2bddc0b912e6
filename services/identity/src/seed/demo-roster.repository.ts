import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The demo roster's few reads and writes outside the importer. */
@Injectable()
export class DemoRosterRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Runs `work` holding this schema's demo-roster lock, so replicas starting at once import the demo district once:
   * the others wait, then find it there.
   */
  async exclusively<T>(work: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(`SELECT pg_advisory_lock(hashtext('identity:demo-roster:' || current_schema()))`);
      try {
        return await work();
      } finally {
        await runner.query(
          `SELECT pg_advisory_unlock(hashtext('identity:demo-roster:' || current_schema()))`,
        );
      }
    } finally {
      await runner.release();
    }
  }

  /** A roster was imported here (or is being), or schools exist: the demo district is not the first. */
  async hasRoster(): Promise<boolean> {
    const [row] = (await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM roster_imports) OR EXISTS (SELECT 1 FROM schools) AS present`,
    )) as { present: boolean }[];
    return row.present;
  }

  /**
   * Gives the seeded demo accounts their roster sourcedIds, so the import updates them rather than refusing their
   * emails as another account's. An account already carrying one keeps it.
   */
  async stampSourcedIds(accounts: readonly { id: string; sourcedId: string }[]): Promise<void> {
    for (const { id, sourcedId } of accounts)
      await this.dataSource.query(`UPDATE users SET sourced_id = $2 WHERE id = $1 AND sourced_id IS NULL`, [
        id,
        sourcedId,
      ]);
  }
}
