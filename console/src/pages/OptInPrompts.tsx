// The site plugin's opt-in prompts (docs/console.md, "Opt-in prompts"; docs/site-plugin.md): the
// soft prompt (none, a slide-down or a modal), its texts, when it appears and how long "not now"
// keeps it away, the bell, and the topics a visitor may choose, with a live preview of what the
// site's visitors will see. Owners and editors change them in one form whose values go to the
// API as typed (the delivery service judges them and answers every refused field); viewers read.
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Loading, TextArea, TextField, ViewerNote } from '../components/ui';
import { api, ApiError } from '../lib/api';
import { canChange } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import type { NameCount, OptInPrompts, SiteDetail } from '../lib/types';

const KINDS: { value: OptInPrompts['kind']; label: string; does: string }[] = [
  { value: 'none', label: 'None', does: 'No prompt of its own (the bell may still open one).' },
  { value: 'slidedown', label: 'Slide-down', does: 'A small panel at the top of the page; the page stays usable.' },
  { value: 'modal', label: 'Modal', does: 'A dialog over the page, which waits for an answer.' },
];
const MAX_TOPICS = 10;

/** The form's fields as typed: numbers stay text until sent. */
interface Form {
  kind: OptInPrompts['kind'];
  title: string;
  body: string;
  acceptLabel: string;
  notNowLabel: string;
  pageViews: string;
  delaySeconds: string;
  snoozeDays: string;
  bellEnabled: boolean;
  bellPosition: OptInPrompts['bell']['position'];
  topics: { name: string; label: string }[];
}

const formOf = (p: OptInPrompts): Form => ({
  kind: p.kind,
  title: p.title,
  body: p.body,
  acceptLabel: p.acceptLabel,
  notNowLabel: p.notNowLabel,
  pageViews: String(p.trigger.pageViews),
  delaySeconds: String(p.trigger.delaySeconds),
  snoozeDays: String(p.snoozeDays),
  bellEnabled: p.bell.enabled,
  bellPosition: p.bell.position,
  topics: p.topics,
});

/** A whole number typed is sent as one; anything else as typed, for the API to name. */
const numberOrText = (text: string): number | string => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : text);

const changeOf = (f: Form) => ({
  kind: f.kind,
  title: f.title,
  body: f.body,
  acceptLabel: f.acceptLabel,
  notNowLabel: f.notNowLabel,
  trigger: { pageViews: numberOrText(f.pageViews), delaySeconds: numberOrText(f.delaySeconds) },
  snoozeDays: numberOrText(f.snoozeDays),
  bell: { enabled: f.bellEnabled, position: f.bellPosition },
  topics: f.topics,
});

export function OptInPromptsPage({ site }: { site: SiteDetail }) {
  useTitle(`Opt-in prompts · ${site.name}`);
  const prompts = useLoad<OptInPrompts>(() => api.prompts(site.id), [site.id]);
  return (
    <section>
      <h1 tabIndex={-1}>Opt-in prompts</h1>
      <p class="muted">
        What the site plugin shows visitors before the browser asks them to allow notifications. The browser's own question comes only after a visitor says yes here. A change reaches
        visitors within five minutes.
      </p>
      {prompts.error ? <ErrorBox error={prompts.error} /> : null}
      {prompts.loading && !prompts.data ? <Loading what="Loading the opt-in prompts" /> : null}
      {prompts.data && canChange(site.role) ? <PromptsForm site={site} prompts={prompts.data} onSaved={prompts.setData} /> : null}
      {prompts.data && !canChange(site.role) ? (
        <div class="card">
          <ViewerNote />
          <Preview form={formOf(prompts.data)} />
        </div>
      ) : null}
    </section>
  );
}

function PromptsForm({ site, prompts, onSaved }: { site: SiteDetail; prompts: OptInPrompts; onSaved: (p: OptInPrompts) => void }) {
  const [form, setForm] = useState<Form>(() => formOf(prompts));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const known = useLoad<NameCount[]>(() => api.topics(site.id), [site.id]);
  useEffect(() => setForm(formOf(prompts)), [prompts]);
  const set = <K extends keyof Form>(k: K) => (value: Form[K]) => {
    setForm((f) => ({ ...f, [k]: value }));
    setSaved(false);
  };
  const setTopic = (i: number, change: Partial<Form['topics'][number]>) => set('topics')(form.topics.map((t, j) => (j === i ? { ...t, ...change } : t)));

  return (
    <div class="prompts-layout">
      <form
        noValidate
        class="card prompts-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setSaved(false);
          setError(undefined);
          try {
            onSaved(await api.updatePrompts(site.id, changeOf(form)));
            setSaved(true);
          } catch (err) {
            setError(err instanceof ApiError && err.status === 400 ? `The prompts were not saved: ${err.message}` : err);
            requestAnimationFrame(() => document.querySelector<HTMLElement>('.prompts-error')?.focus());
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="prompts-error" tabIndex={-1}>
          <ErrorBox error={error} />
        </div>
        <fieldset class="checks">
          <legend>Prompt</legend>
          {KINDS.map((k) => (
            <label key={k.value} class="check">
              <input type="radio" name="p-kind" value={k.value} checked={form.kind === k.value} onChange={() => set('kind')(k.value)} />
              {k.label} <span class="muted small">— {k.does}</span>
            </label>
          ))}
        </fieldset>
        <TextField id="p-title" label="Title" maxLength={80} counter={80} value={form.title} onValue={set('title')} />
        <TextArea id="p-body" label="Text" hint="Plain text; line breaks are kept." counter={300} value={form.body} onValue={set('body')} />
        <div class="row">
          <TextField id="p-accept" label="Accept button" maxLength={40} value={form.acceptLabel} onValue={set('acceptLabel')} />
          <TextField id="p-not-now" label="“Not now” button" maxLength={40} value={form.notNowLabel} onValue={set('notNowLabel')} />
        </div>
        <fieldset>
          <legend>When it appears</legend>
          <div class="row">
            <TextField id="p-views" label="From page view (1–100)" inputMode="numeric" value={form.pageViews} onValue={set('pageViews')} />
            <TextField id="p-delay" label="Seconds after the page loads (0–300)" inputMode="numeric" value={form.delaySeconds} onValue={set('delaySeconds')} />
          </div>
          <TextField id="p-snooze" label="Days away after “not now” (1–365)" inputMode="numeric" value={form.snoozeDays} onValue={set('snoozeDays')} />
        </fieldset>
        <fieldset class="checks">
          <legend>Bell</legend>
          <label class="check">
            <input type="checkbox" checked={form.bellEnabled} onChange={(e) => set('bellEnabled')((e.currentTarget as HTMLInputElement).checked)} />
            Show a bell that opens the prompt, or says that notifications are on
          </label>
          <div class="field">
            <label for="p-bell-position">Bell position</label>
            <select id="p-bell-position" value={form.bellPosition} onChange={(e) => set('bellPosition')((e.currentTarget as HTMLSelectElement).value as Form['bellPosition'])}>
              <option value="bottom-right">Bottom right</option>
              <option value="bottom-left">Bottom left</option>
            </select>
          </div>
        </fieldset>
        <fieldset>
          <legend>Topics to choose in the prompt</legend>
          <p class="hint">Up to {MAX_TOPICS}. A visitor gets each one they keep checked; the topic name is the one campaigns aim at.</p>
          <datalist id="p-known-topics">
            {(known.data ?? []).map((t) => (
              <option key={t.name} value={t.name} />
            ))}
          </datalist>
          {form.topics.map((t, i) => (
            <div class="row prompt-topic" key={i}>
              <div class="field">
                <label for={`p-topic-${i}`}>Topic {i + 1}</label>
                <input id={`p-topic-${i}`} list="p-known-topics" value={t.name} onInput={(e) => setTopic(i, { name: (e.currentTarget as HTMLInputElement).value })} />
              </div>
              <TextField id={`p-topic-label-${i}`} label={`Label of topic ${i + 1}`} maxLength={40} value={t.label} onValue={(label) => setTopic(i, { label })} />
              <button type="button" class="btn btn-small" onClick={() => set('topics')(form.topics.filter((_, j) => j !== i))}>
                Remove topic {i + 1}
              </button>
            </div>
          ))}
          {form.topics.length < MAX_TOPICS ? (
            <button type="button" class="btn btn-small" onClick={() => set('topics')([...form.topics, { name: '', label: '' }])}>
              Add a topic
            </button>
          ) : null}
        </fieldset>
        <div class="actions">
          <button type="submit" class="btn btn-primary" disabled={busy}>
            Save opt-in prompts
          </button>
        </div>
        <div role="status" aria-live="polite">
          {saved ? <div class="alert alert-ok">Saved. Visitors see the new prompts within five minutes.</div> : null}
        </div>
      </form>
      <div class="card">
        <Preview form={form} />
      </div>
    </div>
  );
}

/** What a visitor sees, drawn from the form as it is (not interactive: a picture of the prompt and the bell). */
function Preview({ form }: { form: Form }) {
  const kind = form.kind === 'none' ? (form.bellEnabled ? 'slidedown' : null) : form.kind;
  return (
    <figure class="prompt-preview">
      <figcaption>
        <h2>Preview</h2>
      </figcaption>
      <div class="pp-page" aria-hidden="true">
        {kind ? (
          <div class={`pp-dialog pp-${kind}`}>
            <p class="pp-title">{form.title}</p>
            {form.body ? <p class="pp-body">{form.body}</p> : null}
            {form.topics.length > 0 ? (
              <ul class="pp-topics">
                {form.topics.map((t, i) => (
                  <li key={i}>☑ {t.label}</li>
                ))}
              </ul>
            ) : null}
            <p class="pp-actions">
              <span class="pp-secondary">{form.notNowLabel}</span>
              <span class="pp-primary">{form.acceptLabel}</span>
            </p>
          </div>
        ) : null}
        {form.bellEnabled ? <span class={`pp-bell pp-bell-${form.bellPosition}`}>🔔</span> : null}
      </div>
      <p class="muted small">
        {form.kind === 'none'
          ? form.bellEnabled
            ? 'No prompt appears by itself; the bell opens this one.'
            : 'Nothing is shown: the plugin shows its default “Get notifications” button instead.'
          : `Shown from the ${ordinal(Number(form.pageViews))} page view of a visitor, ${form.delaySeconds} s after the page loads; away for ${form.snoozeDays} days after “${form.notNowLabel}”.`}
      </p>
    </figure>
  );
}

function ordinal(n: number): string {
  if (!Number.isInteger(n)) return 'nth';
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${tail}`;
}
