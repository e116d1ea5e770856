// A site's webhooks (docs/webhooks.md; docs/console.md, "Webhooks"): the endpoints listed with
// their state, one added (its signing secret shown once, with a copy button), and an endpoint's
// own page — edit, disable and enable, rotate the secret with its overlap, delete, a test event
// (ping), and its recent deliveries with their attempts, answer and latency, each redeliverable.
// Everything /v2/webhooks does, through the console API's same calls; owners only.
import { useId, useState } from 'preact/hooks';
import { ConfirmDialog, CopyField, ErrorBox, FieldErrors, Loading, Notice, TextField } from '../components/ui';
import { api, ApiError } from '../lib/api';
import { splitWebhookMessage, type SplitMessage } from '../lib/field-errors';
import { useInterval, useLoad, useTitle, type Loaded } from '../lib/hooks';
import { href, navigate, sitePath } from '../lib/router';
import { useZone } from '../lib/session';
import { showDate } from '../lib/time';
import type { SiteDetail, Webhook, WebhookDelivery, WebhookWithSecret } from '../lib/types';
import {
  changedFields,
  DEFAULT_OVERLAP_HOURS,
  DELIVERY_STATE_BADGE,
  DELIVERY_STATE_TEXT,
  lastAnswer,
  latency,
  overlapValue,
  WEBHOOK_EVENTS,
  WEBHOOK_STATE_BADGE,
  WEBHOOK_STATE_TEXT,
  webhookState,
} from '../lib/webhooks';

/** While an event of the endpoint is pending, its deliveries are read again this often. */
const PENDING_REFRESH_MS = 3000;

/** Why the pages show nothing to manage, or null when the user may manage the site's webhooks. */
function refusal(site: SiteDetail): string | null {
  if (site.role !== 'owner') return "Webhooks are managed by the site's owners: their addresses and secrets are theirs to see.";
  if (!site.plan.permissions.includes('reports')) return "This site's plan does not include webhooks: they need its permission to read campaign reports.";
  return null;
}

export function WebhooksPage({ site }: { site: SiteDetail }) {
  useTitle(`Webhooks · ${site.name}`);
  const refused = refusal(site);
  return (
    <section>
      <h1 tabIndex={-1}>Webhooks</h1>
      <p>
        A webhook tells your own server what happened — a campaign sent or finished, a browser subscribed or left, notifications shown or clicked — as a
        signed <code>POST</code> to an address you give, retried for 24 hours until it answers <code>2xx</code>.
      </p>
      {refused ? <p class="muted">{refused}</p> : <Endpoints site={site} />}
    </section>
  );
}

function Endpoints({ site }: { site: SiteDetail }) {
  const { zone } = useZone();
  const list = useLoad<Webhook[]>(() => api.webhooks(site.id), [site.id]);
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  return (
    <>
      <div class="card">
        <h2>Endpoints</h2>
        <ErrorBox error={list.error} />
        {list.loading && !list.data ? <Loading what="Loading the endpoints" /> : null}
        {list.data ? (
          list.data.length === 0 ? (
            <p class="muted">No endpoints yet: add one below.</p>
          ) : (
            <div class="table-scroll" role="region" aria-label="Webhook endpoints" tabIndex={0}>
              <table class="webhooks">
                <thead>
                  <tr>
                    <th scope="col">Endpoint</th>
                    <th scope="col">Events</th>
                    <th scope="col">State</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((w) => {
                    const state = webhookState(w);
                    return (
                      <tr key={w.id}>
                        <td class="break">
                          <a href={href(sitePath(site.id, `/webhooks/${encodeURIComponent(w.id)}`))}>{w.url}</a>
                          {w.description ? <div class="muted small">{w.description}</div> : null}
                        </td>
                        <td>{w.events.join(', ')}</td>
                        <td>
                          <span class={WEBHOOK_STATE_BADGE[state]}>{WEBHOOK_STATE_TEXT[state]}</span>
                        </td>
                        <td>{showDate(w.createdAt, zone)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )
        ) : null}
        <p class="muted small">A site may have 10 endpoints. Deliveries of the last 7 days are kept.</p>
      </div>
      <div class="card">
        <h2>Add an endpoint</h2>
        <WebhookForm
          submitLabel="Add endpoint"
          initial={{ url: '', events: [], description: '' }}
          onSubmit={async (fields) => {
            const made = await api.createWebhook(site.id, fields);
            setCreated(made);
            await list.reload(true);
            return true;
          }}
        />
        {created ? <SecretShown secret={created.secret} what="The new endpoint's signing secret" onDone={() => setCreated(null)} /> : null}
      </div>
    </>
  );
}

/** A secret the API answered once (create, rotate): copy it now, it is never shown again. */
function SecretShown({ secret, what, onDone }: { secret: string; what: string; onDone: () => void }) {
  return (
    <div class="new-key" role="region" aria-label={what}>
      <Notice>Copy the signing secret now: it is shown only once. Your server checks each request's signature with it.</Notice>
      <CopyField label="Signing secret" value={secret} />
      <button type="button" class="btn btn-small" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}

interface FormFields {
  url: string;
  events: string[];
  description: string;
}

/**
 * The URL, the events and the description, sent as typed: the API's refusal is shown at the
 * fields it names (and whole above the form). `onSubmit` answers whether the form starts over.
 */
function WebhookForm({ initial, submitLabel, onSubmit }: { initial: FormFields; submitLabel: string; onSubmit: (fields: FormFields) => Promise<boolean> }) {
  const [form, setForm] = useState<FormFields>(initial);
  const [errors, setErrors] = useState<SplitMessage | null>(null);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const eventsErrorId = useId();
  const err = (field: string) => errors?.byField[field];
  const set = <K extends keyof FormFields>(key: K, value: FormFields[K]) => setForm((f) => ({ ...f, [key]: value }));

  return (
    <form
      class="webhook-form"
      onSubmit={async (e) => {
        e.preventDefault();
        // (currentTarget is gone once the event is dispatched: kept for after the call.)
        const element = e.currentTarget as HTMLFormElement;
        setBusy(true);
        setErrors(null);
        setFailure(undefined);
        try {
          if (await onSubmit(form)) setForm(initial);
        } catch (error) {
          if (error instanceof ApiError && error.status === 400) {
            setErrors(splitWebhookMessage(error.message));
            // The first field refused takes the focus, as the composer does.
            setTimeout(() => element.querySelector<HTMLElement>('[aria-invalid="true"], .fieldset-invalid input')?.focus(), 0);
          } else setFailure(error);
        } finally {
          setBusy(false);
        }
      }}
    >
      {errors ? (
        <div class="alert alert-error" role="alert">
          <strong>Not saved:</strong>
          <ul>
            {[...Object.values(errors.byField).flat(), ...errors.rest].map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <ErrorBox error={failure} />
      <TextField
        label="URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://example.com/hooks/push"
        hint="An https address on the public internet; we POST each event to it."
        value={form.url}
        onValue={(v) => set('url', v)}
        errors={err('url')}
      />
      <fieldset class={err('events') ? 'checks fieldset-invalid' : 'checks'} aria-describedby={err('events') ? eventsErrorId : undefined}>
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((ev) => (
          <label key={ev.type} class="check event-check">
            <input
              type="checkbox"
              name="events"
              value={ev.type}
              checked={form.events.includes(ev.type)}
              onChange={(e) => set('events', (e.currentTarget as HTMLInputElement).checked ? [...form.events, ev.type] : form.events.filter((x) => x !== ev.type))}
            />
            <span>
              <code>{ev.type}</code> <span class="muted">{ev.text}</span>
            </span>
          </label>
        ))}
        <FieldErrors id={eventsErrorId} errors={err('events')} />
      </fieldset>
      <TextField label="Description (optional)" hint="What the endpoint is for, e.g. “CRM sync”." value={form.description} onValue={(v) => set('description', v)} errors={err('description')} />
      <button type="submit" class="btn btn-primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}

export function WebhookPage({ site, webhookId }: { site: SiteDetail; webhookId: string }) {
  useTitle(`Webhook · ${site.name}`);
  const refused = refusal(site);
  return (
    <section>
      <p class="crumbs">
        <a href={href(sitePath(site.id, '/webhooks'))}>Webhooks</a>
      </p>
      {refused ? (
        <>
          <h1 tabIndex={-1}>Webhook endpoint</h1>
          <p class="muted">{refused}</p>
        </>
      ) : (
        <Endpoint site={site} webhookId={webhookId} />
      )}
    </section>
  );
}

function Endpoint({ site, webhookId }: { site: SiteDetail; webhookId: string }) {
  const { zone } = useZone();
  const endpoint = useLoad<Webhook>(() => api.webhook(site.id, webhookId), [site.id, webhookId]);
  const [said, setSaid] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [rotated, setRotated] = useState<WebhookWithSecret | null>(null);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const [overlap, setOverlap] = useState(String(DEFAULT_OVERLAP_HOURS));
  const [busy, setBusy] = useState(false);
  const deliveries = useLoad<WebhookDelivery[]>(() => api.webhookDeliveries(site.id, webhookId), [site.id, webhookId]);

  if (endpoint.error) {
    return (
      <>
        <h1 tabIndex={-1}>Webhook endpoint</h1>
        <ErrorBox error={endpoint.error} />
      </>
    );
  }
  const w = endpoint.data;
  if (!w) return <Loading what="Loading the endpoint" />;
  const state = webhookState(w);

  /** One action of the page: its outcome said in the status line, or its refusal in the alert. */
  const act = async (run: () => Promise<string>) => {
    setBusy(true);
    setSaid(null);
    setFailure(undefined);
    try {
      setSaid(await run());
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Webhook endpoint</h1>
        <span class={WEBHOOK_STATE_BADGE[state]}>{WEBHOOK_STATE_TEXT[state]}</span>
      </div>
      <div class="card">
        <dl class="facts" id="webhook-facts">
          <dt>URL</dt>
          <dd class="break mono">{w.url}</dd>
          <dt>Description</dt>
          <dd class="break">{w.description || '—'}</dd>
          <dt>Events</dt>
          <dd>{w.events.join(', ')}</dd>
          <dt>State</dt>
          <dd>
            {state === 'disabled'
              ? `Disabled ${showDate(w.disabledAt, zone)}${w.disabledReason ? `: ${w.disabledReason}` : ''}. Nothing is sent to it; its pending events wait until it is enabled.`
              : state === 'failing'
                ? `Enabled; its deliveries have failed since ${showDate(w.failingSince, zone)} (after 24 hours of failures it is disabled).`
                : 'Enabled'}
          </dd>
          {w.previousSecretExpiresAt ? (
            <>
              <dt>Previous secret</dt>
              <dd>Still signs requests until {showDate(w.previousSecretExpiresAt, zone)}</dd>
            </>
          ) : null}
          <dt>Created</dt>
          <dd>{showDate(w.createdAt, zone)}</dd>
        </dl>
      </div>
      <div class="actions">
        <button
          type="button"
          class="btn btn-primary"
          disabled={busy}
          onClick={() =>
            act(async () => {
              await api.pingWebhook(site.id, w.id);
              await deliveries.reload(true);
              return w.enabled
                ? 'A webhook.ping event is queued: it is listed under Recent deliveries with its outcome.'
                : 'A webhook.ping event is queued: it waits until the endpoint is enabled.';
            })
          }
        >
          Send a test event
        </button>
        <button
          type="button"
          class="btn"
          disabled={busy}
          onClick={() =>
            act(async () => {
              endpoint.setData(await api.updateWebhook(site.id, w.id, { enabled: !w.enabled }));
              return w.enabled ? 'The endpoint is disabled: nothing is sent to it until it is enabled again.' : 'The endpoint is enabled: its waiting events go out now.';
            })
          }
        >
          {w.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="btn" disabled={busy} onClick={() => setConfirm('rotate')}>
          Rotate secret
        </button>
        <button type="button" class="btn btn-danger" disabled={busy} onClick={() => setConfirm('delete')}>
          Delete
        </button>
      </div>
      <div role="status" aria-live="polite">
        {said ? <div class="alert alert-ok">{said}</div> : null}
      </div>
      <ErrorBox error={failure} />
      {rotated ? <SecretShown secret={rotated.secret} what="The endpoint's new signing secret" onDone={() => setRotated(null)} /> : null}

      <Deliveries site={site} webhook={w} deliveries={deliveries} act={act} busy={busy} />

      <div class="card">
        <h2>Edit</h2>
        <WebhookForm
          // A new form (its fields filled again) for each saved version of the endpoint.
          key={JSON.stringify([w.url, w.events, w.description])}
          submitLabel="Save changes"
          initial={{ url: w.url, events: w.events, description: w.description }}
          onSubmit={async (fields) => {
            const changes = changedFields(w, fields);
            setSaid(null);
            if (changes === null) {
              setSaid('Nothing to save: no field changed.');
              return false;
            }
            endpoint.setData(await api.updateWebhook(site.id, w.id, changes));
            setSaid('The changes are saved.');
            return false;
          }}
        />
      </div>

      <ConfirmDialog
        open={confirm === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          const next = await api.rotateWebhookSecret(site.id, w.id, overlapValue(overlap));
          endpoint.setData(next);
          setRotated(next);
          setSaid(null);
        }}
      >
        <p>A new secret signs every request from now on. Meanwhile the current one signs them too, so your server can switch over without refusing any.</p>
        <TextField label="Hours the current secret stays valid (0 to 168)" type="number" inputMode="numeric" value={overlap} onValue={setOverlap} />
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'delete'}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        danger
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          await api.deleteWebhook(site.id, w.id);
          navigate(sitePath(site.id, '/webhooks'));
        }}
      >
        <p class="break">
          Nothing more is sent to <code>{w.url}</code>, and its pending deliveries are dropped. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

function Deliveries(props: {
  site: SiteDetail;
  webhook: Webhook;
  deliveries: Loaded<WebhookDelivery[]>;
  act: (run: () => Promise<string>) => Promise<void>;
  busy: boolean;
}) {
  const { site, webhook: w, deliveries, act, busy } = props;
  const { zone } = useZone();
  // A pending event of an enabled endpoint is about to be attempted: its outcome shows by itself.
  const pending = w.enabled && (deliveries.data ?? []).some((d) => d.state === 'pending');
  useInterval(() => void deliveries.reload(true), PENDING_REFRESH_MS, pending);
  return (
    <div class="card">
      <div class="page-head">
        <h2>Recent deliveries</h2>
        <button type="button" class="btn btn-small" onClick={() => void deliveries.reload(true)}>
          Refresh
        </button>
      </div>
      <p class="muted small">
        The endpoint's 100 most recent events{pending ? ', refreshed every few seconds while one is pending' : ''}. A redelivery sends the same event (same id)
        again now, with a fresh 24 hours of retries.
      </p>
      <ErrorBox error={deliveries.error} />
      {deliveries.loading && !deliveries.data ? <Loading what="Loading the deliveries" /> : null}
      {deliveries.data ? (
        deliveries.data.length === 0 ? (
          <p class="muted">No events yet. Send a test event to see one.</p>
        ) : (
          <div class="table-scroll" role="region" aria-label="Recent deliveries" tabIndex={0}>
            <table class="deliveries">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">State</th>
                  <th scope="col" class="num">Attempts</th>
                  <th scope="col">Last answer</th>
                  <th scope="col" class="num">Latency</th>
                  <th scope="col">Last attempt</th>
                  <th scope="col">Next attempt</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.map((d) => (
                  <tr key={d.eventId} data-event={d.eventId}>
                    <td>
                      <code>{d.type}</code>
                      <div class="muted small">{showDate(d.createdAt, zone)}</div>
                      <div class="muted small mono">{d.eventId}</div>
                    </td>
                    <td>
                      <span class={DELIVERY_STATE_BADGE[d.state]}>{DELIVERY_STATE_TEXT[d.state]}</span>
                      {d.deliveredAt ? <div class="muted small">{showDate(d.deliveredAt, zone)}</div> : null}
                    </td>
                    <td class="num">{d.attempts}</td>
                    <td class="break">
                      {lastAnswer(d)}
                      {/* The error says more than the status only for redirects and failed connections. */}
                      {d.lastError && d.lastError !== lastAnswer(d) ? <div class="muted small">{d.lastError}</div> : null}
                    </td>
                    <td class="num">{latency(d.lastLatencyMs)}</td>
                    <td>{showDate(d.lastAttemptAt, zone)}</td>
                    <td>{showDate(d.nextAttemptAt, zone)}</td>
                    <td class="row-actions">
                      <button
                        type="button"
                        class="btn btn-small"
                        disabled={busy}
                        aria-label={`Redeliver ${d.type} event ${d.eventId}`}
                        onClick={() =>
                          act(async () => {
                            await api.redeliverWebhookEvent(site.id, w.id, d.eventId);
                            await deliveries.reload(true);
                            return `The ${d.type} event is sent again${w.enabled ? '' : ' once the endpoint is enabled'}.`;
                          })
                        }
                      >
                        Redeliver
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
    </div>
  );
}
