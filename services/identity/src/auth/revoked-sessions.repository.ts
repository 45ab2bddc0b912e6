import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface RevokedSession {
  sid: string;
  expiresAt: Date;
}

/** The durable copy of sign-outs; the shared store holds the copy guards read. */
@Injectable()
export class RevokedSessionsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** In `manager`'s transaction when given (the sign-out's event commits with it). */
  async add(sid: string, expiresAt: Date, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `INSERT INTO revoked_sessions (sid, expires_at) VALUES ($1, $2) ON CONFLICT (sid) DO NOTHING`,
      [sid, expiresAt],
    );
  }

  /** Sign-outs whose sessions could still be presented; the others are dropped on the way. */
  async live(): Promise<RevokedSession[]> {
    await this.dataSource.query(`DELETE FROM revoked_sessions WHERE expires_at <= now()`);
    const rows: { sid: string; expires_at: Date }[] = await this.dataSource.query(
      `SELECT sid, expires_at FROM revoked_sessions`,
    );
    return rows.map((r) => ({ sid: r.sid, expiresAt: r.expires_at }));
  }
}
