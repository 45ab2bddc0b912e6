import { Inject, Injectable } from '@nestjs/common';
import {
  PeopleDataSubjects,
  userExportReplySchema,
  type User,
  type UserExportRequest,
  type UserExportSections,
} from '@district/contracts';
import {
  BusRequestError,
  EVENT_BUS,
  PLATFORM_LOGGER,
  PLATFORM_RUNTIME,
  type EventBus,
  type Logger,
  type PlatformRuntime,
} from '@district/nest-common';
import { ExportUnavailableError, UserNotFoundError } from '../identity.errors';
import { toUser } from '../users/user.mapper';
import { UsersRepository } from '../users/users.repository';

/** How long identity waits for each service's part (asked in parallel) before answering 503. */
export const USER_EXPORT_TIMEOUT_MS = 5_000;

/** The right-of-access file (ADR 0021): everything the district holds about one person, by service. */
export interface UserExportFile {
  format: 'district-user-export/v1';
  exportedAt: string;
  userId: string;
  /** identity's own part, then each holder's sections under its name. */
  services: { identity: IdentityPart; [service: string]: IdentityPart | UserExportSections };
}

interface IdentityPart {
  user: User & { updatedAt: string };
  externalIdentities: Record<string, unknown>[];
}

/**
 * Assembles a person's export: identity's own record (never the password hash or session bookkeeping) and the part
 * of every service the registry lists as holding people's data (ADR 0036), asked over the bus
 * (`<service>.user.export.v1`, request/reply, in parallel). The file is whole or not at all: a service that does
 * not answer in time, or answers out of contract (or as another service), makes it a 503 naming that service — a
 * partial file would silently under-report what the district holds.
 */
@Injectable()
export class UserExportService {
  /** The registry's holders, in its order. */
  private readonly holders: readonly string[];

  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(PLATFORM_RUNTIME) runtime: PlatformRuntime,
  ) {
    this.holders = runtime.peopleData.filter((p) => p.export).map((p) => p.service);
  }

  async assemble(userId: string, timeoutMs = USER_EXPORT_TIMEOUT_MS): Promise<UserExportFile> {
    const user = await this.users.findById(userId);
    if (!user) throw new UserNotFoundError();
    const externalIdentities = await this.users.externalIdentitiesOf(user.id);
    const parts = await Promise.all(
      this.holders.map(async (service) => [service, await this.part(service, user.id, timeoutMs)] as const),
    );
    const missing = parts.filter(([, part]) => part === null).map(([service]) => service);
    if (missing.length > 0) throw new ExportUnavailableError(missing);
    const services = Object.fromEntries(parts) as Record<string, UserExportSections>;
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
  private async part(service: string, userId: string, timeoutMs: number): Promise<UserExportSections | null> {
    let answer: unknown;
    try {
      answer = await this.bus.request(
        PeopleDataSubjects.userExport(service),
        { userId } satisfies UserExportRequest,
        timeoutMs,
      );
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
