// Exports (docs/console.md, "Exports"): the site's subscribers (owners; no push endpoint or keys:
// the migration export with keys stays the operators' CLI) and every campaign's results (any
// member), as CSV, streamed by the API and counted here as they come: the rows so far are the
// progress (nothing counts them before the export starts: that would read every row twice).
import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import { saveCsvExport } from '../lib/export-file';
import type { SiteDetail } from '../lib/types';
import { ErrorBox } from './ui';

type ExportState = { step: 'idle' } | { step: 'running'; rows: number } | { step: 'done'; rows: number } | { step: 'failed'; error: unknown };

const count = (n: number) => n.toLocaleString('en');

function ExportRow(props: { label: string; noun: string; filename: string; open: () => Promise<Response> }) {
  const [state, setState] = useState<ExportState>({ step: 'idle' });
  async function run() {
    setState({ step: 'running', rows: 0 });
    try {
      const rows = await saveCsvExport(await props.open(), props.filename, (n) => setState({ step: 'running', rows: n }));
      setState({ step: 'done', rows });
    } catch (err) {
      setState({ step: 'failed', error: err });
    }
  }
  return (
    <>
      <div class="export-row">
        <button type="button" class="btn btn-wrap" onClick={run} disabled={state.step === 'running'}>
          {props.label}
        </button>
        {state.step === 'running' ? <progress aria-label={`${props.label}: in progress`} /> : null}
        <span role="status" aria-live="polite">
          {state.step === 'running' ? `${count(state.rows)} ${props.noun} so far…` : null}
          {state.step === 'done' ? `Saved ${props.filename}: ${count(state.rows)} ${props.noun}.` : null}
        </span>
      </div>
      {state.step === 'failed' ? <ErrorBox error={state.error} title="The export stopped" /> : null}
    </>
  );
}

export function ExportsCard({ site }: { site: SiteDetail }) {
  const owner = site.role === 'owner';
  return (
    <div class="card">
      <h2>Exports</h2>
      <p>CSV files for a spreadsheet, made as they download: a large site's take a while.</p>
      {owner ? (
        <>
          <ExportRow label="Export subscribers" noun="subscribers" filename="subscribers.csv" open={() => api.exportSubscribers(site.id)} />
          <p class="muted small">
            Each subscriber's id, when they subscribed, country, topics, language, time zone, browser, whether still active and when they last opened a
            notification; never their push subscription. Moving the site to another provider with its subscriptions is an operator's task.
          </p>
        </>
      ) : (
        <p class="muted small">The site's owners export its subscribers.</p>
      )}
      <ExportRow label="Export campaign results" noun="campaigns" filename="campaigns.csv" open={() => api.exportCampaigns(site.id)} />
      <p class="muted small">Every campaign, newest first, with its counts.</p>
    </div>
  );
}
