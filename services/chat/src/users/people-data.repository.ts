import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The SQL of a person's rows in chat, for their right-of-access file (ADR 0021). */
@Injectable()
export class PeopleDataRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The rooms they are invited to, oldest first. */
  invitedTo(userId: string): Promise<Record<string, unknown>[]> {
    return this.dataSource.query(
      `SELECT id, name, description, is_active AS "isActive", created_at AS "createdAt"
         FROM chatrooms WHERE $1 = ANY (invited_user_ids) ORDER BY created_at, id`,
      [userId],
    );
  }

  /** Every room, oldest first: whose logs may hold anyone's messages. */
  rooms(): Promise<Array<{ id: string; name: string }>> {
    return this.dataSource.query(`SELECT id, name FROM chatrooms ORDER BY created_at, id`);
  }
}
