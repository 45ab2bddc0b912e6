import { Inject, Injectable } from '@nestjs/common';
import {
  Subjects,
  USER_EXPORT_SERVICES,
  userExportReplySchema,
  type User,
  type UserExportReply,
  type UserExportRequest,
  type UserExportService as ExportingService,
} from '@district/contracts';
import {
  BusRequestError,
  EVENT_BUS,
  PLATFORM_LOGGER,
  type EventBus,
  type Logger,
} from '@district/nest-common';
import { DataSource } from 'typeorm';
import { UserNotFoundError } from '../identity.errors';
import { toUser } from '../users/user.mapper';
import { UsersRepository } from '../users/users.repository';
import { ExportUnavailableError } from './user-export.errors';

/** How long identity waits for each service's part (asked in parallel) before answering 503. */
export const USER_EXPORT_TIMEOUT_MS = 5_000;

const SUBJECTS: Record<ExportingService, string> = {
  content: Subjects.contentUserExport,
  chat: Subjects.chatUserExport,
  assessment: Subjects.assessmentUserExport,
  classroom: Subjects.classroomUserExport,
};

/** The right-of-access file (ADR 0021): everything the district holds about one person, by service. */
export interface UserExportFile {
  format: 'district-user-export/v1';
  exportedAt: string;
  userId: string;
  services: {
    identity: { user: User & { updatedAt: string }; externalIdentities: Record<string, unknown>[] };
  } & Record<ExportingService, UserExportReply['sections']>;
}

/**
 * Assembles a person's export: identity's own record (never the password hash or session bookkeeping) and each
 * other service's part, asked over the bus (`<service>.user.export.v1`, request/reply, in parallel). The file
 * is whole or not at all: a service that does not answer in time, or answers out of contract, makes it a 503
 * naming that service — a partial file would silently under-report what the district holds.
 */
@Injectable()
export class UserExportService {
  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async assemble(userId: string, timeoutMs = USER_EXPORT_TIMEOUT_MS): Promise<UserExportFile> {
    const user = await this.users.findById(userId);
    if (!user) throw new UserNotFoundError();
    const externalIdentities = (await this.dataSource.query(
      `SELECT issuer, subject, created_at AS "createdAt" FROM external_identities WHERE user_id = $1
        ORDER BY created_at, issuer`,
      [user.id],
    )) as Record<string, unknown>[];
    const parts = await Promise.all(
      USER_EXPORT_SERVICES.map(
        async (service) => [service, await this.part(service, user.id, timeoutMs)] as const,
      ),
    );
    const missing = parts.filter(([, part]) => part === null).map(([service]) => service);
    if (missing.length > 0) throw new ExportUnavailableError(missing);
    const services = Object.fromEntries(parts) as Record<ExportingService, UserExportReply['sections']>;
    return {
      format: 'district-user-export/v1',
      exportedAt: new Date().toISOString(),
      userId: user.id,
      services: {
        identity: { user: { ...toUser(user), updatedAt: user.updatedAt.toISOString() }, externalIdentities },
        ...services,
      },
    };
  }

  /** One service's sections, or null when it did not answer in time or answered out of contract. */
  private async part(
    service: ExportingService,
    userId: string,
    timeoutMs: number,
  ): Promise<UserExportReply['sections'] | null> {
    let answer: unknown;
    try {
      answer = await this.bus.request(SUBJECTS[service], { userId } satisfies UserExportRequest, timeoutMs);
    } catch (error) {
      if (!(error instanceof BusRequestError)) throw error;
      this.logger.warn(
        { err: error, code: error.code, service },
        'a service did not answer the user export request',
      );
      return null;
    }
    const reply = userExportReplySchema.safeParse(answer);
    if (!reply.success || reply.data.service !== service) {
      this.logger.error(
        { service, issues: reply.success ? [] : reply.error.issues.slice(0, 5) },
        'a service answered the user export request out of contract',
      );
      return null;
    }
    return reply.data.sections;
  }
}
