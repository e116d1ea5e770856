// The composer: a campaign's content with a live preview in four styles, its audience (topics
// and countries, with the live estimate of the `estimate` endpoint), when to send it (now, or a
// date entered in the owner's time zone and sent as UTC `scheduleDate`), and the optional sending
// controls (segment, throttle, frequency cap, local time, A/B test). Saved as a draft, sent now or
// scheduled through POST /console/api/sites/{id}/campaigns; the API's validation messages are
// shown at the fields they are about. `?from=<id>` duplicates a campaign; `#/…/campaigns/<id>/edit`
// edits a draft in place (PATCH …/campaigns/<id>: kept, sent now or scheduled).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { BestTimeOptions, bestTimeFrom, bestTimeRequest, EMPTY_BEST_TIME, type BestTimeForm } from '../components/BestTime';
import { EMPTY_MORE_OPTIONS, MoreOptions, moreOptionsFrom, moreOptionsRequest, type MoreOptionsForm } from '../components/MoreOptions';
import { NotificationPreview, type PreviewContent } from '../components/Preview';
import { UseTemplate } from '../components/UseTemplate';
import { ConfirmDialog, ErrorBox, FieldErrors, Loading, TextArea, TextField, ViewerNote } from '../components/ui';
import { api, ApiError, messageOf } from '../lib/api';
import { splitMessage, type SplitMessage } from '../lib/field-errors';
import { count, countryName, COUNTRY_PREFIX, hostOf } from '../lib/format';
import { useDebounced, useLoad, useTitle } from '../lib/hooks';
import { href, navigate, sitePath } from '../lib/router';
import { useZone } from '../lib/session';
import { instantToWall, knownZones, offsetLabel, offsetMinutes, showDate, showUtc, wallToApiDate, wallToInstant } from '../lib/time';
import type { AbTestRequest, AbVariant, Browser, Campaign, CreateCampaignRequest, NameCount, Segment, SiteDetail } from '../lib/types';

interface VariantForm {
  title: string;
  body: string;
  link: string;
  icon: string;
  image: string;
  callToAction: string;
}

interface SegmentForm {
  languages: string;
  timeZones: string;
  offsetMin: string;
  offsetMax: string;
  browsers: Browser[];
  after: string;
  before: string;
  engagedWithin: string;
  notEngagedFor: string;
  /** Tag conditions are set through the API; a draft's are kept as they are (not edited here). */
  tags: NonNullable<Segment['tags']>;
}

interface Form {
  title: string;
  body: string;
  link: string;
  icon: string;
  image: string;
  callToAction: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  ttlDays: string;
  topics: string[];
  countries: string[];
  /** Everyone: every country the site has subscribers in (the unidentified one too), so every subscriber. */
  everyone: boolean;
  when: 'now' | 'scheduled';
  scheduleWall: string;
  segment: SegmentForm;
  throttle: string;
  ignoreCap: boolean;
  ignoreQuiet: boolean;
  localTime: string;
  abOn: boolean;
  variants: VariantForm[];
  testPercent: string;
  winnerMetric: 'ctr' | 'impressions';
  windowMinutes: string;
  more: MoreOptionsForm;
  bestTime: BestTimeForm;
}

/** The API's field (field-errors.ts) for a form field whose name differs. */
const ERROR_FIELD: Partial<Record<keyof Form, string>> = {
  topics: 'audience',
  countries: 'audience',
  everyone: 'audience',
  scheduleWall: 'scheduleDate',
  when: 'scheduleDate',
  ttlDays: 'ttl',
  throttle: 'throttlePerMinute',
  ignoreCap: 'ignoreFrequencyCap',
  ignoreQuiet: 'ignoreQuietHours',
  abOn: 'abTest',
  testPercent: 'abTest.testPercent',
  winnerMetric: 'abTest.winnerMetric',
  windowMinutes: 'abTest.windowMinutes',
};
const SEGMENT_ERROR_FIELD: Partial<Record<keyof SegmentForm, string>> = {
  offsetMin: 'utcOffset',
  offsetMax: 'utcOffset',
  after: 'subscribedAfter',
  before: 'subscribedBefore',
  engagedWithin: 'engagedWithinDays',
  notEngagedFor: 'notEngagedForDays',
};

const EMPTY_VARIANT: VariantForm = { title: '', body: '', link: '', icon: '', image: '', callToAction: '' };
const EMPTY_SEGMENT: SegmentForm = { languages: '', timeZones: '', offsetMin: '', offsetMax: '', browsers: [], after: '', before: '', engagedWithin: '', notEngagedFor: '', tags: [] };
const BROWSERS: { value: Browser; label: string }[] = [
  { value: 'chrome', label: 'Chrome (and other Chromium browsers)' },
  { value: 'edge', label: 'Edge' },
  { value: 'firefox', label: 'Firefox' },
  { value: 'safari', label: 'Safari' },
  { value: 'other', label: 'Other' },
];

/** The next quarter hour at least an hour from now, in the zone: the schedule's starting value. */
function defaultSchedule(zone: string): string {
  const q = 15 * 60_000;
  return instantToWall(Math.ceil((Date.now() + 3_600_000) / q) * q, zone);
}

function emptyForm(zone: string): Form {
  return {
    title: '',
    body: '',
    link: '',
    icon: '',
    image: '',
    callToAction: '',
    utmSource: '',
    utmMedium: '',
    utmCampaign: '',
    ttlDays: '',
    topics: [],
    countries: [],
    everyone: false,
    when: 'now',
    scheduleWall: defaultSchedule(zone),
    segment: EMPTY_SEGMENT,
    throttle: '',
    ignoreCap: false,
    ignoreQuiet: false,
    localTime: '',
    abOn: false,
    variants: [{ ...EMPTY_VARIANT }, { ...EMPTY_VARIANT }],
    testPercent: '20',
    winnerMetric: 'ctr',
    windowMinutes: '60',
    more: EMPTY_MORE_OPTIONS,
    bestTime: EMPTY_BEST_TIME,
  };
}

/**
 * A campaign as the composer's starting point: content, audience and controls. A duplicate's
 * schedule is the owner's to set again; a draft being edited keeps its own (a local-time draft's
 * date: its plan's UTC date, taken at noon UTC, which is that date in every zone's reading of it).
 */
function formFrom(c: Campaign, zone: string, keepSchedule: boolean): Form {
  const f = emptyForm(zone);
  const s = c.segment;
  const scheduled = keepSchedule && c.scheduleMode === 'scheduled';
  return {
    ...f,
    when: c.localTime || scheduled ? 'scheduled' : 'now',
    scheduleWall: scheduled ? instantToWall(Date.parse(c.localTime ? `${c.localTime.date}T12:00:00Z` : c.scheduleDate), zone) : f.scheduleWall,
    title: c.title,
    body: c.body,
    link: c.link,
    icon: c.icon ?? '',
    image: c.image ?? '',
    callToAction: c.callToAction ?? '',
    utmSource: c.utmSource ?? '',
    utmMedium: c.utmMedium ?? '',
    utmCampaign: c.utmCampaign ?? '',
    ttlDays: c.ttl && c.ttl !== 2419200 ? String(Math.round((c.ttl / 86400) * 1000) / 1000) : '',
    topics: c.topics.filter((t) => !t.startsWith(COUNTRY_PREFIX)),
    countries: c.topics.filter((t) => t.startsWith(COUNTRY_PREFIX)),
    segment: s
      ? {
          languages: s.languages?.join(', ') ?? '',
          timeZones: s.timeZones?.join(', ') ?? '',
          offsetMin: s.utcOffset ? String(s.utcOffset.min) : '',
          offsetMax: s.utcOffset ? String(s.utcOffset.max) : '',
          browsers: s.browsers ?? [],
          after: s.subscribedAfter ? instantToWall(Date.parse(s.subscribedAfter), zone) : '',
          before: s.subscribedBefore ? instantToWall(Date.parse(s.subscribedBefore), zone) : '',
          engagedWithin: s.engagedWithinDays ? String(s.engagedWithinDays) : '',
          notEngagedFor: s.notEngagedForDays ? String(s.notEngagedForDays) : '',
          tags: s.tags ?? [],
        }
      : EMPTY_SEGMENT,
    throttle: c.throttlePerMinute ? String(c.throttlePerMinute) : '',
    ignoreCap: c.ignoreFrequencyCap === true,
    ignoreQuiet: c.ignoreQuietHours === true,
    localTime: c.localTime?.time ?? '',
    abOn: Boolean(c.abTest),
    variants: c.abTest
      ? c.abTest.variants.map((v) => ({
          title: v.title ?? '',
          body: v.body ?? '',
          link: v.link ?? '',
          icon: v.icon ?? '',
          image: v.image ?? '',
          callToAction: v.callToAction ?? '',
        }))
      : f.variants,
    testPercent: c.abTest ? String(c.abTest.testPercent) : f.testPercent,
    winnerMetric: c.abTest?.winnerMetric ?? f.winnerMetric,
    windowMinutes: c.abTest ? String(c.abTest.windowMinutes) : f.windowMinutes,
    more: moreOptionsFrom(c, zone),
    bestTime: bestTimeFrom(c),
  };
}

const list = (s: string) =>
  s
    .split(/[,\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** A number field as the API gets it: a number when it reads as one, else the text (so the API names what is wrong). */
function numberOrText(s: string): number | string {
  const t = s.trim();
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t;
}

function segmentOf(s: SegmentForm, zone: string): Segment | undefined {
  const out: Record<string, unknown> = {};
  if (s.languages.trim()) out.languages = list(s.languages);
  if (s.timeZones.trim()) out.timeZones = list(s.timeZones);
  if (s.offsetMin.trim() || s.offsetMax.trim()) out.utcOffset = { min: numberOrText(s.offsetMin), max: numberOrText(s.offsetMax) };
  if (s.browsers.length) out.browsers = s.browsers;
  if (s.after) out.subscribedAfter = wallToApiDate(s.after, zone) ?? s.after;
  if (s.before) out.subscribedBefore = wallToApiDate(s.before, zone) ?? s.before;
  if (s.engagedWithin.trim()) out.engagedWithinDays = numberOrText(s.engagedWithin);
  if (s.notEngagedFor.trim()) out.notEngagedForDays = numberOrText(s.notEngagedFor);
  if (s.tags.length) out.tags = s.tags;
  return Object.keys(out).length ? (out as Segment) : undefined;
}

function variantOf(v: VariantForm): AbVariant {
  const out: AbVariant = {};
  if (v.title.trim()) out.title = v.title;
  if (v.body.trim()) out.body = v.body;
  if (v.link.trim()) out.link = v.link;
  if (v.icon.trim()) out.icon = v.icon;
  if (v.image.trim()) out.image = v.image;
  if (v.callToAction.trim()) out.callToAction = v.callToAction;
  return out;
}

/** The create body for this form; `status` decides draft or published. */
export function requestOf(f: Form, status: 'draft' | 'published', zone: string): CreateCampaignRequest {
  const body: CreateCampaignRequest = {
    title: f.title,
    body: f.body,
    link: f.link,
    topics: f.topics,
    countries: f.countries,
    status,
    scheduleMode: f.when,
  };
  if (f.when === 'scheduled' && f.scheduleWall) body.scheduleDate = wallToApiDate(f.scheduleWall, zone) ?? f.scheduleWall;
  if (f.icon.trim()) body.icon = f.icon.trim();
  if (f.image.trim()) body.image = f.image.trim();
  if (f.callToAction) body.callToAction = f.callToAction;
  if (f.utmSource) body.utmSource = f.utmSource;
  if (f.utmMedium) body.utmMedium = f.utmMedium;
  if (f.utmCampaign) body.utmCampaign = f.utmCampaign;
  if (f.ttlDays.trim()) {
    const days = Number(f.ttlDays);
    body.ttl = (Number.isFinite(days) ? Math.round(days * 86400) : f.ttlDays) as number;
  }
  const segment = segmentOf(f.segment, zone);
  if (segment) body.segment = segment;
  if (f.throttle.trim()) body.throttlePerMinute = numberOrText(f.throttle) as number;
  if (f.ignoreCap) body.ignoreFrequencyCap = true;
  if (f.ignoreQuiet) body.ignoreQuietHours = true;
  if (f.localTime) body.localTime = f.localTime;
  if (f.abOn) {
    const ab: AbTestRequest = {
      variants: f.variants.map(variantOf),
      testPercent: numberOrText(f.testPercent) as number,
      winnerMetric: f.winnerMetric,
      windowMinutes: numberOrText(f.windowMinutes) as number,
    };
    body.abTest = ab;
  }
  Object.assign(body, moreOptionsRequest(f.more, zone), bestTimeRequest(f.bestTime));
  return body;
}

/** `from`: a campaign to duplicate; `edit`: a draft to edit in place. */
/** The composer's address opened by a viewer (a bookmark, a shared link): why there is no form. */
export function ComposerClosed({ site, edit }: { site: SiteDetail; edit?: string }) {
  useTitle(edit ? 'Edit draft' : 'New campaign');
  return (
    <section>
      <h1 tabIndex={-1}>{edit ? 'Edit draft' : 'New campaign'}</h1>
      <ViewerNote />
      <p>
        <a href={href(sitePath(site.id, edit ? `/campaigns/${encodeURIComponent(edit)}` : '/campaigns'))}>{edit ? 'Back to the campaign' : 'Back to the campaigns'}</a>
      </p>
    </section>
  );
}

export function ComposerPage({ site, from, edit }: { site: SiteDetail; from?: string; edit?: string }) {
  useTitle(edit ? 'Edit draft' : from ? 'Duplicate a campaign' : 'New campaign');
  const { zone, setZone } = useZone();
  const sourceId = edit ?? from;
  const source = useLoad<Campaign | null>(() => (sourceId ? api.campaign(site.id, sourceId) : Promise.resolve(null)), [site.id, sourceId]);
  const topics = useLoad<NameCount[]>(() => api.topics(site.id), [site.id]);
  const countries = useLoad<NameCount[]>(() => api.countries(site.id), [site.id]);

  if (sourceId && source.loading) return <Loading what={edit ? 'Loading the draft' : 'Loading the campaign to duplicate'} />;
  if (edit && source.data && source.data.status !== 'draft') {
    return (
      <section>
        <h1 tabIndex={-1}>Edit draft</h1>
        <ErrorBox error="Only a draft can be edited: this campaign was sent or scheduled." />
        <p>
          <a href={href(sitePath(site.id, `/campaigns/${encodeURIComponent(source.data.id)}`))}>Back to the campaign</a>
        </p>
      </section>
    );
  }
  return (
    <ComposerForm
      key={`${site.id}:${sourceId ?? ''}:${source.data?.id ?? ''}`}
      site={site}
      initial={source.data ? formFrom(source.data, zone, Boolean(edit)) : emptyForm(zone)}
      duplicateOf={edit ? undefined : (source.data ?? undefined)}
      draft={edit ? (source.data ?? undefined) : undefined}
      sourceError={source.error}
      topics={topics.data}
      countries={countries.data}
      audienceError={topics.error ?? countries.error}
      zone={zone}
      setZone={setZone}
    />
  );
}

function ComposerForm(props: {
  site: SiteDetail;
  initial: Form;
  duplicateOf?: Campaign;
  /** The draft being edited: saved, sent or scheduled in place. */
  draft?: Campaign;
  sourceError: unknown;
  topics?: NameCount[];
  countries?: NameCount[];
  audienceError: unknown;
  zone: string;
  setZone: (z: string) => void;
}) {
  const { site, zone } = props;
  const [form, setForm] = useState<Form>(props.initial);
  const [errors, setErrors] = useState<SplitMessage | null>(null);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState<null | 'draft' | 'published'>(null);
  const [confirmSend, setConfirmSend] = useState(false);
  const [previewOf, setPreviewOf] = useState(-1);
  /** A field changed: the API's messages about it are out of date (the others stay until the next save). */
  const settle = (field: string) =>
    setErrors((e) => {
      if (!e || !Object.keys(e.byField).some((k) => k === field || k.startsWith(`${field}.`))) return e;
      const byField = Object.fromEntries(Object.entries(e.byField).filter(([k]) => k !== field && !k.startsWith(`${field}.`)));
      return Object.keys(byField).length || e.rest.length ? { byField, rest: e.rest } : null;
    });
  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    settle(ERROR_FIELD[k] ?? k);
  };
  const setSeg = <K extends keyof SegmentForm>(k: K, v: SegmentForm[K]) => {
    setForm((f) => ({ ...f, segment: { ...f.segment, [k]: v } }));
    settle(`segment.${SEGMENT_ERROR_FIELD[k] ?? k}`);
    settle('segment');
  };
  const setVariant = (i: number, k: keyof VariantForm, v: string) => {
    setForm((f) => ({ ...f, variants: f.variants.map((x, j) => (j === i ? { ...x, [k]: v } : x)) }));
    settle(`abTest.variants.${i}.${k}`);
  };
  const err = (field: string) => errors?.byField[field];
  const canCreate = site.plan.permissions.includes('create');

  // The live audience estimate: topics, countries and segment, debounced.
  const estimateBody = useMemo(() => {
    const segment = segmentOf(form.segment, zone);
    return JSON.stringify({ topics: form.topics, countries: form.countries, ...(segment ? { segment } : {}) });
  }, [form.topics, form.countries, form.segment, zone]);
  const settled = useDebounced(estimateBody, 400);
  const [estimate, setEstimate] = useState<{ body: string; users?: number; error?: string } | null>(null);
  useEffect(() => {
    const parsed = JSON.parse(settled) as { topics: string[]; countries: string[]; segment?: Segment };
    if (parsed.topics.length === 0 && parsed.countries.length === 0) {
      setEstimate(null);
      return;
    }
    let gone = false;
    api.estimate(site.id, parsed).then(
      (r) => !gone && setEstimate({ body: settled, users: r.totalUsers }),
      (e) => !gone && setEstimate({ body: settled, error: messageOf(e) }),
    );
    return () => {
      gone = true;
    };
  }, [settled, site.id]);
  const estimating = estimateBody !== settled || (estimate !== null && estimate.body !== settled);

  const scheduleAt = form.when === 'scheduled' ? wallToInstant(form.scheduleWall, zone) : null;
  // What the best-time plan is previewed for: the estimate's audience and the schedule.
  const planAudience = useMemo(() => JSON.parse(estimateBody) as { topics: string[]; countries: string[]; segment?: Segment }, [estimateBody]);
  const planStart = form.when === 'scheduled' ? wallToApiDate(form.scheduleWall, zone) : null;

  const submit = async (status: 'draft' | 'published') => {
    setBusy(status);
    setErrors(null);
    setFailure(undefined);
    try {
      const body = requestOf(form, status, zone);
      const saved = props.draft ? await api.updateDraft(site.id, props.draft.id, body) : await api.createCampaign(site.id, body);
      navigate(sitePath(site.id, `/campaigns/${encodeURIComponent(saved.id)}`));
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) {
        const split = splitMessage(e.message);
        setErrors(split);
        // The first field with a message takes the focus.
        setTimeout(() => document.querySelector<HTMLElement>('.composer [aria-invalid="true"], .composer .fieldset-invalid input')?.focus(), 0);
      } else setFailure(e);
    } finally {
      setBusy(null);
    }
  };

  // A draft or duplicate whose audience is every listed country and no topic was made for everyone:
  // shown so once the countries are known.
  useEffect(() => {
    const names = props.countries?.map((c) => c.name) ?? [];
    setForm((f) => (!f.everyone && f.topics.length === 0 && names.length > 0 && f.countries.length === names.length && names.every((n) => f.countries.includes(n)) ? { ...f, everyone: true } : f));
  }, [props.countries]);
  // Everyone is every listed country (each subscriber has one): the API's audience, no topic needed.
  const chooseEveryone = (on: boolean) => {
    setForm((f) => ({ ...f, everyone: on, topics: [], countries: on ? (props.countries ?? []).map((c) => c.name) : [] }));
    settle('audience');
  };
  const topicOptions = mergeNames(props.topics, form.topics);
  const countryOptions = mergeNames(props.countries, form.countries);
  const pv = previewOf >= 0 && form.abOn ? form.variants[previewOf] : undefined;
  const preview: PreviewContent = {
    title: pv?.title || form.title,
    body: pv?.body || form.body,
    icon: pv?.icon || form.icon,
    image: pv?.image || form.image,
    callToAction: pv?.callToAction || form.callToAction,
    buttons: form.more.actions.map((a) => a.title),
    host: hostOf(pv?.link || form.link),
  };

  return (
    <section class="composer">
      <h1 tabIndex={-1}>{props.draft ? 'Edit draft' : props.duplicateOf ? 'Duplicate a campaign' : 'New campaign'}</h1>
      {props.duplicateOf ? <p class="muted">A copy of “{props.duplicateOf.title}”. Set when to send it, then save or send.</p> : null}
      {props.draft ? <p class="muted">The draft “{props.draft.title}”, created {showDate(props.draft.createdAt, zone)}. Save your changes, or send or schedule it.</p> : null}
      <ErrorBox error={props.sourceError} />
      {!canCreate ? <ErrorBox error="This site's plan does not include creating campaigns." /> : null}
      {errors ? (
        <div class="alert alert-error" role="alert" id="composer-errors">
          <strong>The campaign was not saved:</strong>
          <ul>
            {[...Object.values(errors.byField).flat(), ...errors.rest].map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <ErrorBox error={failure} />
      <div class="composer-grid">
        <form
          id="c-form"
          class="composer-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (form.when === 'now') setConfirmSend(true);
            else void submit('published');
          }}
        >
          <fieldset class="card">
            <legend>Message</legend>
            <UseTemplate
              site={site}
              onUse={(c) => {
                for (const [k, v] of [['title', c.title], ['body', c.body], ['link', c.link], ['icon', c.icon ?? ''], ['image', c.image ?? ''], ['callToAction', c.callToAction]] as const) set(k, v);
                set('more', { ...form.more, actions: [...c.actions, ...EMPTY_MORE_OPTIONS.actions].slice(0, 2).map((a) => ({ title: a.title, link: a.link })) });
              }}
            />
            <TextField label="Title" value={form.title} onValue={(v) => set('title', v)} counter={100} errors={err('title')} id="c-title" />
            <TextArea label="Text" value={form.body} onValue={(v) => set('body', v)} counter={300} errors={err('body')} id="c-body" />
            <TextField label="Link" type="url" inputMode="url" placeholder="https://" hint="Opened when the notification is clicked." value={form.link} onValue={(v) => set('link', v)} errors={err('link')} id="c-link" />
            <TextField label="Icon URL (optional)" type="url" placeholder="https://" hint="An https:// image, 192 × 192 recommended." value={form.icon} onValue={(v) => set('icon', v)} errors={err('icon')} id="c-icon" />
            <TextField label="Image URL (optional)" type="url" placeholder="https://" hint="A large https:// image (shown by Chrome and Android)." value={form.image} onValue={(v) => set('image', v)} errors={err('image')} id="c-image" />
            <TextField label="Button text (optional)" value={form.callToAction} onValue={(v) => set('callToAction', v)} counter={20} errors={err('callToAction')} id="c-cta" />
            <details class="more" open={Boolean(form.utmSource || form.utmMedium || form.utmCampaign || form.ttlDays || err('utmSource') || err('utmMedium') || err('utmCampaign') || err('ttl'))}>
              <summary>Tracking and expiry</summary>
              <TextField label="utm_source" value={form.utmSource} onValue={(v) => set('utmSource', v)} errors={err('utmSource')} />
              <TextField label="utm_medium" value={form.utmMedium} onValue={(v) => set('utmMedium', v)} errors={err('utmMedium')} />
              <TextField label="utm_campaign" value={form.utmCampaign} onValue={(v) => set('utmCampaign', v)} errors={err('utmCampaign')} />
              <TextField
                label="Valid for offline devices (days)"
                hint="Up to 28 days; empty for 28."
                inputMode="decimal"
                value={form.ttlDays}
                onValue={(v) => set('ttlDays', v)}
                errors={err('ttl')}
              />
            </details>
            <MoreOptions value={form.more} onChange={(v) => set('more', v)} err={err} fieldsWithErrors={Object.keys(errors?.byField ?? {})} zone={zone} />
          </fieldset>

          <fieldset class={err('audience') ? 'card fieldset-invalid' : 'card'} aria-describedby={err('audience') ? 'audience-err' : undefined}>
            <legend>Audience</legend>
            <ErrorBox error={props.audienceError} />
            <div class="radios" role="radiogroup" aria-label="Who gets it">
              <label class="check">
                <input type="radio" name="audience" value="everyone" checked={form.everyone} disabled={!props.countries?.length} onChange={() => chooseEveryone(true)} />
                Everyone{props.countries?.length ? ` (${count(props.countries.reduce((n, c) => n + c.users, 0))} subscribers)` : ': no subscribers yet'}
              </label>
              <label class="check">
                <input type="radio" name="audience" value="chosen" checked={!form.everyone} onChange={() => chooseEveryone(false)} />
                Chosen topics and countries
              </label>
            </div>
            {form.everyone ? (
              <p class="hint">Sent to every country the site has subscribers in now, the unidentified one included: every subscriber.</p>
            ) : (
              <>
                <NameChecks
                  title="Topics"
                  names={topicOptions}
                  chosen={form.topics}
                  onChange={(v) => set('topics', v)}
                  label={(n) => n}
                  empty="No topics yet."
                />
                <NameChecks
                  title="Countries"
                  names={countryOptions}
                  chosen={form.countries}
                  onChange={(v) => set('countries', v)}
                  label={countryName}
                  empty="No countries yet."
                />
              </>
            )}
            <FieldErrors id="audience-err" errors={err('audience')} />
            <p class="estimate" role="status" aria-live="polite" aria-atomic="true">
              {form.topics.length === 0 && form.countries.length === 0
                ? 'Choose topics or countries to see the audience.'
                : estimating || !estimate
                  ? 'Estimating the audience…'
                  : estimate.error
                    ? `No estimate: ${estimate.error}`
                    : <>Estimated audience: <strong data-testid="estimate">{count(estimate.users)}</strong> subscribers</>}
            </p>
          </fieldset>

          <fieldset class="card">
            <legend>When</legend>
            <div class="radios" role="radiogroup" aria-label="When to send">
              <label class="check">
                <input type="radio" name="when" value="now" checked={form.when === 'now'} onChange={() => set('when', 'now')} />
                Now
              </label>
              <label class="check">
                <input type="radio" name="when" value="scheduled" checked={form.when === 'scheduled'} onChange={() => set('when', 'scheduled')} />
                At a date and time
              </label>
            </div>
            {form.when === 'scheduled' ? (
              <>
                <div class={err('scheduleDate') ? 'field field-invalid' : 'field'}>
                  <label for="c-schedule">Send at ({zone})</label>
                  <input
                    id="c-schedule"
                    type="datetime-local"
                    value={form.scheduleWall}
                    onInput={(e) => set('scheduleWall', (e.currentTarget as HTMLInputElement).value)}
                    aria-invalid={err('scheduleDate') ? 'true' : undefined}
                    aria-describedby="c-schedule-utc c-schedule-err"
                  />
                  <p class="hint" id="c-schedule-utc">
                    {scheduleAt
                      ? `${scheduleAt.exact ? '' : 'That time does not exist there (the clocks change); '}Sent at ${showUtc(wallToApiDate(form.scheduleWall, zone)!)} (${offsetLabel(offsetMinutes(zone, scheduleAt.ms))} in ${zone}).`
                      : 'Enter a date and time.'}
                  </p>
                  <FieldErrors id="c-schedule-err" errors={err('scheduleDate')} />
                </div>
                <div class="field">
                  <label for="c-zone">Time zone</label>
                  <select id="c-zone" value={zone} onChange={(e) => {
                    const next = (e.currentTarget as HTMLSelectElement).value;
                    props.setZone(next);
                  }}>
                    {knownZones().map((z) => (
                      <option key={z} value={z}>
                        {z}
                      </option>
                    ))}
                  </select>
                </div>
              </>
            ) : null}
            <FieldErrors errors={err('scheduleMode')} />
            <FieldErrors errors={err('status')} />
          </fieldset>

          <fieldset class="card">
            <legend>Sending controls (optional)</legend>
            <details class="more" open={Boolean(segmentOf(form.segment, zone)) || Object.keys(errors?.byField ?? {}).some((k) => k.startsWith('segment'))}>
              <summary>Segment: narrow the audience</summary>
              <FieldErrors errors={err('segment')} />
              <TextField label="Languages" hint="Comma-separated, e.g. pt, en-GB (pt takes every pt-…)." value={form.segment.languages} onValue={(v) => setSeg('languages', v)} errors={err('segment.languages')} />
              <TextField label="Time zones" hint="Comma-separated IANA names, e.g. America/Sao_Paulo." value={form.segment.timeZones} onValue={(v) => setSeg('timeZones', v)} errors={err('segment.timeZones')} />
              <div class="row">
                <TextField label="UTC offset from (minutes)" inputMode="numeric" value={form.segment.offsetMin} onValue={(v) => setSeg('offsetMin', v)} />
                <TextField label="UTC offset to (minutes)" inputMode="numeric" value={form.segment.offsetMax} onValue={(v) => setSeg('offsetMax', v)} />
              </div>
              <FieldErrors errors={err('segment.utcOffset')} />
              <fieldset class="checks">
                <legend>Browsers</legend>
                {BROWSERS.map((b) => (
                  <label key={b.value} class="check">
                    <input
                      type="checkbox"
                      checked={form.segment.browsers.includes(b.value)}
                      onChange={(e) =>
                        setSeg('browsers', (e.currentTarget as HTMLInputElement).checked ? [...form.segment.browsers, b.value] : form.segment.browsers.filter((x) => x !== b.value))
                      }
                    />
                    {b.label}
                  </label>
                ))}
              </fieldset>
              <FieldErrors errors={err('segment.browsers')} />
              <div class="row">
                <TextField label={`Subscribed after (${zone})`} type="datetime-local" value={form.segment.after} onValue={(v) => setSeg('after', v)} errors={err('segment.subscribedAfter')} />
                <TextField label={`Subscribed before (${zone})`} type="datetime-local" value={form.segment.before} onValue={(v) => setSeg('before', v)} errors={err('segment.subscribedBefore')} />
              </div>
              <div class="row">
                <TextField label="Engaged within (days)" inputMode="numeric" value={form.segment.engagedWithin} onValue={(v) => setSeg('engagedWithin', v)} errors={err('segment.engagedWithinDays')} />
                <TextField label="Not engaged for (days)" inputMode="numeric" value={form.segment.notEngagedFor} onValue={(v) => setSeg('notEngagedFor', v)} errors={err('segment.notEngagedForDays')} />
              </div>
              {form.segment.tags.length > 0 && (
                <p class="hint">
                  Tag conditions, set through the API and kept as they are:{' '}
                  {form.segment.tags.map((t) => `${t.key} ${t.operator}${'values' in t ? ` ${t.values.map((v) => JSON.stringify(v)).join(', ')}` : 'value' in t ? ` ${JSON.stringify(t.value)}` : ''}`).join('; ')}
                </p>
              )}
              <FieldErrors errors={err('segment.tags')} />
            </details>
            <details class="more" open={Boolean(form.throttle || form.ignoreCap || form.ignoreQuiet || err('throttlePerMinute') || err('ignoreFrequencyCap') || err('ignoreQuietHours'))}>
              <summary>Pace, frequency cap and quiet hours</summary>
              <TextField
                label="Pushes per minute"
                hint="Spread the send evenly. Empty: the site's default; 0: no limit."
                inputMode="numeric"
                value={form.throttle}
                onValue={(v) => set('throttle', v)}
                errors={err('throttlePerMinute')}
              />
              <label class="check">
                <input type="checkbox" checked={form.ignoreCap} onChange={(e) => set('ignoreCap', (e.currentTarget as HTMLInputElement).checked)} />
                Also send to subscribers at their frequency cap (urgent)
              </label>
              <FieldErrors errors={err('ignoreFrequencyCap')} />
              <label class="check">
                <input type="checkbox" checked={form.ignoreQuiet} onChange={(e) => set('ignoreQuiet', (e.currentTarget as HTMLInputElement).checked)} />
                Also send during the site's quiet hours (urgent)
              </label>
              <FieldErrors errors={err('ignoreQuietHours')} />
            </details>
            <details class="more" open={Boolean(form.localTime || err('localTime'))}>
              <summary>Local time: each subscriber at their own clock</summary>
              <TextField
                label="Time of day in each subscriber's zone"
                hint="Uses the date of the schedule above (UTC calendar date); needs “At a date and time”."
                type="time"
                value={form.localTime}
                onValue={(v) => set('localTime', v)}
                errors={err('localTime')}
              />
            </details>
            <BestTimeOptions
              value={form.bestTime}
              onChange={(v) => set('bestTime', v)}
              err={err}
              siteId={site.id}
              audience={planAudience}
              scheduleDate={planStart}
              zone={zone}
              canPreview={canCreate}
            />
            <details class="more" open={form.abOn || Object.keys(errors?.byField ?? {}).some((k) => k.startsWith('abTest'))}>
              <summary>A/B test of the content</summary>
              <label class="check">
                <input type="checkbox" checked={form.abOn} onChange={(e) => set('abOn', (e.currentTarget as HTMLInputElement).checked)} />
                Test variants of the message
              </label>
              <FieldErrors errors={err('abTest')} />
              {form.abOn ? (
                <>
                  <p class="hint">A variant's empty fields are the campaign's own.</p>
                  {form.variants.map((v, i) => (
                    <fieldset class="variant" key={i}>
                      <legend>Variant {String.fromCharCode(65 + i)}</legend>
                      <FieldErrors errors={err(`abTest.variants.${i}`)} />
                      <TextField label={`Variant ${String.fromCharCode(65 + i)} title`} value={v.title} onValue={(x) => setVariant(i, 'title', x)} errors={err(`abTest.variants.${i}.title`)} />
                      <TextArea label={`Variant ${String.fromCharCode(65 + i)} text`} rows={2} value={v.body} onValue={(x) => setVariant(i, 'body', x)} errors={err(`abTest.variants.${i}.body`)} />
                      <TextField label={`Variant ${String.fromCharCode(65 + i)} link`} type="url" value={v.link} onValue={(x) => setVariant(i, 'link', x)} errors={err(`abTest.variants.${i}.link`)} />
                      <TextField label={`Variant ${String.fromCharCode(65 + i)} icon URL`} type="url" value={v.icon} onValue={(x) => setVariant(i, 'icon', x)} errors={err(`abTest.variants.${i}.icon`)} />
                      <TextField label={`Variant ${String.fromCharCode(65 + i)} image URL`} type="url" value={v.image} onValue={(x) => setVariant(i, 'image', x)} errors={err(`abTest.variants.${i}.image`)} />
                      <TextField label={`Variant ${String.fromCharCode(65 + i)} button text`} value={v.callToAction} onValue={(x) => setVariant(i, 'callToAction', x)} errors={err(`abTest.variants.${i}.callToAction`)} />
                      {form.variants.length > 2 ? (
                        <button type="button" class="btn btn-small" onClick={() => setForm((f) => ({ ...f, variants: f.variants.filter((_, j) => j !== i) }))}>
                          Remove variant {String.fromCharCode(65 + i)}
                        </button>
                      ) : null}
                    </fieldset>
                  ))}
                  <FieldErrors errors={err('abTest.variants')} />
                  {form.variants.length < 5 ? (
                    <button type="button" class="btn btn-small" onClick={() => setForm((f) => ({ ...f, variants: [...f.variants, { ...EMPTY_VARIANT }] }))}>
                      Add a variant
                    </button>
                  ) : null}
                  <div class="row">
                    <TextField label="Audience share in the test (%)" inputMode="numeric" value={form.testPercent} onValue={(v) => set('testPercent', v)} errors={err('abTest.testPercent')} />
                    <TextField label="Pick the winner after (minutes)" inputMode="numeric" value={form.windowMinutes} onValue={(v) => set('windowMinutes', v)} errors={err('abTest.windowMinutes')} />
                  </div>
                  <div class="field">
                    <label for="c-metric">Winner by</label>
                    <select id="c-metric" value={form.winnerMetric} onChange={(e) => set('winnerMetric', (e.currentTarget as HTMLSelectElement).value as Form['winnerMetric'])}>
                      <option value="ctr">CTR (clicks / impressions)</option>
                      <option value="impressions">Impressions (impressions / sent)</option>
                    </select>
                    <FieldErrors errors={err('abTest.winnerMetric')} />
                  </div>
                </>
              ) : null}
            </details>
          </fieldset>
        </form>

        <aside class="composer-preview" aria-label="Preview">
          <h2>Preview</h2>
          {form.abOn ? (
            <div class="field">
              <label for="c-preview-of">Preview of</label>
              <select id="c-preview-of" value={String(previewOf)} onChange={(e) => setPreviewOf(Number((e.currentTarget as HTMLSelectElement).value))}>
                <option value="-1">The campaign</option>
                {form.variants.map((_, i) => (
                  <option key={i} value={String(i)}>
                    Variant {String.fromCharCode(65 + i)}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <NotificationPreview content={preview} />
        </aside>
        {/* After the preview, so that on a phone (one column) the preview is seen before sending; beside it on wider screens (styles.css). */}
        <div class="actions composer-actions">
          <button type="button" class="btn" disabled={busy !== null} onClick={() => void submit('draft')}>
            {busy === 'draft' ? 'Saving…' : 'Save draft'}
          </button>
          <button type="submit" form="c-form" class="btn btn-primary" disabled={busy !== null}>
            {busy === 'published' ? (form.when === 'now' ? 'Sending…' : 'Scheduling…') : form.when === 'now' ? 'Send now' : 'Schedule'}
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={confirmSend}
        title="Send this campaign now?"
        confirmLabel="Send now"
        onClose={() => setConfirmSend(false)}
        onConfirm={() => submit('published')}
      >
        <p>
          “{form.title || '(no title)'}” goes out at once to{' '}
          {estimate?.users !== undefined && !estimating ? `about ${count(estimate.users)} subscribers` : 'its audience'}.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** The names offered: the site's (with counts), plus any chosen one no longer listed (a duplicate's). */
function mergeNames(listed: NameCount[] | undefined, chosen: string[]): NameCount[] {
  const out = [...(listed ?? [])];
  for (const n of chosen) if (!out.some((x) => x.name === n)) out.push({ name: n, users: 0 });
  return out;
}

function NameChecks(props: { title: string; names: NameCount[]; chosen: string[]; onChange: (v: string[]) => void; label: (n: string) => string; empty: string }) {
  const [filter, setFilter] = useState('');
  const shown = filter ? props.names.filter((n) => n.name.includes(filter.toLowerCase()) || props.label(n.name).toLowerCase().includes(filter.toLowerCase())) : props.names;
  return (
    <fieldset class="checks names">
      <legend>
        {props.title} {props.chosen.length ? <span class="muted">({props.chosen.length} chosen)</span> : null}
      </legend>
      {props.names.length > 12 ? <TextField label={`Find ${props.title.toLowerCase()}`} type="search" value={filter} onValue={setFilter} /> : null}
      {props.names.length === 0 ? <p class="muted">{props.empty}</p> : null}
      <div class="name-grid">
        {shown.map((n) => (
          <label key={n.name} class="check">
            <input
              type="checkbox"
              name={props.title.toLowerCase()}
              value={n.name}
              checked={props.chosen.includes(n.name)}
              onChange={(e) =>
                props.onChange((e.currentTarget as HTMLInputElement).checked ? [...props.chosen, n.name] : props.chosen.filter((x) => x !== n.name))
              }
            />
            <span>
              {props.label(n.name)} <span class="muted">{count(n.users)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
