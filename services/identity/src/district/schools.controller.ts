import { Controller, Get, Inject } from '@nestjs/common';
import type { School } from '@district/contracts';
import { CurrentUser, RequireApproval, type AuthUser } from '@district/nest-common';
import { DistrictService } from './district.service';

/** GET /api/schools (ADR 0042): the schools the caller may see, by name, each with classCount and canManage. */
@Controller('api')
@RequireApproval()
export class SchoolsController {
  constructor(@Inject(DistrictService) private readonly district: DistrictService) {}

  @Get('schools')
  list(@CurrentUser() actor: AuthUser): Promise<School[]> {
    return this.district.schools(actor);
  }
}
