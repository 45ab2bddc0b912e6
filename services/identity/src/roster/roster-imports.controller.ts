import { Controller, Get, HttpCode, Inject, Ip, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify/sync';
import type {
  RosterImport,
  RosterImportAccepted,
  RosterImportError,
  RosterImportSummary,
} from '@district/contracts';
import { CurrentUser, IdParam, RequireAdmin, type AuthUser } from '@district/nest-common';
import { receiveRosterZip } from './roster-upload';
import { RosterImportService } from './roster-import.service';
import { RosterImportsRepository } from './roster-imports.repository';
import { RosterErrorsInterceptor, RosterImportNotFoundError } from './roster.errors';

/** The history answers this many imports, newest first. */
export const ROSTER_HISTORY_MAX = 100;

const ImportId = () => IdParam('id', () => new RosterImportNotFoundError());

/**
 * The district administrator's roster import (ADR 0042): upload a OneRoster 1.2 CSV zip (202, applied in the
 * background), follow its progress, read the history, download the rows in error as CSV.
 */
@Controller('api/admin/roster')
@RequireAdmin()
@UseInterceptors(RosterErrorsInterceptor)
export class RosterImportsController {
  constructor(
    @Inject(RosterImportService) private readonly service: RosterImportService,
    @Inject(RosterImportsRepository) private readonly imports: RosterImportsRepository,
  ) {}

  /** Multipart, field `file`: the zip is streamed to a temporary file, checked, then queued. */
  @Post('imports')
  @HttpCode(202)
  async upload(
    @CurrentUser() actor: AuthUser,
    @Req() request: FastifyRequest,
    @Ip() ip: string,
  ): Promise<RosterImportAccepted> {
    const upload = await receiveRosterZip(request);
    try {
      return await this.service.accept(upload.path, upload.fileName, { id: actor.id, name: actor.name, ip });
    } catch (error) {
      await upload.discard();
      throw error;
    }
  }

  @Get('imports')
  list(): Promise<RosterImportSummary[]> {
    return this.imports.list(ROSTER_HISTORY_MAX);
  }

  @Get('imports/:id')
  find(@ImportId() id: string): Promise<RosterImport> {
    return this.service.find(id);
  }

  /** The listed errors as CSV (file, line, field, message), safe to open in a spreadsheet. */
  @Get('imports/:id/errors.csv')
  async errorsCsv(
    @ImportId() id: string,
    @Res({ passthrough: true }) reply: { header(name: string, value: string): unknown },
  ): Promise<string> {
    const found = await this.service.find(id);
    reply.header('content-type', 'text/csv; charset=utf-8');
    // The id is a canonical UUID (IdParam), so the file name needs no escaping.
    reply.header('content-disposition', `attachment; filename="roster-import-${found.id}-errors.csv"`);
    reply.header('cache-control', 'no-store');
    return errorsCsv(found.errors);
  }
}

/** A cell a spreadsheet would read as a formula (= + - @, or a tab or return before one) is quoted with '. */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function errorsCsv(errors: readonly RosterImportError[]): string {
  return stringify([
    ['file', 'line', 'field', 'message'],
    ...errors.map((e) => [e.file, String(e.line), e.field, e.message].map(spreadsheetSafe)),
  ]);
}
