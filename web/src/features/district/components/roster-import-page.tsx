import { useRef, useState, type FormEvent } from 'react';
import { RosterMessages, type RosterImportSummary } from '@district/contracts/identity';
import {
  Alert,
  Button,
  Card,
  CardBody,
  QueryState,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
  useToastMutation,
} from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { errorMessage } from '@/lib/api-client';
import { formatFullDate } from '@/lib/format';
import { useRosterImport, useRosterImports, useUploadRoster } from '../api/roster-imports';
import { DistrictTexts } from '../district.constants';
import { ImportResult, ImportStatusBadge } from './import-result';

function UploadForm({ onStarted }: { onStarted: (id: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // A refused file is shown beside the form, in the server's words; a started import shows itself below.
  const upload = useToastMutation(useUploadRoster(), { log: 'Roster upload failed' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) {
      setProblem(RosterMessages.noFile);
      input.current?.focus();
      return;
    }
    setProblem(null);
    void upload.run(file).then((outcome) => {
      if (outcome.ok) {
        if (input.current) input.current.value = '';
        onStarted(outcome.data.id);
      } else setProblem(errorMessage(outcome.error, DistrictTexts.importFailed));
    });
  };

  return (
    <Card>
      <CardBody>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4 sm:flex-row sm:items-end">
          <div className="min-w-0 flex-1">
            <label htmlFor="roster-file" className="mb-1 block text-sm font-medium text-slate-700">
              OneRoster CSV zip
            </label>
            <input
              ref={input}
              id="roster-file"
              name="file"
              type="file"
              accept=".zip,application/zip"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'roster-file-error' : undefined}
              onChange={() => setProblem(null)}
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:font-semibold file:text-brand-800"
            />
          </div>
          <Button type="submit" loading={upload.isPending}>
            Upload
          </Button>
        </form>
        {problem ? (
          <Alert tone="error" className="mt-4">
            <p id="roster-file-error">{problem}</p>
          </Alert>
        ) : null}
      </CardBody>
    </Card>
  );
}

function CurrentImport({ id }: { id: string }) {
  const current = useRosterImport(id);
  return (
    <QueryState
      query={current}
      loading="Loading the import…"
      errorTitle={DistrictTexts.importLoadFailed}
      errorText="Please try again in a moment."
      retryLabel="Try again"
    >
      {(found) => <ImportResult imported={found} />}
    </QueryState>
  );
}

function History({ onShow }: { onShow: (id: string) => void }) {
  const history = useRosterImports();
  return (
    <section aria-labelledby="history-heading" className="space-y-3">
      <h2 id="history-heading" className="text-xl font-semibold text-slate-900">
        History
      </h2>
      <QueryState
        query={history}
        loading="Loading the import history…"
        errorTitle={DistrictTexts.historyLoadFailed}
        errorText="Please try again in a moment."
        retryLabel="Try again"
        empty={<p className="text-slate-500">{DistrictTexts.noImports}</p>}
      >
        {(list: RosterImportSummary[]) => (
          <Table caption="Roster imports, newest first">
            <TableHead>
              <tr>
                <TableHeaderCell>File</TableHeaderCell>
                <TableHeaderCell>Uploaded</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Created</TableHeaderCell>
                <TableHeaderCell>Updated</TableHeaderCell>
                <TableHeaderCell>Deactivated</TableHeaderCell>
                <TableHeaderCell>Errors</TableHeaderCell>
                <TableHeaderCell className="text-right">Actions</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {list.map((i) => (
                <TableRow key={i.id} data-import-id={i.id}>
                  <TableCell className="max-w-60 break-words font-medium text-slate-900">
                    {i.fileName}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{formatFullDate(i.createdAt)}</TableCell>
                  <TableCell>
                    <ImportStatusBadge status={i.status} />
                  </TableCell>
                  <TableCell>{i.created}</TableCell>
                  <TableCell>{i.updated}</TableCell>
                  <TableCell>{i.deactivated}</TableCell>
                  <TableCell>{i.errorCount}</TableCell>
                  <TableCell className="text-right">
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => onShow(i.id)}
                      aria-label={`Show the import of ${i.fileName} (${formatFullDate(i.createdAt)})`}
                    >
                      Show
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryState>
    </section>
  );
}

/**
 * /admin/roster — the district administrator uploads the SIS's OneRoster zip; the import runs on the server in the
 * background, and this page follows it (progress, counts), then shows what it skipped, above the history.
 */
export function RosterImportPage() {
  const [currentId, setCurrentId] = useState<string | null>(null);
  return (
    <PageContainer>
      <PageHeader title={DistrictTexts.importTitle} description={DistrictTexts.importDescription} />
      <div className="space-y-8">
        <UploadForm onStarted={setCurrentId} />
        {currentId ? <CurrentImport key={currentId} id={currentId} /> : null}
        <History onShow={setCurrentId} />
      </div>
    </PageContainer>
  );
}
