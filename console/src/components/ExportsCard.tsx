// Exports (docs/console.md, "Exports"): the site's subscribers (owners; no push endpoint or keys:
// the migration export with keys stays the operators' CLI) and every campaign's results (any
// member), as CSV, streamed by the API and counted here as they come: the rows so far are the
// progress (nothing counts them before the export starts: that would read every row twice).
import { api } from '../lib/api';
import type { SiteDetail } from '../lib/types';
import { CsvExport } from './CsvExport';

export function ExportsCard({ site }: { site: SiteDetail }) {
  const owner = site.role === 'owner';
  return (
    <div class="card">
      <h2>Exports</h2>
      <p>CSV files for a spreadsheet, made as they download: a large site's take a while.</p>
      {owner ? (
        <>
          <CsvExport label="Export subscribers" noun="subscribers" filename="subscribers.csv" open={() => api.exportSubscribers(site.id)} />
          <p class="muted small">
            Each subscriber's id, when they subscribed, country, topics, language, time zone, browser, whether still active and when they last opened a
            notification; never their push subscription. Moving the site to another provider with its subscriptions is an operator's task.
          </p>
        </>
      ) : (
        <p class="muted small">The site's owners export its subscribers.</p>
      )}
      <CsvExport label="Export campaign results" noun="campaigns" filename="campaigns.csv" open={() => api.exportCampaigns(site.id)} />
      <p class="muted small">Every campaign, newest first, with its counts.</p>
    </div>
  );
}
