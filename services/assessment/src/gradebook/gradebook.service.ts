import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { ZipFile } from 'yazl';
import { ONEROSTER_MANIFEST_FILES } from '@district/contracts';
import { RosterScope, type AuthUser } from '@district/nest-common';
import { GradebookRepository, type ResultKey } from './gradebook.repository';

/** Results read per query while the export streams (never the whole class's history in memory). */
export const GRADEBOOK_PAGE = 1000;

/** OneRoster 1.2 CSV gradebook headers (the lineItems and results files, in the binding's column order). */
export const LINE_ITEMS_HEADER = [
  'sourcedId',
  'status',
  'dateLastModified',
  'title',
  'description',
  'assignDate',
  'dueDate',
  'classSourcedId',
  'categorySourcedId',
  'gradingPeriodSourcedId',
  'resultValueMin',
  'resultValueMax',
] as const;
export const RESULTS_HEADER = [
  'sourcedId',
  'status',
  'dateLastModified',
  'lineItemSourcedId',
  'studentSourcedId',
  'scoreStatus',
  'score',
  'scoreDate',
  'comment',
] as const;

const EXPORTED = new Set<string>(['lineItems', 'results']);

/** The category every quiz's line item names (the SIS maps it to its own). */
export const QUIZ_CATEGORY = 'quiz';

const day = (at: Date) => at.toISOString().slice(0, 10);

function manifestCsv(): string {
  const rows: string[][] = [
    ['propertyName', 'value'],
    ['manifest.version', '1.0'],
    ['oneroster.version', '1.2'],
    ...ONEROSTER_MANIFEST_FILES.map((f) => [`file.${f}`, EXPORTED.has(f) ? 'bulk' : 'absent']),
    ['source.systemName', 'district assessment'],
    ['source.systemCode', 'assessment'],
  ];
  return `${rows.map((r) => r.join(',')).join('\r\n')}\r\n`;
}

/**
 * A class's results back to the district's SIS (ADR 0042): a OneRoster 1.2 gradebook CSV zip (manifest, one line
 * item per quiz its students have results on, one result per result), streamed — CSV rows into the zip, results
 * read page by page — for a teacher of the class, its school's administrator or a district administrator.
 */
@Injectable()
export class GradebookService {
  constructor(
    @Inject(GradebookRepository) private readonly gradebook: GradebookRepository,
    @Inject(RosterScope) private readonly roster: RosterScope,
  ) {}

  /** Whether the viewer may export the class: an active class they manage. */
  async mayExport(viewer: AuthUser, classId: string): Promise<boolean> {
    if ((await this.roster.schoolOf(classId)) === undefined) return false;
    return this.roster.managesClass(viewer, classId);
  }

  /** The zip's bytes as they are made. */
  async export(classId: string): Promise<Readable> {
    const ids = await this.roster.sourcedIdsOf(classId);
    const classSourcedId = ids.classSourcedId ?? classId;
    const studentSourcedId = (userId: string) => ids.students.get(userId) ?? userId;
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from(manifestCsv(), 'utf8'), 'manifest.csv');
    zip.addReadStreamLazy('lineItems.csv', (done) => {
      const csv = stringify({ header: true, columns: [...LINE_ITEMS_HEADER], record_delimiter: 'windows' });
      this.gradebook.lineItems(classId).then(
        (items) => {
          for (const item of items)
            csv.write({
              sourcedId: item.quizId,
              status: 'active',
              dateLastModified: item.modifiedAt.toISOString(),
              title: item.title,
              description: item.description,
              assignDate: day(item.assignedAt),
              // Quizzes have no due date: the day of the class's last result on it.
              dueDate: day(item.lastResultAt),
              classSourcedId,
              categorySourcedId: QUIZ_CATEGORY,
              gradingPeriodSourcedId: '',
              resultValueMin: 0,
              resultValueMax: 100,
            });
          csv.end();
        },
        (error: Error) => csv.destroy(error),
      );
      done(null, csv);
    });
    zip.addReadStreamLazy('results.csv', (done) => {
      const rows = Readable.from(this.resultRecords(classId, studentSourcedId));
      const csv = stringify({ header: true, columns: [...RESULTS_HEADER], record_delimiter: 'windows' });
      rows.on('error', (error) => csv.destroy(error));
      done(null, rows.pipe(csv));
    });
    zip.end();
    return zip.outputStream as Readable;
  }

  private async *resultRecords(
    classId: string,
    studentSourcedId: (userId: string) => string,
  ): AsyncGenerator<Record<(typeof RESULTS_HEADER)[number], string | number>> {
    let after: ResultKey | null = null;
    for (;;) {
      const page = await this.gradebook.results(classId, GRADEBOOK_PAGE, after);
      for (const r of page.rows)
        yield {
          sourcedId: r.id,
          status: 'active',
          dateLastModified: r.createdAt.toISOString(),
          lineItemSourcedId: r.quizId,
          studentSourcedId: studentSourcedId(r.userId),
          scoreStatus: 'fully graded',
          score: r.score,
          scoreDate: day(r.createdAt),
          comment: '',
        };
      if (page.rows.length < GRADEBOOK_PAGE || !page.last) return;
      after = page.last;
    }
  }
}
