import { Controller, Get, Inject, Res, UseInterceptors } from '@nestjs/common';
import { IdParam, RequireAdmin } from '@district/nest-common';
import { IdentityErrorsInterceptor } from '../identity-errors.interceptor';
import { UserNotFoundError } from '../identity.errors';
import { UserExportService, type UserExportFile } from './user-export.service';

/**
 * The right of access (issue #14 §5, ADR 0021): an administrator downloads everything the district holds about
 * one person as one JSON file.
 */
@Controller('api/admin')
@RequireAdmin()
@UseInterceptors(IdentityErrorsInterceptor)
export class UserExportController {
  constructor(@Inject(UserExportService) private readonly exports: UserExportService) {}

  @Get('users/:id/export')
  async export(
    @IdParam('id', () => new UserNotFoundError()) id: string,
    @Res({ passthrough: true }) reply: { header(name: string, value: string): unknown },
  ): Promise<UserExportFile> {
    const file = await this.exports.assemble(id);
    // The id is a canonical UUID (IdParam), so the file name needs no escaping.
    reply.header('content-disposition', `attachment; filename="user-${file.userId}-export.json"`);
    reply.header('cache-control', 'no-store');
    return file;
  }
}
