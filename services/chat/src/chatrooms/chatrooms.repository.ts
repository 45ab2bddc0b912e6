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
  class_id: string | null;
  class_title: string | null;
}

// uuid[] read as text[]: the driver parses a text array into strings whatever its version knows of uuid[].
// A class room's title is the projection's (a scalar subquery, so RETURNING clauses carry it too).
const COLUMNS = `id, name, description, invited_user_ids::text[] AS invited_user_ids, is_active, created_at,
  class_id::text AS class_id,
  (SELECT rc.title FROM roster_classes rc WHERE rc.id = chatrooms.class_id) AS class_title`;

function toChatroom(row: ChatroomRow): Chatroom {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    invitedUserIds: row.invited_user_ids,
    isActive: row.is_active,
    createdAt: row.created_at.toISOString(),
    // The spec's rooms answer exactly as before; a class room adds its class.
    ...(row.class_id === null
      ? {}
      : { classId: row.class_id, ...(row.class_title === null ? {} : { classTitle: row.class_title }) }),
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

  /** Class rooms of the classes given or of the schools given (what a teacher or school administrator manages). */
  async listForClasses(classIds: string[], schoolIds: string[]): Promise<Chatroom[]> {
    const rows: ChatroomRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM chatrooms
       WHERE class_id IN (SELECT id FROM roster_classes WHERE id = ANY($1::uuid[]) OR school_id = ANY($2::uuid[]))
       ORDER BY created_at DESC, id`,
      [classIds, schoolIds],
    );
    return rows.map(toChatroom);
  }

  async insert(tx: EntityManager, room: NewChatroom): Promise<Chatroom> {
    const rows: ChatroomRow[] = await tx.query(
      `INSERT INTO chatrooms (name, description, invited_user_ids, is_active, class_id)
       VALUES ($1, $2, $3::uuid[], $4, $5::uuid) RETURNING ${COLUMNS}`,
      [room.name, room.description, room.invitedUserIds, room.isActive, room.classId ?? null],
    );
    return toChatroom(rows[0]);
  }

  /**
   * The class's members (teachers first, then students) read in `tx` with the class's projection row held
   * (FOR SHARE), or null when the class is unknown or ended. A snapshot of the class applied meanwhile waits for
   * `tx`, and its listener then finds the room `tx` made: a new class room never keeps an outdated roster.
   */
  async lockClassMembers(tx: EntityManager, classId: string): Promise<string[] | null> {
    const held = (await tx.query(`SELECT id FROM roster_classes WHERE id = $1 AND active FOR SHARE`, [
      classId,
    ])) as unknown[];
    if (held.length === 0) return null;
    const rows = (await tx.query(
      `SELECT user_id::text AS user_id FROM roster_members WHERE class_id = $1
       ORDER BY role = 'student', user_id`,
      [classId],
    )) as { user_id: string }[];
    return rows.map((r) => r.user_id);
  }

  /** Every room of the class gets this invited list (its roster); answers the rooms changed, as they now are. */
  async setClassInvitees(tx: EntityManager, classId: string, userIds: string[]): Promise<Chatroom[]> {
    const [rows] = (await tx.query(
      `UPDATE chatrooms SET invited_user_ids = $2::uuid[], updated_at = now()
       WHERE class_id = $1 AND invited_user_ids IS DISTINCT FROM $2::uuid[] RETURNING ${COLUMNS}`,
      [classId, userIds],
    )) as [ChatroomRow[], number];
    return rows.map(toChatroom);
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
