import type { Type } from '@nestjs/common';
import type { UserExportSections } from '@district/contracts';
import type { EntityManager } from 'typeorm';

/**
 * What a service holds about people, declared in its registry entry (`ServiceDefinition.peopleData`, ADR 0036).
 * The platform does the rest: `PeopleDataModule.forService` gives it the audit trail and answers identity for it,
 * and identity learns the participants from the registry, as the gateway learns the routes.
 */
export interface PeopleDataDeclaration {
  /** Its administrative actions go to identity's audit log: the platform provides `AuditTrail`. */
  readonly audit: boolean;
  /**
   * It keeps records about people: its implementation of the right of access (export) and of erasure (a deleted
   * person's records removed or anonymised), provided in one of its modules. Absent: identity never asks it.
   */
  readonly holder?: Type<PeopleDataHolder>;
}

/** The two duties of a service that keeps records about people (ADR 0021), as the platform calls them. */
export interface PeopleDataHolder {
  /**
   * The person's part of the right-of-access file: this service's rows about them, as named sections of plain
   * JSON (`{ comments: [...], posts: [...] }`). `userId` is canonical (lower-case).
   */
  exportSections(userId: string): Promise<UserExportSections>;
  /**
   * The person was deleted in identity: remove or anonymise what this service keeps about them, writing through
   * `tx` — the inbox transaction of `identity.user.deleted.v1`, so it happens once (a failure rolls back and the
   * event comes again). `userId` is canonical (lower-case).
   */
  forget(tx: EntityManager, userId: string): Promise<void>;
}

/** A service of the registry that holds people's data, as identity sees it. */
export interface PeopleDataParticipant {
  readonly service: string;
  /** Its `<service>.audit.recorded.v1` events are recorded in the audit log. */
  readonly audit: boolean;
  /** It is asked for its part of every export (`<service>.user.export.v1`). */
  readonly export: boolean;
}

/** The participants of a registry, in its order: what the launcher hands identity (`PlatformRuntime.peopleData`). */
export function peopleDataParticipants(
  services: ReadonlyArray<{ readonly name: string; readonly peopleData?: PeopleDataDeclaration }>,
): PeopleDataParticipant[] {
  return services.flatMap(({ name, peopleData }) =>
    peopleData ? [{ service: name, audit: peopleData.audit, export: peopleData.holder !== undefined }] : [],
  );
}
