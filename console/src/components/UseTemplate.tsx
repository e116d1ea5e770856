// The composer's "Use a template" (docs/console.md, "Use a template"): one of the site's
// templates picked, its variables given values, and the API's own render (the preview call: it
// changes nothing) fills the composer's message with the result — text the owner then reads in
// the previews and may still change before saving. The campaign is made from those fields, as
// any typed one: its previews, validation, A/B variants and drafts work as ever.
import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import { useLoad } from '../lib/hooks';
import { href, sitePath } from '../lib/router';
import type { RenderedTemplate, SiteDetail, Template } from '../lib/types';
import { ErrorBox, Loading, Notice, TextField } from './ui';

export type RenderedContent = RenderedTemplate['content'];

export function UseTemplate({ site, onUse }: { site: SiteDetail; onUse: (content: RenderedContent) => void }) {
  const [open, setOpen] = useState(false);
  // Templates take the plan's permission to create campaigns, as the composer itself.
  if (!site.plan.permissions.includes('create')) return null;
  return (
    <details class="more use-template" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Use a template</summary>
      {open ? <TemplatePicker site={site} onUse={onUse} /> : null}
    </details>
  );
}

function TemplatePicker({ site, onUse }: { site: SiteDetail; onUse: (content: RenderedContent) => void }) {
  // The first page (the API's default size): a site keeps a handful of templates, and the
  // Templates page lists them all.
  const list = useLoad(() => api.templates(site.id, null), [site.id]);
  const [chosenId, setChosenId] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [used, setUsed] = useState<string | null>(null);
  const templates = list.data?.items ?? [];
  const chosen: Template | undefined = templates.find((t) => t.id === chosenId);

  if (list.error) return <ErrorBox error={list.error} />;
  if (!list.data) return <Loading what="Loading the templates" />;
  if (templates.length === 0) {
    return (
      <p class="muted">
        This site has no templates yet. <a href={href(sitePath(site.id, '/templates/new'))}>Make one on the Templates page</a>.
      </p>
    );
  }

  const use = async () => {
    if (!chosen) return;
    setBusy(true);
    setError(undefined);
    setUsed(null);
    try {
      // Only the values typed: an empty field leaves the variable to its default (or to the API's
      // message naming it, when it has none).
      const given = Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== '' && chosen.variables.some((x) => x.name === k)));
      const rendered = await api.renderTemplate(site.id, chosen.id, given);
      onUse(rendered.content);
      setUsed(`The message was filled from “${chosen.name}” (version ${rendered.template.version}). Check it in the previews; you may still change it.`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="template-picker">
      <div class="field">
        <label for="c-template">Template</label>
        <select
          id="c-template"
          value={chosenId}
          onChange={(e) => {
            setChosenId((e.currentTarget as HTMLSelectElement).value);
            setValues({});
            setError(undefined);
            setUsed(null);
          }}
        >
          <option value="">Choose a template</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        {list.data.hasMore ? <p class="hint">The first {templates.length} templates are listed.</p> : null}
      </div>
      {chosen ? (
        <>
          {chosen.variables.length === 0 ? <p class="muted">This template has no variables.</p> : null}
          {chosen.variables.map((v) => (
            <TextField
              key={`${chosen.id}-${v.name}`}
              label={`${v.name}${v.required ? '' : ' (optional)'}`}
              hint={v.required ? undefined : 'Empty: the template’s default.'}
              value={values[v.name] ?? ''}
              onValue={(text) => setValues((m) => ({ ...m, [v.name]: text }))}
            />
          ))}
          <button type="button" class="btn" onClick={use} disabled={busy}>
            {busy ? 'Filling…' : 'Fill the message'}
          </button>
        </>
      ) : null}
      <ErrorBox error={error} />
      {used ? <Notice>{used}</Notice> : null}
    </div>
  );
}
