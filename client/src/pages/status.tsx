import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { AlertCircle, CheckCircle2, KeyRound, Loader2, RefreshCw, XCircle } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Progress } from '@client/components/ui/progress';
import {
  loadStatus,
  modelsBusy,
  readToken,
  saveToken,
  type StatusEngine,
  type StatusModel,
  type StatusReport,
  type StatusResult,
} from '@client/features/status/status-api';
import { useDocumentTitle } from '@client/lib/use-document-title';

const CAPABILITY_NAMES: Record<string, string> = {
  database: 'Database',
  'speech-to-text': 'Speech-to-text (recordings)',
  'live-speech-to-text': 'Speech-to-text (live calls)',
  'streaming-speech-to-text': 'Speech-to-text (live calls)',
  'voice-activity': 'Voice detection',
  'speaker-attribution': 'Who said what (one-channel recordings)',
  homeowner: 'Homeowner',
  coach: 'Coach',
  'text-to-speech': 'Text-to-speech',
  voice: 'Voice calls',
  storage: 'File storage',
  jobs: 'Background jobs',
  email: 'Email',
  'lead-capture': 'Lead capture',
  'audio-decode': 'Audio decoding',
};

/** The operators' page: which engines serve each capability, why, how to upgrade, and queue and database health. */
export function StatusPage() {
  useDocumentTitle('Status');
  const [result, setResult] = useState<StatusResult | null>(null);
  const [loading, setLoading] = useState(true);

  const refresh = useCallback(async () => {
    setLoading(true);
    setResult(await loadStatus(readToken()));
    setLoading(false);
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // While a model downloads, its progress moves without a click.
  const busy = result?.kind === 'ok' && modelsBusy(result.report);
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => {
      void loadStatus(readToken()).then(setResult);
    }, 3000);
    return () => clearInterval(timer);
  }, [busy]);

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="space-y-2">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Status</h1>
          <p className="text-slate-600">
            For operators: the engines in use, why they were chosen, how to upgrade them, and the health of
            the queue and the database.
          </p>
        </div>
        <Button variant="outline" onClick={() => void refresh()} disabled={loading}>
          <RefreshCw className={loading ? 'animate-spin' : ''} aria-hidden="true" />
          Refresh
        </Button>
      </header>

      {loading && !result && (
        <p role="status" className="flex items-center gap-2 text-slate-600">
          <Loader2 className="size-5 animate-spin" aria-hidden="true" />
          Loading status...
        </p>
      )}
      {result?.kind === 'error' && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>Status unavailable</AlertTitle>
          <AlertDescription>{result.message}</AlertDescription>
        </Alert>
      )}
      {result?.kind === 'needs-token' && (
        <>
          <TokenForm
            rejected={result.rejected}
            onToken={(token) => {
              saveToken(token);
              void refresh();
            }}
          />
          {result.publicReport && <Report report={result.publicReport} />}
        </>
      )}
      {result?.kind === 'ok' && <Report report={result.report} />}
    </div>
  );
}

function TokenForm({ rejected, onToken }: { rejected: boolean; onToken: (token: string) => void }) {
  const id = useId();
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onToken(value.trim());
  };
  return (
    <Card role="region" aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle id={`${id}-title`} className="flex items-center gap-2">
          <KeyRound className="size-5 text-brand-600" aria-hidden="true" />
          Operator token
        </CardTitle>
        <CardDescription>
          The full status is for operators. Enter the metrics token set for this server; it is kept for this
          browser tab only.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={submit}>
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor={`${id}-token`}>Token</Label>
            <Input
              id={`${id}-token`}
              type="password"
              autoComplete="off"
              value={value}
              aria-invalid={rejected ? true : undefined}
              aria-describedby={rejected ? `${id}-error` : undefined}
              onChange={(e) => setValue(e.target.value)}
            />
          </div>
          <Button type="submit">Show status</Button>
        </form>
        {rejected && (
          <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-700">
            That token was not accepted. Check it and try again.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function OkMark({ ok }: { ok: boolean | undefined }) {
  if (ok === undefined) return null;
  return ok ? (
    <span className="inline-flex items-center gap-1 text-sm font-medium text-emerald-700">
      <CheckCircle2 className="size-4" aria-hidden="true" />
      OK
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 text-sm font-medium text-red-700">
      <XCircle className="size-4" aria-hidden="true" />
      Not working
    </span>
  );
}

function Report({ report }: { report: StatusReport }) {
  const engines = report.engines ?? [];
  const jobs = report.jobs;
  return (
    <div className="space-y-6" data-testid="status-report">
      {report.status && (
        <p className="text-lg font-semibold text-slate-900">
          Overall:{' '}
          <span className={report.status === 'ok' ? 'text-emerald-700' : 'text-amber-700'}>
            {report.status === 'ok' ? 'OK' : report.status === 'degraded' ? 'Degraded' : report.status}
          </span>
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        {report.database && (
          <Card role="region" aria-labelledby="status-db-title">
            <CardHeader className="pb-3">
              <div className="flex items-center justify-between gap-2">
                <CardTitle id="status-db-title">Database</CardTitle>
                <OkMark ok={report.database.ok} />
              </div>
            </CardHeader>
            <CardContent className="space-y-1 text-sm text-slate-700">
              {report.database.driver && <p>Driver: {report.database.driver}</p>}
              {report.database.describe && <p className="break-all">{report.database.describe}</p>}
              {report.database.error && <p className="text-red-700">{report.database.error}</p>}
            </CardContent>
          </Card>
        )}
        {jobs && (
          <Card role="region" aria-labelledby="status-jobs-title">
            <CardHeader className="pb-3">
              <div className="flex items-center justify-between gap-2">
                <CardTitle id="status-jobs-title">Job queue</CardTitle>
                {jobs.worker && (
                  <Badge variant={jobs.worker.running ? 'success' : 'warning'}>
                    {jobs.worker.running ? 'Worker running' : 'No worker here'}
                  </Badge>
                )}
              </div>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-4 gap-2 text-center text-sm">
                {(['queued', 'running', 'failed', 'done'] as const).map((k) => (
                  <div key={k} className="rounded-md bg-slate-50 p-2">
                    <dt className="text-xs text-slate-500 capitalize">{k}</dt>
                    <dd className="text-lg font-semibold text-slate-900 tabular-nums">{jobs[k] ?? 0}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
        )}
      </div>

      {engines.length > 0 && (
        <Card role="region" aria-labelledby="status-engines-title">
          <CardHeader className="pb-3">
            <CardTitle id="status-engines-title">Engines</CardTitle>
            <CardDescription>
              Which engine serves each capability, why, and how to get a better one.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y divide-slate-200">
              {engines.map((e, i) => (
                <EngineRow key={`${e.capability}-${i}`} engine={e} />
              ))}
            </ul>
          </CardContent>
        </Card>
      )}

      {report.models && <ModelsCard models={report.models} />}
    </div>
  );
}

const MODEL_STATE: Record<
  StatusModel['state'],
  { text: string; variant: 'secondary' | 'info' | 'success' | 'danger' }
> = {
  queued: { text: 'Waiting', variant: 'secondary' },
  downloading: { text: 'Downloading', variant: 'info' },
  verifying: { text: 'Checking', variant: 'info' },
  unpacking: { text: 'Unpacking', variant: 'info' },
  ready: { text: 'Ready', variant: 'success' },
  failed: { text: 'Failed', variant: 'danger' },
};

function megabytes(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined ? '?' : `${Math.round(bytes / 1048576)} MB`;
}

function ModelsCard({ models }: { models: NonNullable<StatusReport['models']> }) {
  const list = models.models ?? [];
  return (
    <Card role="region" aria-labelledby="status-models-title">
      <CardHeader className="pb-3">
        <CardTitle id="status-models-title">Better engines</CardTitle>
        <CardDescription>
          {models.enabled
            ? 'Models fetched in the background after start. Each one switches new calls and uploads to the better engine when it is ready.'
            : `Not fetched automatically${models.note ? `: ${models.note}` : ''}.`}
          {models.enabled && models.note ? ` Waiting: ${models.note}.` : ''}
        </CardDescription>
      </CardHeader>
      {list.length > 0 && (
        <CardContent>
          <ul className="divide-y divide-slate-200">
            {list.map((m) => {
              const state = MODEL_STATE[m.state] ?? MODEL_STATE.queued;
              const pct = m.bytesTotal ? ((m.bytesDone ?? 0) / m.bytesTotal) * 100 : 0;
              return (
                <li key={m.id} className="space-y-1.5 py-3" data-model={m.id} data-state={m.state}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-medium text-slate-900">
                      {m.description ?? m.id}
                      {m.capability && (
                        <span className="font-normal text-slate-600">
                          {' '}
                          — {CAPABILITY_NAMES[m.capability] ?? m.capability}
                        </span>
                      )}
                    </p>
                    <Badge variant={state.variant}>{state.text}</Badge>
                  </div>
                  {m.state === 'downloading' && (
                    <Progress value={pct} label={`${m.description ?? m.id} download`} />
                  )}
                  <p className="text-sm text-slate-600 tabular-nums">
                    {m.state === 'ready'
                      ? megabytes(m.bytesTotal ?? m.bytesDone)
                      : `${megabytes(m.bytesDone)} of ${megabytes(m.bytesTotal)}`}
                    {m.licence ? ` · licence ${m.licence}` : ''}
                  </p>
                  {m.reason && (
                    <p className={m.state === 'failed' ? 'text-sm text-red-700' : 'text-sm text-slate-600'}>
                      {m.state === 'failed' ? 'Why: ' : 'Last try: '}
                      {m.reason}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        </CardContent>
      )}
    </Card>
  );
}

function EngineRow({ engine }: { engine: StatusEngine }) {
  return (
    <li className="space-y-1 py-3" data-capability={engine.capability}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-slate-900">
          {CAPABILITY_NAMES[engine.capability] ?? engine.capability}
          {engine.label && <span className="font-normal text-slate-600"> — {engine.label}</span>}
        </p>
        <span className="flex items-center gap-2">
          {engine.quality && (
            <Badge variant={engine.quality === 'enhanced' ? 'success' : 'secondary'}>
              {engine.quality === 'enhanced' ? 'Enhanced' : 'Basic'}
            </Badge>
          )}
          <OkMark ok={engine.ok} />
        </span>
      </div>
      {engine.reason && <p className="text-sm text-slate-600">Why: {engine.reason}</p>}
      {engine.upgradeHint && <p className="text-sm text-slate-600">Upgrade: {engine.upgradeHint}</p>}
      {engine.missing?.map((m) => (
        <p key={m} className="text-sm text-amber-800">
          Missing: {m}
        </p>
      ))}
      {engine.installCommand && (
        <p className="text-sm text-slate-600">
          Adds it: <code>{engine.installCommand}</code>
        </p>
      )}
      {engine.error && <p className="text-sm text-red-700">{engine.error}</p>}
    </li>
  );
}
