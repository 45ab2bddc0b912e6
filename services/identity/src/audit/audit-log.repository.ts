import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  auditRangeEnd,
  type AuditLogEntry,
  type AuditLogPage,
  type AuditLogQuery,
  type AuditRecord,
  type AuditService,
} from '@district/contracts';
import { canonicalUuid } from '@district/nest-common';
import { DataSource, type EntityManager } from 'typeorm';

interface AuditRow {
  id: string;
  service: AuditService;
  actor_id: string;
  actor_name: string;
  action: AuditRecord['action'];
  target_type: AuditRecord['targetType'];
  target_id: string;
  target_label: string;
  details: Record<string, unknown>;
  ip: string | null;
  at: Date;
}

/** `%`, `_` and `\` taken literally in an ILIKE pattern. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The audit log's SQL (table of migration 1733500000000). Insert and read only: the table refuses UPDATE and
 * DELETE itself, and nothing here tries.
 */
@Injectable()
export class AuditLogRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Appends a record in `tx` (the change's own transaction, or the inbox's); a record already there is kept. */
  async append(
    tx: EntityManager,
    service: AuditService,
    record: AuditRecord,
    id: string = randomUUID(),
  ): Promise<void> {
    await tx.query(
      `INSERT INTO audit_log (id, service, actor_id, actor_name, action, target_type, target_id, target_label, details, ip, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
      [
        id,
        service,
        record.actorId,
        record.actorName,
        record.action,
        record.targetType,
        record.targetId,
        record.targetLabel,
        JSON.stringify(record.details),
        record.ip,
        record.at,
      ],
    );
  }

  /** A page of entries, newest first, matching every filter given. */
  async page(query: AuditLogQuery): Promise<AuditLogPage> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (query.actor) {
      const id = canonicalUuid(query.actor);
      where.push(id ? `actor_id = ${param(id)}` : `actor_name ILIKE ${param(`%${literal(query.actor)}%`)}`);
    }
    if (query.action) where.push(`action = ${param(query.action)}`);
    if (query.target) {
      const id = canonicalUuid(query.target);
      where.push(
        id ? `target_id = ${param(id)}` : `target_label ILIKE ${param(`%${literal(query.target)}%`)}`,
      );
    }
    if (query.from) where.push(`at >= ${param(new Date(query.from).toISOString())}`);
    // A day names all of it: `to=2026-11-26` takes in the whole of that day (UTC).
    if (query.to) where.push(`at < ${param(new Date(auditRangeEnd(query.to)).toISOString())}`);
    const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = (await this.dataSource.query(
      `SELECT count(*)::int AS total FROM audit_log ${filter}`,
      params,
    )) as { total: number }[];
    const rows = (await this.dataSource.query(
      `SELECT id, service, actor_id, actor_name, action, target_type, target_id, target_label, details, ip, at
         FROM audit_log ${filter}
        ORDER BY at DESC, recorded_at DESC, id DESC
        LIMIT ${param(query.pageSize)} OFFSET ${param((query.page - 1) * query.pageSize)}`,
      params,
    )) as AuditRow[];
    return { entries: rows.map(toEntry), total, page: query.page, pageSize: query.pageSize };
  }
}

function toEntry(row: AuditRow): AuditLogEntry {
  return {
    id: row.id,
    service: row.service,
    actorId: row.actor_id,
    actorName: row.actor_name,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    targetLabel: row.target_label,
    details: row.details,
    ip: row.ip,
    at: row.at.toISOString(),
  };
}
