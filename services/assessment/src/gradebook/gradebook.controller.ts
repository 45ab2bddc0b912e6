import { Controller, Get, Inject, NotFoundException, Res, StreamableFile } from '@nestjs/common';
import { AssessmentMessages as M, RosterMessages } from '@district/contracts';
import { CurrentUser, IdParam, SignInMessage, type AuthUser } from '@district/nest-common';
import { GradebookService } from './gradebook.service';

const classNotFound = () => new NotFoundException(RosterMessages.classNotFound);

/**
 * `GET /api/classes/{id}/results.zip` (ADR 0042): the class's results as a OneRoster 1.2 gradebook CSV zip, for a
 * teacher of the class, its school's administrator or a district administrator; anyone else: 404, as for a class
 * that does not exist. identity owns `/api/classes`; the gateway sends this one path here.
 */
@Controller('api/classes')
@SignInMessage(M.gradesLoginRequired)
export class GradebookController {
  constructor(@Inject(GradebookService) private readonly gradebook: GradebookService) {}

  @Get(':id/results.zip')
  async export(
    @IdParam('id', classNotFound) id: string,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) reply: { header(name: string, value: string): unknown },
  ): Promise<StreamableFile> {
    if (!(await this.gradebook.mayExport(user, id))) throw classNotFound();
    const zip = await this.gradebook.export(id);
    reply.header('Content-Type', 'application/zip');
    reply.header('Content-Disposition', `attachment; filename="class-${id}-results.zip"`);
    reply.header('Cache-Control', 'no-store');
    return new StreamableFile(zip);
  }
}
