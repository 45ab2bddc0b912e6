import { Alert, Button, ButtonLink, Card } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { useSession } from '@/lib/auth';
import { useSignInDialog } from '@/lib/sign-in-dialog';
import { HubMessages, hubViewer, visibleTools } from './tools-catalog';

export default function ToolsHubPage() {
  const { user } = useSession();
  const signIn = useSignInDialog();
  const viewer = hubViewer(user);
  const tools = visibleTools(user);

  return (
    <PageContainer>
      <PageHeader title={HubMessages.title} description={HubMessages.description} />
      {viewer === 'visitor' ? (
        <Alert tone="info" className="mb-6">
          <span className="flex flex-wrap items-center justify-between gap-3">
            <span>{HubMessages.loginPrompt}</span>
            <Button size="sm" onClick={() => signIn.open('signin')}>
              Log in
            </Button>
          </span>
        </Alert>
      ) : null}
      {viewer === 'student' ? (
        <Alert tone="info" title={HubMessages.studentViewTitle} className="mb-6">
          {HubMessages.studentViewBody}
        </Alert>
      ) : null}
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Tools">
        {tools.map((tool) => (
          <li key={tool.id} className="flex">
            <Card className="flex w-full flex-col p-5 transition-shadow hover:shadow-md">
              <div className="flex items-start gap-3">
                <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 24 24"
                    className="size-6"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="1.8"
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  >
                    <path d={tool.icon} />
                  </svg>
                </span>
                <div className="min-w-0">
                  <h2 id={`tool-${tool.id}`} className="text-lg font-semibold text-slate-900">
                    {tool.title}
                  </h2>
                  <p className="mt-1 text-sm text-slate-600">{tool.description}</p>
                </div>
              </div>
              <div className="mt-auto pt-5">
                <ButtonLink
                  to={tool.route}
                  className="w-full"
                  aria-label={`${HubMessages.launch}: ${tool.title}`}
                >
                  {HubMessages.launch}
                </ButtonLink>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </PageContainer>
  );
}
