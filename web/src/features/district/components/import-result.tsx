import type { RosterImport } from '@district/contracts/identity';
import {
  Alert,
  Badge,
  buttonClasses,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
} from '@/components/ui';
import { importErrorsCsvUrl, inProgress } from '../api/roster-imports';
import { DistrictTexts, IMPORT_STATUS_LABELS } from '../district.constants';

const count = new Intl.NumberFormat('en-US');

export function ImportStatusBadge({ status }: { status: RosterImport['status'] }) {
  const tone = status === 'done' ? 'success' : status === 'failed' ? 'danger' : 'brand';
  return <Badge tone={tone}>{IMPORT_STATUS_LABELS[status]}</Badge>;
}

function Progress({ imported }: { imported: RosterImport }) {
  const { processed, total } = imported;
  const known = total > 0;
  const percent = known ? Math.min(100, Math.round((processed / total) * 100)) : 0;
  return (
    <div>
      <div className="mb-1 flex justify-between text-sm text-slate-600">
        <span id={`import-progress-${imported.id}`}>Rows processed</span>
        <span>
          {known ? `${count.format(processed)} of ${count.format(total)}` : count.format(processed)}
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={`import-progress-${imported.id}`}
        aria-valuemin={0}
        aria-valuemax={known ? total : undefined}
        aria-valuenow={known ? processed : undefined}
        aria-valuetext={known ? `${percent}%` : 'Counting the rows…'}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

function Counts({ imported }: { imported: RosterImport }) {
  const items: Array<[string, number]> = [
    ['Created', imported.created],
    ['Updated', imported.updated],
    ['Deactivated', imported.deactivated],
    ['Errors', imported.errorCount],
  ];
  return (
    <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4" aria-label="Import counts">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-xl border border-slate-200 bg-white p-4">
          <dt className="text-sm font-medium text-slate-600">{label}</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900">{count.format(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function ErrorRows({ imported }: { imported: RosterImport }) {
  return (
    <section aria-labelledby="import-errors-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="import-errors-heading" className="text-lg font-semibold text-slate-900">
          Rows skipped
        </h3>
        <a href={importErrorsCsvUrl(imported.id)} download className={buttonClasses('outline', 'sm')}>
          {DistrictTexts.downloadErrors}
        </a>
      </div>
      {imported.errorCount > imported.errors.length ? (
        <p className="text-sm text-slate-600">
          The first {count.format(imported.errors.length)} of {count.format(imported.errorCount)} are listed;
          the download has the same list.
        </p>
      ) : null}
      <Table caption="Rows skipped by the import">
        <TableHead>
          <tr>
            <TableHeaderCell>File</TableHeaderCell>
            <TableHeaderCell>Line</TableHeaderCell>
            <TableHeaderCell>Field</TableHeaderCell>
            <TableHeaderCell>Message</TableHeaderCell>
          </tr>
        </TableHead>
        <TableBody>
          {imported.errors.map((e, i) => (
            <TableRow key={`${e.file}:${e.line}:${e.field}:${i}`}>
              <TableCell>{e.file}</TableCell>
              <TableCell>{e.line}</TableCell>
              <TableCell>{e.field}</TableCell>
              <TableCell>{e.message}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}

/** One import: its progress while it runs (the page asks every second), then its result and the rows it skipped. */
export function ImportResult({ imported }: { imported: RosterImport }) {
  const running = inProgress(imported);
  return (
    <section
      aria-labelledby="import-heading"
      aria-busy={running}
      className="space-y-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="import-heading" className="text-xl font-semibold text-slate-900">
          {imported.fileName}
        </h2>
        <ImportStatusBadge status={imported.status} />
      </div>
      <Progress imported={imported} />
      <Counts imported={imported} />
      <div>
        {imported.status === 'done' ? (
          <Alert tone={imported.errorCount > 0 ? 'warning' : 'success'}>
            <p>
              Import finished
              {imported.errorCount > 0
                ? `: ${count.format(imported.errorCount)} ${imported.errorCount === 1 ? 'row was' : 'rows were'} skipped.`
                : '.'}
            </p>
          </Alert>
        ) : null}
        {imported.status === 'failed' ? (
          <Alert tone="error" title="Import failed">
            <p>{imported.failure ?? 'The import stopped.'}</p>
          </Alert>
        ) : null}
      </div>
      {!running && imported.errorCount > 0 ? <ErrorRows imported={imported} /> : null}
    </section>
  );
}
