// A site's templates (docs/api-decisions.md, "Templates"; docs/console.md, "Templates"): the list,
// one opened to edit (or a new one) with the notification previewed as typed, its variables tried
// with values through the API's own render (what a campaign made from it now would show), and
// deletion. Everything /v2/templates does for these fields, through the console API's same calls;
// viewers read and preview, editors and owners change.
import { useState } from 'preact/hooks';
import { NotificationPreview, type PreviewContent } from '../components/Preview';
import { ConfirmDialog, ErrorBox, Loading, Notice, TextArea, TextField, ViewerNote } from '../components/ui';
import { api } from '../lib/api';
import { canChange, hostOf } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import { href, navigate, sitePath } from '../lib/router';
import { useZone } from '../lib/session';
import { showDate } from '../lib/time';
import type { RenderedTemplate, SiteDetail, Template, TemplateFields } from '../lib/types';

const FIELDS = ['name', 'title', 'body', 'link', 'icon', 'image', 'callToAction'] as const;
type Form = Record<(typeof FIELDS)[number], string>;
const EMPTY: Form = { name: '', title: '', body: '', link: '', icon: '', image: '', callToAction: '' };

const formOf = (t: Template): Form => ({ name: t.name, title: t.title ?? '', body: t.body ?? '', link: t.link ?? '', icon: t.icon ?? '', image: t.image ?? '', callToAction: t.callToAction ?? '' });

/** The form as a create body, or as the fields an edit changes (an emptied optional field removed: null). */
function request(form: Form, before: Form | null): TemplateFields {
  const fields: Record<string, string | null> = {};
  for (const f of FIELDS) {
    if (before && form[f] === before[f]) continue;
    if (form[f] !== '') fields[f] = form[f];
    else if (before) fields[f] = null;
  }
  return fields;
}

const previewOf = (c: { title: string; body: string; link: string; icon: string | null; image: string | null; callToAction: string | null }, buttons: string[] = []): PreviewContent => ({
  title: c.title,
  body: c.body,
  icon: c.icon ?? '',
  image: c.image ?? '',
  callToAction: c.callToAction ?? '',
  buttons,
  host: hostOf(c.link),
});

export function TemplatesPage({ site, templateId }: { site: SiteDetail; templateId?: string }) {
  useTitle(`Templates · ${site.name}`);
  const editor = canChange(site.role);
  return (
    <section>
      <h1 tabIndex={-1}>Templates</h1>
      <p>
        A template is a notification kept for reuse. Its texts may hold variables — <code>{'{{ first_name }}'}</code>, or with a default,{' '}
        <code>{'{{ first_name | "there" }}'}</code> — filled in when a campaign is made from it. In links a value is percent-encoded and may only come
        after the address's host.
      </p>
      {editor ? null : <ViewerNote />}
      {!site.plan.permissions.includes('create') ? (
        <p class="muted">This site's plan does not include templates: they need its permission to create campaigns.</p>
      ) : templateId === undefined ? (
        <TemplateList site={site} />
      ) : (
        <TemplateEditor site={site} templateId={templateId === 'new' ? null : templateId} editor={editor} />
      )}
    </section>
  );
}

function TemplateList({ site }: { site: SiteDetail }) {
  const { zone } = useZone();
  const [cursor, setCursor] = useState<string | null>(null);
  const page = useLoad(() => api.templates(site.id, cursor), [site.id, cursor]);
  return (
    <div class="card">
      <h2>Saved templates</h2>
      <ErrorBox error={page.error} />
      {page.loading && !page.data ? <Loading what="Loading the templates" /> : null}
      {page.data ? (
        page.data.items.length === 0 ? (
          <p class="muted">No templates yet.</p>
        ) : (
          <div class="table-scroll" role="region" aria-label="Templates" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Variables</th>
                  <th scope="col">Version</th>
                  <th scope="col">Changed</th>
                </tr>
              </thead>
              <tbody>
                {page.data.items.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <a href={href(sitePath(site.id, `/templates/${t.id}`))}>{t.name}</a>
                    </td>
                    <td>{t.variables.length === 0 ? '—' : t.variables.map((v) => v.name).join(', ')}</td>
                    <td>{t.version}</td>
                    <td>{showDate(t.updatedAt, zone)}</td>
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
            Older templates
          </button>
        ) : null}
        {canChange(site.role) ? (
          <a class="btn btn-primary" href={href(sitePath(site.id, '/templates/new'))}>
            New template
          </a>
        ) : null}
      </div>
    </div>
  );
}

function TemplateEditor({ site, templateId, editor }: { site: SiteDetail; templateId: string | null; editor: boolean }) {
  const saved = useLoad<Template | null>(() => (templateId === null ? Promise.resolve(null) : api.template(site.id, templateId)), [site.id, templateId]);
  if (saved.error) return <ErrorBox error={saved.error} />;
  if (saved.loading && saved.data === undefined) return <Loading what="Loading the template" />;
  return <TemplateForm key={saved.data?.id ?? 'new'} site={site} saved={saved.data ?? null} editor={editor} onSaved={(t) => saved.setData(t)} />;
}

function TemplateForm({ site, saved, editor, onSaved }: { site: SiteDetail; saved: Template | null; editor: boolean; onSaved: (t: Template) => void }) {
  const [form, setForm] = useState<Form>(saved ? formOf(saved) : EMPTY);
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const set = (f: keyof Form) => (value: string) => setForm({ ...form, [f]: value });

  const save = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setNotice(null);
    try {
      const t = saved ? await api.updateTemplate(site.id, saved.id, request(form, formOf(saved))) : await api.createTemplate(site.id, request(form, null));
      if (saved) {
        onSaved(t);
        setNotice(`Saved as version ${t.version}.`);
      } else navigate(sitePath(site.id, `/templates/${t.id}`));
    } catch (err) {
      setError(err);
    }
  };

  return (
    <>
      <form class="card" onSubmit={save} aria-labelledby="template-form-title">
        <h2 id="template-form-title">{saved ? saved.name : 'New template'}</h2>
        <fieldset disabled={!editor}>
          <TextField label="Name" value={form.name} onValue={set('name')} maxLength={100} />
          <TextField label="Title" value={form.title} onValue={set('title')} hint="3 to 100 characters once the variables are filled in." />
          <TextArea label="Text" value={form.body} onValue={set('body')} hint="3 to 300 characters once the variables are filled in." />
          <TextField label="Link" type="url" value={form.link} onValue={set('link')} hint="An http(s) address; variables only after its host, e.g. https://shop.example/p/{{ product_id }}." />
          <TextField label="Icon (optional)" type="url" value={form.icon} onValue={set('icon')} />
          <TextField label="Image (optional)" type="url" value={form.image} onValue={set('image')} />
          <TextField label="Button text (optional)" value={form.callToAction} onValue={set('callToAction')} />
        </fieldset>
        <ErrorBox error={error} title="The template was not saved" />
        {notice ? <Notice>{notice}</Notice> : null}
        <div class="actions">
          <a class="btn" href={href(sitePath(site.id, '/templates'))}>
            All templates
          </a>
          {editor ? (
            <button type="submit" class="btn btn-primary">
              {saved ? 'Save changes' : 'Save template'}
            </button>
          ) : null}
          {editor && saved ? (
            <button type="button" class="btn btn-danger" onClick={() => setDeleting(true)}>
              Delete
            </button>
          ) : null}
        </div>
      </form>
      <div class="card">
        <h2>Preview as typed</h2>
        <NotificationPreview content={previewOf(form)} />
      </div>
      {saved ? <TryValues site={site} template={saved} /> : null}
      {saved ? (
        <ConfirmDialog
          open={deleting}
          title={`Delete the template ${saved.name}?`}
          confirmLabel="Delete template"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await api.deleteTemplate(site.id, saved.id);
            navigate(sitePath(site.id, '/templates'));
          }}
        >
          <p>Campaigns made from it keep their content.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** The saved version rendered by the API with the values typed: exactly what a campaign would get, or why it would be refused. */
function TryValues({ site, template }: { site: SiteDetail; template: Template }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [rendered, setRendered] = useState<RenderedTemplate | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const render = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      // Only the values typed: an empty field leaves its variable to its default.
      setRendered(await api.renderTemplate(site.id, template.id, Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''))));
    } catch (err) {
      setRendered(null);
      setError(err);
    }
  };
  return (
    <form class="card" onSubmit={render} aria-labelledby="try-values-title">
      <h2 id="try-values-title">Try it with values (version {template.version})</h2>
      {template.variables.length === 0 ? <p class="muted">This template has no variables.</p> : null}
      {template.variables.map((v) => (
        <TextField
          key={v.name}
          label={v.name}
          value={values[v.name] ?? ''}
          onValue={(value) => setValues({ ...values, [v.name]: value })}
          hint={v.required ? 'Required: it has no default.' : 'Optional: left empty, its default is used.'}
        />
      ))}
      <div class="actions">
        <button type="submit" class="btn">
          Show the notification
        </button>
      </div>
      <ErrorBox error={error} title="A campaign made from it now would be refused" />
      {rendered ? (
        <NotificationPreview content={previewOf(rendered.content, rendered.content.actions.map((a) => a.title))} />
      ) : null}
    </form>
  );
}
