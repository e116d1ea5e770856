// A site's automations (docs/api-decisions.md, "Automations"; docs/console.md, "Automations"):
// the list, one automation's page — its trigger, exit events, throttle, each step with when it is
// sent, its template and variables, and its results — with Pause/Resume, the throttle's change
// and Delete, and the create form. Everything through the console API's runs of /v2/automations;
// viewers read, editors and owners change. An automation's steps never change once made (a
// changed series is a new automation): the page has no edit form, only the name, the status and
// the throttle change, and the console changes the status and the throttle.
import { useId, useState } from 'preact/hooks';
import { ConfirmDialog, ErrorBox, FieldErrors, Loading, Notice, TextField, ViewerNote } from '../components/ui';
import { api, ApiError } from '../lib/api';
import { splitAutomationMessage, type SplitMessage } from '../lib/field-errors';
import { canChange, count, percent } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import { href, navigate, sitePath } from '../lib/router';
import { useZone } from '../lib/session';
import { showDate } from '../lib/time';
import {
  automationRequest,
  stepTimingWords,
  MAX_STEPS,
  newKey,
  newStep,
  TAG_VALUE_KINDS,
  throttleChange,
  throttleWords,
  triggerWords,
  UNITS,
  type AutomationForm as Form,
  type StepForm,
  type TagValueKind,
  type Unit,
} from '../lib/automations';
import type { Automation, AutomationStep, SiteDetail, Template } from '../lib/types';

/** Templates read for the steps' menus and names: pages of the API's largest size, 10 at most. */
const TEMPLATE_PAGE = 100;
const TEMPLATE_PAGES = 10;

const automationPath = (siteId: string, automationId: string) => sitePath(siteId, `/automations/${encodeURIComponent(automationId)}`);

const STATUS_TEXT: Record<Automation['status'], string> = { active: 'Active', paused: 'Paused' };
const statusBadge = (status: Automation['status']) => <span class={status === 'active' ? 'badge badge-sent' : 'badge badge-scheduled'}>{STATUS_TEXT[status] ?? status}</span>;

export function AutomationsPage({ site, automationId }: { site: SiteDetail; automationId?: string }) {
  useTitle(`Automations · ${site.name}`);
  const editor = canChange(site.role);
  const allowed = site.plan.permissions.includes('create');
  // An automation's page has its name for a heading, once read (AutomationView).
  const detail = allowed && automationId !== undefined && automationId !== 'new';
  return (
    <section>
      {automationId === undefined ? null : (
        <p class="crumbs">
          <a href={href(sitePath(site.id, '/automations'))}>Automations</a>
        </p>
      )}
      {detail ? null : <h1 tabIndex={-1}>{automationId === 'new' ? 'New automation' : 'Automations'}</h1>}
      {automationId === undefined ? (
        <p>
          An automation sends a series of notifications to each person by themselves: a welcome when they subscribe, steps after an event your servers send
          (<code>POST /v2/events</code>) or after a tag of the person is set, each step a template sent a while after the one before. An exit event ends a person's series.
        </p>
      ) : null}
      {editor || detail ? null : <ViewerNote />}
      {!allowed ? (
        <p class="muted">This site's plan does not include automations: they need its permission to create campaigns.</p>
      ) : automationId === undefined ? (
        <AutomationList site={site} />
      ) : automationId === 'new' ? (
        editor ? <NewAutomation site={site} /> : null
      ) : (
        <AutomationView site={site} automationId={automationId} editor={editor} />
      )}
    </section>
  );
}

function AutomationList({ site }: { site: SiteDetail }) {
  const { zone } = useZone();
  const [cursor, setCursor] = useState<string | null>(null);
  const page = useLoad(() => api.automations(site.id, cursor), [site.id, cursor]);
  return (
    <div class="card">
      <h2>Saved automations</h2>
      <ErrorBox error={page.error} />
      {page.loading && !page.data ? <Loading what="Loading the automations" /> : null}
      {page.data ? (
        page.data.items.length === 0 ? (
          <p class="muted">{cursor === null ? 'No automations yet.' : 'No older automations.'}</p>
        ) : (
          <div class="table-scroll" role="region" aria-label="Automations" tabIndex={0}>
            <table class="automations">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Trigger</th>
                  <th scope="col" class="num">
                    Steps
                  </th>
                  <th scope="col">People</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.items.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <a href={href(automationPath(site.id, a.id))}>{a.name}</a>
                    </td>
                    <td>{statusBadge(a.status)}</td>
                    <td>{triggerWords(a.trigger)}</td>
                    <td class="num">{a.steps.length}</td>
                    <td>{a.enrolments ? enrolmentWords(a.enrolments) : <span class="muted">On its page</span>}</td>
                    <td>{showDate(a.createdAt, zone)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      <div class="actions">
        {page.data?.hasMore ? (
          <button type="button" class="btn" onClick={() => setCursor(page.data!.nextCursor)}>
            Older automations
          </button>
        ) : null}
        {cursor !== null ? (
          <button type="button" class="btn" onClick={() => setCursor(null)}>
            Newest automations
          </button>
        ) : null}
        {canChange(site.role) ? (
          <a class="btn btn-primary" href={href(sitePath(site.id, '/automations/new'))}>
            New automation
          </a>
        ) : null}
      </div>
    </div>
  );
}

const enrolmentWords = (e: NonNullable<Automation['enrolments']>) => `${count(e.active)} in progress, ${count(e.completed)} completed, ${count(e.exited)} exited`;

/** The site's templates by id, for the steps' names and the form's menus: every page, up to TEMPLATE_PAGES. */
async function siteTemplates(siteId: string): Promise<{ items: Template[]; more: boolean }> {
  const items: Template[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < TEMPLATE_PAGES; i++) {
    const page = await api.templates(siteId, cursor, TEMPLATE_PAGE);
    items.push(...page.items);
    if (!page.hasMore) return { items, more: false };
    cursor = page.nextCursor;
  }
  return { items, more: true };
}

function AutomationView({ site, automationId, editor }: { site: SiteDetail; automationId: string; editor: boolean }) {
  const { zone } = useZone();
  const automation = useLoad(() => api.automation(site.id, automationId), [site.id, automationId]);
  const templates = useLoad(() => siteTemplates(site.id), [site.id]);
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  useTitle(automation.data ? `${automation.data.name} · Automations · ${site.name}` : `Automations · ${site.name}`);
  if (automation.error || !automation.data) {
    return (
      <>
        <h1 tabIndex={-1}>Automation</h1>
        {automation.error ? <ErrorBox error={automation.error} /> : <Loading what="Loading the automation" />}
      </>
    );
  }
  const a = automation.data;
  const templateName = (id: string) => templates.data?.items.find((t) => t.id === id)?.name;

  const setStatus = async (status: Automation['status']) => {
    setBusy(true);
    setError(undefined);
    setNotice(null);
    try {
      automation.setData(await api.updateAutomation(site.id, a.id, { status }));
      setNotice(status === 'paused' ? 'Paused: no new runs start, and due steps wait until it is resumed.' : 'Resumed: steps that came due meanwhile go out now.');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>{a.name}</h1>
      {editor ? null : <ViewerNote />}
      <div class="card">
        <h2>What it does</h2>
        <dl class="facts">
          <dt>Status</dt>
          <dd>{statusBadge(a.status)}</dd>
          <dt>Trigger</dt>
          <dd>{triggerWords(a.trigger)}</dd>
          <dt>Exit events</dt>
          <dd>
            {a.exitOn.events.length === 0 ? (a.exitOn.click ? null : <span class="muted">None</span>) : a.exitOn.events.map((e, i) => [i > 0 ? ', ' : '', <code key={e}>{e}</code>])}
            {a.exitOn.click ? <span>{a.exitOn.events.length === 0 ? 'A click' : ', and a click'} on one of its notifications</span> : null}
          </dd>
          <dt>Throttle</dt>
          <dd>{throttleWords(a.throttlePerMinute)}</dd>
          {a.enrolments ? (
            <>
              <dt>People</dt>
              <dd>{enrolmentWords(a.enrolments)}</dd>
            </>
          ) : null}
          <dt>Created</dt>
          <dd>{showDate(a.createdAt, zone)}</dd>
          <dt>Changed</dt>
          <dd>{showDate(a.updatedAt, zone)}</dd>
        </dl>
        <ErrorBox error={error} />
        {notice ? <Notice>{notice}</Notice> : null}
        {editor ? (
          <div class="actions">
            {a.status === 'active' ? (
              <button type="button" class="btn" disabled={busy} onClick={() => setStatus('paused')}>
                Pause
              </button>
            ) : (
              <button type="button" class="btn btn-primary" disabled={busy} onClick={() => setStatus('active')}>
                Resume
              </button>
            )}
            <button type="button" class="btn btn-danger" onClick={() => setDeleting(true)}>
              Delete
            </button>
          </div>
        ) : null}
        {editor ? <ThrottleForm site={site} automation={a} onSaved={automation.setData} /> : null}
      </div>
      <div class="card">
        <h2>Steps and their results</h2>
        <p class="hint">Each step waits from the one before it (the first from the trigger). Exits are people who left the series with that step their next.</p>
        <ErrorBox error={templates.error} title="The templates' names could not be read" />
        <StepsTable site={site} steps={a.steps} templateName={templateName} templatesRead={templates.data !== undefined} />
      </div>
      <ConfirmDialog
        open={deleting}
        title={`Delete the automation ${a.name}?`}
        confirmLabel="Delete automation"
        danger
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await api.deleteAutomation(site.id, a.id);
          navigate(sitePath(site.id, '/automations'));
        }}
      >
        <p>Its runs end: nothing more of it is sent to anyone. What it sent stays in the people's history.</p>
      </ConfirmDialog>
    </>
  );
}

/** The throttle's change (PATCH `{throttlePerMinute}`): empty lifts it; a refusal's text at the field, as the create form's. */
function ThrottleForm({ site, automation, onSaved }: { site: SiteDetail; automation: Automation; onSaved: (a: Automation) => void }) {
  const [value, setValue] = useState(() => (automation.throttlePerMinute == null ? '' : String(automation.throttlePerMinute)));
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<SplitMessage | null>(null);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <>
      <form
        class="inline-form"
        aria-label="Throttle"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const element = e.currentTarget as HTMLFormElement;
          setBusy(true);
          setErrors(null);
          setFailure(undefined);
          setSaved(null);
          try {
            const changed = await api.updateAutomation(site.id, automation.id, { throttlePerMinute: throttleChange(value) });
            onSaved(changed);
            setSaved(`Saved: ${throttleWords(changed.throttlePerMinute)}.`);
          } catch (error) {
            if (error instanceof ApiError && error.status === 400) {
              const split = splitAutomationMessage(error.message);
              setErrors(split);
              if (split.rest.length > 0) setFailure(split.rest.join(', '));
              setTimeout(() => element.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
            } else setFailure(error);
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField
          label="At most this many people a minute"
          hint="Its steps go to at most this many people a minute. Empty: no limit."
          inputMode="numeric"
          value={value}
          onValue={(v) => {
            setValue(v);
            setSaved(null);
          }}
          errors={errors?.byField.throttlePerMinute}
        />
        <button type="submit" class="btn" disabled={busy}>
          Save throttle
        </button>
      </form>
      <div role="status" aria-live="polite">
        {/* Inside this live region: no role of its own (a Notice is a status region itself). */}
        {saved ? <div class="alert alert-ok">{saved}</div> : null}
      </div>
      <ErrorBox error={failure} />
    </>
  );
}

function StepsTable({ site, steps, templateName, templatesRead }: { site: SiteDetail; steps: AutomationStep[]; templateName: (id: string) => string | undefined; templatesRead: boolean }) {
  // Impressions and clicks are shown once the API counts them for a step.
  const engagement = steps.some((s) => s.results?.impressions !== undefined || s.results?.clicks !== undefined);
  return (
    <div class="table-scroll" role="region" aria-label="Steps" tabIndex={0}>
      <table class="steps">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Waits</th>
            <th scope="col">Template</th>
            <th scope="col">Variables</th>
            <th scope="col" class="num">
              Sent
            </th>
            <th scope="col" class="num">
              Exits
            </th>
            {engagement ? (
              <>
                <th scope="col" class="num">
                  Impressions
                </th>
                <th scope="col" class="num">
                  Clicks
                </th>
                <th scope="col" class="num">
                  CTR
                </th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {steps.map((s, i) => {
            const name = templateName(s.templateId);
            const r = s.results;
            const variables = Object.entries(s.variables);
            return (
              <tr key={i}>
                <th scope="row">{i + 1}</th>
                <td>{stepTimingWords(s)}</td>
                <td>
                  {name !== undefined ? (
                    <a href={href(sitePath(site.id, `/templates/${encodeURIComponent(s.templateId)}`))}>{name}</a>
                  ) : templatesRead ? (
                    <span class="muted">A deleted template</span>
                  ) : (
                    <code>{s.templateId}</code>
                  )}
                </td>
                <td class="wrap">
                  {variables.length === 0 ? (
                    <span class="muted">None</span>
                  ) : (
                    variables.map(([k, v], j) => [j > 0 ? ', ' : '', <code key={k}>{k}</code>, ` = ${String(v)}`])
                  )}
                </td>
                <td class="num">{count(r?.sent)}</td>
                <td class="num">{count(r?.exits)}</td>
                {engagement ? (
                  <>
                    <td class="num">{count(r?.impressions)}</td>
                    <td class="num">{count(r?.clicks)}</td>
                    <td class="num">{r?.impressions ? percent(r.ctr) : '—'}</td>
                  </>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}


function NewAutomation({ site }: { site: SiteDetail }) {
  const templates = useLoad(() => siteTemplates(site.id), [site.id]);
  if (templates.error) return <ErrorBox error={templates.error} title="The site's templates could not be read" />;
  if (!templates.data) return <Loading what="Loading the site's templates" />;
  if (templates.data.items.length === 0) {
    return (
      <p class="card">
        Each step sends one of the site's templates, and it has none yet. <a href={href(sitePath(site.id, '/templates/new'))}>Make a template</a> first.
      </p>
    );
  }
  return <AutomationForm site={site} templates={templates.data.items} more={templates.data.more} />;
}

function AutomationForm({ site, templates, more }: { site: SiteDetail; templates: Template[]; more: boolean }) {
  const [form, setForm] = useState<Omit<Form, 'steps'>>({ name: '', trigger: 'subscribed', eventName: '', tagName: '', tagValueKind: 'any', tagValue: '', exitEvents: '', throttle: '' });
  const [steps, setSteps] = useState<StepForm[]>(() => [newStep(templates[0].id)]);
  const [errors, setErrors] = useState<SplitMessage | null>(null);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const triggerErrorId = useId();
  const tagKindId = useId();
  const err = (field: string) => errors?.byField[field];
  const set = <K extends keyof typeof form>(k: K) => (v: (typeof form)[K]) => setForm((f) => ({ ...f, [k]: v }));
  const setStep = (key: number, change: Partial<StepForm>) => setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...change } : s)));
  const { trigger, tagValueKind } = form;

  return (
    <form
      class="card automation-form"
      aria-labelledby="automation-form-title"
      onSubmit={async (e) => {
        e.preventDefault();
        const element = e.currentTarget as HTMLFormElement;
        setBusy(true);
        setErrors(null);
        setFailure(undefined);
        try {
          const created = await api.createAutomation(site.id, automationRequest({ ...form, steps }));
          navigate(automationPath(site.id, created.id));
        } catch (error) {
          if (error instanceof ApiError && error.status === 400) {
            setErrors(splitAutomationMessage(error.message));
            // The first field refused takes the focus, as the composer does (in a group of radio buttons, the one chosen).
            setTimeout(() => element.querySelector<HTMLElement>('[aria-invalid="true"], .fieldset-invalid input:not([type="radio"]), .fieldset-invalid input:checked')?.focus(), 0);
          } else setFailure(error);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h2 id="automation-form-title">The series</h2>
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
      <TextField label="Name" value={form.name} onValue={set('name')} maxLength={100} hint="For you: people never see it." errors={err('name')} />
      <fieldset class={err('trigger') ? 'checks fieldset-invalid' : 'checks'} aria-describedby={err('trigger') ? triggerErrorId : undefined}>
        <legend>Starts</legend>
        <label class="check">
          <input type="radio" name="trigger" value="subscribed" checked={trigger === 'subscribed'} onChange={() => set('trigger')('subscribed')} />
          <span>When a person subscribes (a welcome series)</span>
        </label>
        <label class="check">
          <input type="radio" name="trigger" value="event" checked={trigger === 'event'} onChange={() => set('trigger')('event')} />
          <span>When an event arrives for a person</span>
        </label>
        <label class="check">
          <input type="radio" name="trigger" value="tag" checked={trigger === 'tag'} onChange={() => set('trigger')('tag')} />
          <span>When a tag of a person is set</span>
        </label>
        {trigger === 'event' ? (
          <TextField label="Event name" value={form.eventName} onValue={set('eventName')} hint="As your servers send it to POST /v2/events, e.g. cart_abandoned." />
        ) : null}
        {trigger === 'tag' ? (
          <div class="row">
            <TextField label="Tag name" value={form.tagName} onValue={set('tagName')} hint="The tag's key: a-z, 0-9 and _, e.g. plan." />
            <div class="field">
              <label for={tagKindId}>Tag value</label>
              <p class="hint" id={`${tagKindId}-hint`}>
                Starts when the tag is set to it; a date tag's value is its UTC text.
              </p>
              <select id={tagKindId} aria-describedby={`${tagKindId}-hint`} value={tagValueKind} onChange={(e) => set('tagValueKind')((e.currentTarget as HTMLSelectElement).value as TagValueKind)}>
                {TAG_VALUE_KINDS.map((k) => (
                  <option key={k.kind} value={k.kind}>
                    {k.label}
                  </option>
                ))}
              </select>
            </div>
            {tagValueKind === 'text' || tagValueKind === 'number' ? (
              <TextField
                label={tagValueKind === 'text' ? 'The text' : 'The number'}
                inputMode={tagValueKind === 'number' ? 'decimal' : undefined}
                value={form.tagValue}
                onValue={set('tagValue')}
              />
            ) : null}
          </div>
        ) : null}
        <FieldErrors id={triggerErrorId} errors={err('trigger')} />
      </fieldset>
      <h3>Steps</h3>
      <FieldErrors errors={err('steps')} />
      {more ? <p class="hint">The menus list the site's newest {templates.length} templates.</p> : null}
      <ol class="step-list">
        {steps.map((s, i) => (
          <StepFields
            key={s.key}
            index={i}
            step={s}
            templates={templates}
            errors={(field) => err(field === '' ? `steps.${i}` : `steps.${i}.${field}`)}
            onChange={(change) => setStep(s.key, change)}
            onRemove={steps.length > 1 ? () => setSteps((all) => all.filter((x) => x.key !== s.key)) : undefined}
          />
        ))}
      </ol>
      <div class="actions">
        <button type="button" class="btn" disabled={steps.length >= MAX_STEPS} onClick={() => setSteps((all) => [...all, newStep(templates[0].id, '1', 'days')])}>
          Add a step
        </button>
        {steps.length >= MAX_STEPS ? <span class="hint">An automation has at most {MAX_STEPS} steps.</span> : null}
      </div>
      <TextField
        label="Exit events (optional)"
        value={form.exitEvents}
        onValue={set('exitEvents')}
        hint="Event names separated by commas, e.g. checkout_completed: a person for whom one arrives leaves the series."
        errors={err('exitOn')}
      />
      <TextField
        label="At most this many people a minute (optional)"
        value={form.throttle}
        onValue={set('throttle')}
        inputMode="numeric"
        hint="A throttle: its steps go to at most this many people a minute (1 to 1,000,000). Empty: no limit."
        errors={err('throttlePerMinute')}
      />
      <div class="actions">
        <a class="btn" href={href(sitePath(site.id, '/automations'))}>
          Cancel
        </a>
        <button type="submit" class="btn btn-primary" disabled={busy}>
          Create automation
        </button>
      </div>
    </form>
  );
}

function StepFields(props: {
  index: number;
  step: StepForm;
  templates: Template[];
  errors: (field: string) => string[] | undefined;
  onChange: (change: Partial<StepForm>) => void;
  onRemove?: () => void;
}) {
  const { index, step, templates, errors, onChange } = props;
  const id = useId();
  const n = index + 1;
  const delayErrors = errors('delaySeconds');
  const templateErrors = errors('templateId');
  const variableErrors = errors('variables');
  const sendTimeErrors = errors('sendTime');
  const quietErrors = errors('respectQuietHours');
  const setVariable = (key: number, change: Partial<StepForm['variables'][number]>) => onChange({ variables: step.variables.map((v) => (v.key === key ? { ...v, ...change } : v)) });
  return (
    <li class="step">
      <fieldset class={errors('')?.length ? 'fieldset-invalid' : undefined}>
        <legend>Step {n}</legend>
        <FieldErrors errors={errors('')} />
        <div class="row">
          <div class={delayErrors?.length ? 'field field-invalid' : 'field'}>
            <label for={`${id}-delay`}>{index === 0 ? 'Wait after the trigger' : `Wait after step ${index}`}</label>
            <div class="delay-row">
              <input
                id={`${id}-delay`}
                inputMode="decimal"
                value={step.delay}
                onInput={(e) => onChange({ delay: (e.currentTarget as HTMLInputElement).value })}
                aria-invalid={delayErrors?.length ? 'true' : undefined}
                aria-describedby={delayErrors?.length ? `${id}-delay-err` : undefined}
              />
              <select aria-label="Unit of the wait" value={step.unit} onChange={(e) => onChange({ unit: (e.currentTarget as HTMLSelectElement).value as Unit })}>
                {UNITS.map((u) => (
                  <option key={u.name} value={u.name}>
                    {u.name}
                  </option>
                ))}
              </select>
            </div>
            <FieldErrors id={`${id}-delay-err`} errors={delayErrors} />
          </div>
          <div class={templateErrors?.length ? 'field field-invalid' : 'field'}>
            <label for={`${id}-template`}>Template</label>
            <select
              id={`${id}-template`}
              value={step.templateId}
              onChange={(e) => onChange({ templateId: (e.currentTarget as HTMLSelectElement).value })}
              aria-invalid={templateErrors?.length ? 'true' : undefined}
              aria-describedby={templateErrors?.length ? `${id}-template-err` : undefined}
            >
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            <FieldErrors id={`${id}-template-err`} errors={templateErrors} />
          </div>
        </div>
        <fieldset class={variableErrors?.length ? 'checks fieldset-invalid' : 'checks'}>
          <legend>Variables</legend>
          <p class="hint">Given to the template at each send; an event's properties of the same name win over them.</p>
          {step.variables.map((v, j) => (
            <div class="variable-row" key={v.key}>
              <TextField label={`Variable ${j + 1}: name`} value={v.name} onValue={(name) => setVariable(v.key, { name })} />
              <TextField label={`Variable ${j + 1}: value`} value={v.value} onValue={(value) => setVariable(v.key, { value })} />
              <button type="button" class="btn btn-small" aria-label={`Remove variable ${j + 1}`} onClick={() => onChange({ variables: step.variables.filter((x) => x.key !== v.key) })}>
                Remove
              </button>
            </div>
          ))}
          <FieldErrors errors={variableErrors} />
          <button type="button" class="btn btn-small" onClick={() => onChange({ variables: [...step.variables, { key: newKey(), name: '', value: '' }] })}>
            Add a variable
          </button>
        </fieldset>
        {/* The group is marked only for a best-time text with no field of its own shown; the others are at their fields. */}
        <fieldset
          class={sendTimeErrors?.length && !step.bestTime ? 'checks fieldset-invalid' : 'checks'}
          aria-describedby={sendTimeErrors?.length && !step.bestTime ? `${id}-when-err` : undefined}
        >
          <legend>When it is sent</legend>
          <label class="check">
            <input type="checkbox" checked={step.bestTime} onChange={(e) => onChange({ bestTime: (e.currentTarget as HTMLInputElement).checked })} />
            <span>Send at each person's best time</span>
          </label>
          {step.bestTime ? (
            <TextField
              id={`${id}-within`}
              label="Within (hours)"
              hint="1 to 72, from when the step is due: each subscription gets it in the hour of those it most often sees and clicks notifications."
              inputMode="numeric"
              value={step.within}
              onValue={(within) => onChange({ within })}
              errors={sendTimeErrors}
            />
          ) : (
            <FieldErrors id={`${id}-when-err`} errors={sendTimeErrors} />
          )}
          <label class="check">
            <input
              type="checkbox"
              checked={step.quietHours}
              onChange={(e) => onChange({ quietHours: (e.currentTarget as HTMLInputElement).checked })}
              aria-invalid={quietErrors?.length ? 'true' : undefined}
              aria-describedby={quietErrors?.length ? `${id}-quiet-err` : undefined}
            />
            <span>Respect the site's quiet hours</span>
          </label>
          <FieldErrors id={`${id}-quiet-err`} errors={quietErrors} />
        </fieldset>
        {props.onRemove ? (
          <button type="button" class="btn btn-small" onClick={props.onRemove}>
            Remove step {n}
          </button>
        ) : null}
      </fieldset>
    </li>
  );
}
