// The composer's "More options" (docs/console.md, "Composer"): the notification options a browser
// honours beyond the spec's fields — up to two more buttons, each with its own link, a badge,
// requireInteraction, renotify, silent, a vibration pattern, the time shown, the text's direction
// and language — and the campaign's RFC 8030 urgency, in one group, collapsed until used. The
// form's part, its share of the create body and the fields all live here: the composer holds the
// value and passes the API's messages (docs/api-decisions.md, "Notification options").
import type { Campaign, NotificationOptionsFields } from '../lib/types';
import { instantToWall, wallToApiDate } from '../lib/time';
import { FieldErrors, TextField } from './ui';

type Direction = NonNullable<NotificationOptionsFields['dir']>;
type Urgency = NonNullable<NotificationOptionsFields['urgency']>;

export interface MoreOptionsForm {
  /** Two rows; a row with neither text nor link is not sent. */
  actions: { title: string; link: string }[];
  badge: string;
  requireInteraction: boolean;
  renotify: boolean;
  silent: boolean;
  /** Milliseconds, comma- or space-separated. */
  vibrate: string;
  /** A wall time in the composer's zone; '' for the send time. */
  timestamp: string;
  dir: Direction;
  lang: string;
  urgency: Urgency;
}

export const EMPTY_MORE_OPTIONS: MoreOptionsForm = {
  actions: [
    { title: '', link: '' },
    { title: '', link: '' },
  ],
  badge: '',
  requireInteraction: false,
  renotify: false,
  silent: false,
  vibrate: '',
  timestamp: '',
  dir: 'auto',
  lang: '',
  urgency: 'normal',
};

/** A campaign's options as the form's (duplicating a campaign). */
export function moreOptionsFrom(c: Campaign, zone: string): MoreOptionsForm {
  const actions = [...(c.actions ?? []), ...EMPTY_MORE_OPTIONS.actions].slice(0, 2).map((a) => ({ title: a.title, link: a.link }));
  return {
    actions,
    badge: c.badge ?? '',
    requireInteraction: c.requireInteraction === true,
    renotify: c.renotify === true,
    silent: c.silent === true,
    vibrate: c.vibrate?.join(', ') ?? '',
    timestamp: c.timestamp ? instantToWall(Date.parse(c.timestamp), zone) : '',
    dir: c.dir ?? 'auto',
    lang: c.lang ?? '',
    urgency: c.urgency ?? 'normal',
  };
}

/** A vibration pattern as the API gets it: numbers where the text reads as numbers, else the text (so the API names what is wrong). */
function vibrateOf(text: string): number[] | string {
  const parts = text.split(/[,\s]+/).filter(Boolean);
  return parts.every((p) => Number.isFinite(Number(p))) ? parts.map(Number) : text;
}

/** The form's share of the create body: only what differs from the defaults. */
export function moreOptionsRequest(f: MoreOptionsForm, zone: string): NotificationOptionsFields {
  const body: NotificationOptionsFields = {};
  const actions = f.actions.filter((a) => a.title.trim() !== '' || a.link.trim() !== '').map((a) => ({ title: a.title, link: a.link.trim() }));
  if (actions.length > 0) body.actions = actions;
  if (f.badge.trim()) body.badge = f.badge.trim();
  if (f.requireInteraction) body.requireInteraction = true;
  if (f.renotify) body.renotify = true;
  if (f.silent) body.silent = true;
  if (f.vibrate.trim()) body.vibrate = vibrateOf(f.vibrate.trim()) as number[];
  if (f.timestamp) body.timestamp = wallToApiDate(f.timestamp, zone) ?? f.timestamp;
  if (f.dir !== 'auto') body.dir = f.dir;
  if (f.lang.trim()) body.lang = f.lang.trim();
  if (f.urgency !== 'normal') body.urgency = f.urgency;
  return body;
}

/** The API fields this group shows messages for (a message about one opens the group). */
const FIELDS = ['actions', 'badge', 'requireInteraction', 'renotify', 'silent', 'vibrate', 'timestamp', 'dir', 'lang', 'urgency'];

export function MoreOptions(props: {
  value: MoreOptionsForm;
  onChange: (value: MoreOptionsForm) => void;
  /** The API's messages about a field (`actions.0.link`, `badge`, …), if any. */
  err: (field: string) => string[] | undefined;
  /** Every field the API's last answer had messages about. */
  fieldsWithErrors: string[];
  zone: string;
}) {
  const { value: f, err, zone } = props;
  const set = <K extends keyof MoreOptionsForm>(k: K, v: MoreOptionsForm[K]) => props.onChange({ ...f, [k]: v });
  const setAction = (i: number, k: 'title' | 'link', v: string) => set('actions', f.actions.map((a, j) => (j === i ? { ...a, [k]: v } : a)));
  const used = Object.keys(moreOptionsRequest(f, zone)).length > 0 || props.fieldsWithErrors.some((k) => FIELDS.some((x) => k === x || k.startsWith(`${x}.`)));
  return (
    <details class="more" open={used}>
      <summary>More options</summary>
      <fieldset class="checks">
        <legend>More buttons</legend>
        <p class="hint">Each opens its own link (with the UTM parameters). With a button text above, one more button; without, two. Where a browser shows no buttons, a click on the notification opens the link.</p>
        <FieldErrors errors={err('actions')} />
        {f.actions.map((a, i) => (
          <div class="row" key={i}>
            <TextField label={`Button ${i + 1} text`} value={a.title} onValue={(v) => setAction(i, 'title', v)} counter={20} errors={err(`actions.${i}.title`)} id={`c-action-${i}-title`} />
            <TextField label={`Button ${i + 1} URL`} type="url" inputMode="url" placeholder="https://" value={a.link} onValue={(v) => setAction(i, 'link', v)} errors={err(`actions.${i}.link`)} id={`c-action-${i}-link`} />
          </div>
        ))}
      </fieldset>
      <TextField label="Badge URL" type="url" placeholder="https://" hint="A small monochrome https:// image for the status bar (Android)." value={f.badge} onValue={(v) => set('badge', v)} errors={err('badge')} id="c-badge" />
      <fieldset class="checks">
        <legend>Behaviour</legend>
        <label class="check">
          <input type="checkbox" checked={f.requireInteraction} onChange={(e) => set('requireInteraction', (e.currentTarget as HTMLInputElement).checked)} />
          Stay on screen until the user acts
        </label>
        <FieldErrors errors={err('requireInteraction')} />
        <label class="check">
          <input type="checkbox" checked={f.renotify} onChange={(e) => set('renotify', (e.currentTarget as HTMLInputElement).checked)} />
          Alert again when it replaces an earlier copy
        </label>
        <FieldErrors errors={err('renotify')} />
        <label class="check">
          <input type="checkbox" checked={f.silent} onChange={(e) => set('silent', (e.currentTarget as HTMLInputElement).checked)} />
          Silent (no sound, no vibration)
        </label>
        <FieldErrors errors={err('silent')} />
      </fieldset>
      <TextField label="Vibration (ms)" hint="Vibrate, pause, vibrate…: up to 10 numbers, e.g. 200, 100, 200. Not with silent." inputMode="numeric" value={f.vibrate} onValue={(v) => set('vibrate', v)} errors={err('vibrate')} id="c-vibrate" />
      <TextField label={`Time shown (${zone})`} hint="Empty: when it is sent." type="datetime-local" value={f.timestamp} onValue={(v) => set('timestamp', v)} errors={err('timestamp')} id="c-timestamp" />
      <div class="row">
        <div class="field">
          <label for="c-dir">Text direction</label>
          <select id="c-dir" value={f.dir} onChange={(e) => set('dir', (e.currentTarget as HTMLSelectElement).value as Direction)}>
            <option value="auto">Automatic</option>
            <option value="ltr">Left to right</option>
            <option value="rtl">Right to left</option>
          </select>
          <FieldErrors errors={err('dir')} />
        </div>
        <TextField label="Language" hint="A language tag, e.g. pt-BR." value={f.lang} onValue={(v) => set('lang', v)} errors={err('lang')} id="c-lang" />
      </div>
      <div class="field">
        <label for="c-urgency">Urgency</label>
        <p class="hint" id="c-urgency-hint">How soon push services deliver it to a device saving its battery.</p>
        <select id="c-urgency" aria-describedby="c-urgency-hint" value={f.urgency} onChange={(e) => set('urgency', (e.currentTarget as HTMLSelectElement).value as Urgency)}>
          <option value="very-low">Very low</option>
          <option value="low">Low</option>
          <option value="normal">Normal</option>
          <option value="high">High</option>
        </select>
        <FieldErrors errors={err('urgency')} />
      </div>
    </details>
  );
}
