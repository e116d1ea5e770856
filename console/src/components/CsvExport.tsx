// One streamed CSV export (docs/console.md, "Exports"): the button, the rows counted as they come
// (the progress), then the file saved. Every CSV download of the console goes through it.
import { useState } from 'preact/hooks';
import { saveCsvExport } from '../lib/export-file';
import { ErrorBox } from './ui';

type ExportState = { step: 'idle' } | { step: 'running'; rows: number } | { step: 'done'; rows: number } | { step: 'failed'; error: unknown };

const count = (n: number) => n.toLocaleString('en');

/** A button that streams one CSV export to a file, with the rows so far as its progress. */
export function CsvExport(props: { label: string; noun: string; filename: string; open: () => Promise<Response> }) {
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
