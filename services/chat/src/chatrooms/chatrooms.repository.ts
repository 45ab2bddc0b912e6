import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Chatroom, ChatroomChanges, ChatroomSummary, NewChatroom } from '@district/contracts';

interface ChatroomRow {
  id: string;
  name: string;
  description: string;
  invited_user_ids: string[];
  is_active: boolean;
  created_at: Date;
}

// uuid[] read as text[]: the driver parses a text array into strings whatever its version knows of uuid[].
const COLUMNS = `id, name, description, invited_user_ids::text[] AS invited_user_ids, is_active, created_at`;

function toChatroom(row: ChatroomRow): Chatroom {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    invitedUserIds: row.invited_user_ids,
    isActive: row.is_active,
    createdAt: row.created_at.toISOString(),
  };
}

/** The columns an admin's change may set, by field: the UPDATE is built from this fixed map only. */
const CHANGE_COLUMNS: Record<keyof ChatroomChanges, string> = {
  name: 'name',
  description: 'description',
  invitedUserIds: 'invited_user_ids',
  isActive: 'is_active',
};

/** A demo room as seeded, with its fixed id. */
export type DemoChatroom = NewChatroom & { id: string };

/** The SQL of chatrooms. `tx` runs a statement inside the caller's transaction. */
@Injectable()
export class ChatroomsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Every room, newest first (the admin's table). */
  async listAll(): Promise<Chatroom[]> {
    const rows: ChatroomRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM chatrooms ORDER BY created_at DESC, id`,
    );
    return rows.map(toChatroom);
  }

  /** One room, or null (the WebSocket's join decides from the stored row). `id` is a canonical UUID. */
  async findById(id: string): Promise<Chatroom | null> {
    const rows: ChatroomRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM chatrooms WHERE id = $1`,
      [id],
    );
    return rows.length > 0 ? toChatroom(rows[0]) : null;
  }

  /** Active rooms by name: all of them, or only those `inviteeId` is invited to. */
  async listActive(scope: { all: true } | { inviteeId: string }): Promise<ChatroomSummary[]> {
    const rows: Pick<ChatroomRow, 'id' | 'name' | 'description'>[] = await this.dataSource.query(
      `SELECT id, name, description FROM chatrooms
       WHERE is_active AND ($1::boolean OR invited_user_ids @> ARRAY[$2::uuid])
       ORDER BY lower(name), id`,
      'all' in scope ? [true, null] : [false, scope.inviteeId],
    );
    return rows.map(({ id, name, description }) => ({ id, name, description }));
  }

  async insert(tx: EntityManager, room: NewChatroom): Promise<Chatroom> {
    const rows: ChatroomRow[] = await tx.query(
      `INSERT INTO chatrooms (name, description, invited_user_ids, is_active)
       VALUES ($1, $2, $3::uuid[], $4) RETURNING ${COLUMNS}`,
      [room.name, room.description, room.invitedUserIds, room.isActive],
    );
    return toChatroom(rows[0]);
  }

  /** Sets the fields given; null when there is no such room. */
  async update(tx: EntityManager, id: string, changes: ChatroomChanges): Promise<Chatroom | null> {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [field, column] of Object.entries(CHANGE_COLUMNS) as [keyof ChatroomChanges, string][]) {
      if (changes[field] === undefined) continue;
      params.push(changes[field]);
      sets.push(`${column} = $${params.length}`);
    }
    params.push(id);
    const [rows] = (await tx.query(
      `UPDATE chatrooms SET ${[...sets, 'updated_at = now()'].join(', ')}
       WHERE id = $${params.length} RETURNING ${COLUMNS}`,
      params,
    )) as [ChatroomRow[], number];
    return rows[0] ? toChatroom(rows[0]) : null;
  }

  /** False when there is no such room. */
  /** A room's name as stored, read in `tx` before it goes (for the audit log); null when absent. */
  async nameOf(tx: EntityManager, id: string): Promise<string | null> {
    const rows = (await tx.query(`SELECT name FROM chatrooms WHERE id = $1`, [id])) as { name: string }[];
    return rows[0]?.name ?? null;
  }

  async delete(tx: EntityManager, id: string): Promise<boolean> {
    const [, affected] = (await tx.query(`DELETE FROM chatrooms WHERE id = $1`, [id])) as [unknown, number];
    return affected > 0;
  }

  /** Takes the user off every room's invite list; answers the rooms changed, as they now are. */
  async removeInvitee(tx: EntityManager, userId: string): Promise<Chatroom[]> {
    const [rows] = (await tx.query(
      `UPDATE chatrooms SET invited_user_ids = array_remove(invited_user_ids, $1::uuid), updated_at = now()
       WHERE invited_user_ids @> ARRAY[$1::uuid] RETURNING ${COLUMNS}`,
      [userId],
    )) as [ChatroomRow[], number];
    return rows.map(toChatroom);
  }

  /** A demo room, unless one with its id exists; answers it when inserted. */
  async insertDemo(tx: EntityManager, room: DemoChatroom): Promise<Chatroom | null> {
    const rows: ChatroomRow[] = await tx.query(
      `INSERT INTO chatrooms (id, name, description, invited_user_ids, is_active)
       VALUES ($1, $2, $3, $4::uuid[], $5) ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
      [room.id, room.name, room.description, room.invitedUserIds, room.isActive],
    );
    return rows[0] ? toChatroom(rows[0]) : null;
  }
}
