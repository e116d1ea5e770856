// The site's sending settings (docs/console.md, "Site settings"): the default throttle of new
// campaigns, the frequency cap, the site's time zone and its quiet hours. Members read them; owners change them
// in one form, whose values go to the API as typed (it judges them: the operators' rules) and
// whose refusal is shown at each field in the API's words (lib/field-errors.ts).
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { splitSettingsMessage, type SplitMessage } from '../lib/field-errors';
import { useLoad } from '../lib/hooks';
import { knownZones } from '../lib/time';
import { formOf, settingsChange, type SettingsForm as Form } from '../lib/settings-form';
import type { SiteDetail, SiteSettings } from '../lib/types';
import { ErrorBox, FieldErrors, Loading, TextField } from './ui';

const describe = (s: SiteSettings) => ({
  throttle: s.defaultThrottlePerMinute === null ? 'No default: campaigns without a pace are sent as fast as possible' : `${s.defaultThrottlePerMinute.toLocaleString('en')} pushes per minute`,
  cap: s.frequencyCap ? `At most ${s.frequencyCap.campaigns} campaign${s.frequencyCap.campaigns === 1 ? '' : 's'} per subscriber in any ${s.frequencyCap.hours} hour${s.frequencyCap.hours === 1 ? '' : 's'}` : 'No cap',
  zone: s.timeZone,
  quiet: s.quietHours ? `From ${s.quietHours.from} to ${s.quietHours.to} in each subscriber's time zone: pushes due then are sent at ${s.quietHours.to}` : 'None: pushes are sent when due',
});

export function SiteSettingsCard({ site }: { site: SiteDetail }) {
  const settings = useLoad<SiteSettings>(() => api.settings(site.id), [site.id]);
  const owner = site.role === 'owner';
  return (
    <div class="card">
      <h2>Sending</h2>
      {settings.error ? <ErrorBox error={settings.error} /> : null}
      {settings.loading && !settings.data ? <Loading what="Loading the sending settings" /> : null}
      {settings.data && owner ? <SettingsForm site={site} settings={settings.data} onSaved={settings.setData} /> : null}
      {settings.data && !owner ? (
        <>
          <dl class="settings-list">
            <dt>Default pace of new campaigns</dt>
            <dd>{describe(settings.data).throttle}</dd>
            <dt>Frequency cap</dt>
            <dd>{describe(settings.data).cap}</dd>
            <dt>Site's time zone</dt>
            <dd>{describe(settings.data).zone}</dd>
            <dt>Quiet hours</dt>
            <dd>{describe(settings.data).quiet}</dd>
          </dl>
          <p class="muted small">The site's owners change these.</p>
        </>
      ) : null}
    </div>
  );
}

function SettingsForm({ site, settings, onSaved }: { site: SiteDetail; settings: SiteSettings; onSaved: (s: SiteSettings) => void }) {
  const [form, setForm] = useState<Form>(() => formOf(settings));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [refused, setRefused] = useState<SplitMessage | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => setForm(formOf(settings)), [settings]);
  const set = (k: keyof Form) => (value: string) => {
    setForm((f) => ({ ...f, [k]: value }));
    setSaved(false);
  };
  const errors = refused?.byField ?? {};
  const zones = knownZones();
  // The stored zone is the platform's canonical name; the browser's list may spell it otherwise.
  const zoneChoices = form.zone !== '' && !zones.includes(form.zone) ? [form.zone, ...zones] : zones;

  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setSaved(false);
        setRefused(null);
        setError(undefined);
        try {
          onSaved(await api.updateSettings(site.id, settingsChange(form)));
          setSaved(true);
        } catch (err) {
          if (err instanceof ApiError && err.status === 400) {
            const split = splitSettingsMessage(err.message);
            setRefused(split);
            if (split.rest.length > 0) setError(split.rest.join(', '));
            // The first field with a message, for keyboard and screen reader users.
            requestAnimationFrame(() => document.querySelector<HTMLElement>('.site-settings [aria-invalid="true"]')?.focus());
          } else setError(err);
        } finally {
          setBusy(false);
        }
      }}
      class="site-settings"
    >
      {refused && Object.keys(refused.byField).length > 0 ? (
        <div class="alert alert-error" role="alert">
          The settings were not saved: {Object.values(refused.byField).flat().join(', ')}
        </div>
      ) : null}
      <ErrorBox error={error} />
      <TextField
        id="s-throttle"
        label="Default pace of new campaigns (pushes per minute)"
        hint="For campaigns created without a pace of their own. Empty: as fast as possible."
        inputMode="numeric"
        value={form.throttle}
        onValue={set('throttle')}
        errors={errors.defaultThrottlePerMinute}
      />
      <fieldset class={errors.frequencyCap ? 'checks fieldset-invalid' : 'checks'} aria-describedby="s-cap-hint">
        <legend>Frequency cap</legend>
        <p class="hint" id="s-cap-hint">
          At most this many campaigns reach a subscriber in any window of this many hours (up to 720); campaigns may opt out. Both empty: no cap.
        </p>
        <FieldErrors errors={errors.frequencyCap} />
        <div class="row">
          <TextField id="s-cap-campaigns" label="Campaigns" inputMode="numeric" value={form.capCampaigns} onValue={set('capCampaigns')} errors={errors['frequencyCap.campaigns']} />
          <TextField id="s-cap-hours" label="Hours" inputMode="numeric" value={form.capHours} onValue={set('capHours')} errors={errors['frequencyCap.hours']} />
        </div>
      </fieldset>
      <div class={errors.timeZone ? 'field field-invalid' : 'field'}>
        <label for="s-zone">Site's time zone</label>
        <p class="hint" id="s-zone-hint">
          Local-time campaigns reach subscribers whose zone is unknown at the time in this zone.
        </p>
        <select
          id="s-zone"
          value={form.zone}
          aria-describedby={errors.timeZone ? 's-zone-hint s-zone-err' : 's-zone-hint'}
          aria-invalid={errors.timeZone ? 'true' : undefined}
          onChange={(e) => set('zone')((e.currentTarget as HTMLSelectElement).value)}
        >
          <option value="">UTC (none set)</option>
          {zoneChoices
            .filter((z) => z !== 'UTC')
            .map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
        </select>
        <FieldErrors id="s-zone-err" errors={errors.timeZone} />
      </div>
      <fieldset class={errors.quietHours ? 'checks fieldset-invalid' : 'checks'} aria-describedby="s-quiet-hint">
        <legend>Quiet hours</legend>
        <p class="hint" id="s-quiet-hint">
          No push is sent from this time to that one (HH:MM, 24 hours; past midnight allowed, e.g. 21:00 to 08:00) in each subscriber's time zone, the site's for those
          without one: pushes due then are sent when the window ends. Both empty: none.
        </p>
        <FieldErrors errors={errors.quietHours} />
        <div class="row">
          <TextField id="s-quiet-from" label="From" placeholder="21:00" value={form.quietFrom} onValue={set('quietFrom')} errors={errors['quietHours.from']} />
          <TextField id="s-quiet-to" label="To" placeholder="08:00" value={form.quietTo} onValue={set('quietTo')} errors={errors['quietHours.to']} />
        </div>
      </fieldset>
      <div class="actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          Save sending settings
        </button>
      </div>
      <div role="status" aria-live="polite">
        {/* Inside this live region: no role of its own (a Notice is a status region itself). */}
        {saved ? <div class="alert alert-ok">Saved. New campaigns and the next sends use these settings.</div> : null}
      </div>
    </form>
  );
}
