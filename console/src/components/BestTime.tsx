// The composer's "Best time" (docs/console.md, "Composer"; docs/api-decisions.md, "Best time"):
// each subscriber sent in the hour of the window they are most likely to engage in, a holdout
// share at once to measure the lift — and, while it is chosen, the planned distribution before
// sending (POST …/campaigns/plan-preview, debounced like the audience estimate): a table of the
// window's hours with a bar per hour, readable as a table by a screen reader and by keyboard.
// The form's part, its share of the create body and the fields all live here: the composer holds
// the value, passes the audience and schedule, and the API's messages.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, messageOf } from '../lib/api';
import { count, percent } from '../lib/format';
import { useDebounced } from '../lib/hooks';
import { showDate } from '../lib/time';
import type { Campaign, PlanPreview, Segment, SendTimeRequest } from '../lib/types';
import { FieldErrors, TextField } from './ui';

export interface BestTimeForm {
  on: boolean;
  /** Whole hours, as typed. */
  within: string;
  /** Percent, as typed. */
  holdout: string;
}

export const EMPTY_BEST_TIME: BestTimeForm = { on: false, within: '24', holdout: '10' };

/** A campaign's best time as the form's (duplicating or editing one). */
export function bestTimeFrom(c: Campaign): BestTimeForm {
  return c.sendTime ? { on: true, within: c.sendTime.within.replace(/h$/, ''), holdout: String(c.sendTime.holdout) } : EMPTY_BEST_TIME;
}

/** The create body's share: `sendTime` when chosen; what was typed goes as typed, for the API's messages. */
export function bestTimeRequest(f: BestTimeForm): { sendTime?: SendTimeRequest } {
  if (!f.on) return {};
  const holdout = f.holdout.trim() === '' ? undefined : Number.isFinite(Number(f.holdout)) ? Number(f.holdout) : (f.holdout as unknown as number);
  return { sendTime: { mode: 'bestTime', within: `${f.within.trim()}h`, ...(holdout === undefined ? {} : { holdout }) } };
}

export interface BestTimeProps {
  value: BestTimeForm;
  onChange(v: BestTimeForm): void;
  err(field: string): string[] | undefined;
  siteId: string;
  /** The composer's audience and schedule, as the create sends them. */
  audience: { topics: string[]; countries: string[]; segment?: Segment };
  scheduleDate: string | null;
  /** The owner's zone, for the hours' times. */
  zone: string;
  /** Whether the site's plan may preview (the create permission). */
  canPreview: boolean;
}

export function BestTimeOptions({ value, onChange, err, siteId, audience, scheduleDate, zone, canPreview }: BestTimeProps) {
  const set = <K extends keyof BestTimeForm>(k: K, v: BestTimeForm[K]) => onChange({ ...value, [k]: v });
  const errors = ['sendTime', 'sendTime.within', 'sendTime.holdout', 'sendTime.mode'].flatMap((f) => err(f) ?? []);
  const previewBody = useMemo(() => {
    if (!value.on || !canPreview || (audience.topics.length === 0 && audience.countries.length === 0)) return '';
    const { sendTime } = bestTimeRequest(value);
    return JSON.stringify({ ...audience, sendTime, scheduleMode: scheduleDate ? 'scheduled' : 'now', ...(scheduleDate ? { scheduleDate } : {}) });
  }, [value, audience, scheduleDate, canPreview]);
  const settled = useDebounced(previewBody, 400);
  const [plan, setPlan] = useState<{ body: string; plan?: PlanPreview; error?: string } | null>(null);
  useEffect(() => {
    if (settled === '') {
      setPlan(null);
      return;
    }
    let gone = false;
    api.planPreview(siteId, JSON.parse(settled)).then(
      (p) => !gone && setPlan({ body: settled, plan: p }),
      (e) => !gone && setPlan({ body: settled, error: messageOf(e) }),
    );
    return () => {
      gone = true;
    };
  }, [settled, siteId]);
  const planning = previewBody !== settled || (plan !== null && plan.body !== settled);

  return (
    <details class="more" open={value.on || errors.length > 0}>
      <summary>Best time: each subscriber at their likeliest hour</summary>
      <label class="check">
        <input type="checkbox" checked={value.on} onChange={(e) => set('on', (e.currentTarget as HTMLInputElement).checked)} />
        Send each subscriber in the hour they most often see and click notifications
      </label>
      {value.on ? (
        <>
          <div class="row">
            <TextField label="Within (hours)" hint="1 to 72, from the send." inputMode="numeric" value={value.within} onValue={(v) => set('within', v)} errors={err('sendTime.within')} />
            <TextField label="Holdout (%)" hint="0 to 50, sent at once to measure the lift." inputMode="numeric" value={value.holdout} onValue={(v) => set('holdout', v)} errors={err('sendTime.holdout')} />
          </div>
          <FieldErrors errors={[...(err('sendTime') ?? []), ...(err('sendTime.mode') ?? [])]} />
          <PlannedDistribution state={previewBody === '' ? 'idle' : planning || plan === null ? 'planning' : plan.error ? { error: plan.error } : plan.plan!} zone={zone} />
        </>
      ) : null}
    </details>
  );
}

type PlanState = 'idle' | 'planning' | { error: string } | PlanPreview;

/** The planned distribution: a caption that says how it was counted, then the holdout and each hour with its bar. */
function PlannedDistribution({ state, zone }: { state: PlanState; zone: string }) {
  if (state === 'idle') return <p class="hint">Choose topics or countries to see how the sends would be spread.</p>;
  if (state === 'planning') return <p class="estimate" role="status" aria-live="polite">Planning the hours…</p>;
  if ('error' in state) return <p class="estimate" role="status" aria-live="polite">No plan: {state.error}</p>;
  const rows = [{ key: 'holdout', label: 'At once (holdout)', users: state.holdout.users, share: state.holdout.share }].concat(
    state.byHour.map((h) => ({ key: h.sendAt, label: `${showDate(h.sendAt, zone)} (${String(h.hour).padStart(2, '0')}:00 UTC)`, users: h.users, share: h.share })),
  );
  const top = Math.max(1, ...rows.map((r) => r.share));
  return (
    <div class="plan">
      <p class="estimate" role="status" aria-live="polite" aria-atomic="true">
        Planned: <strong data-testid="plan-total">{count(state.totalUsers)}</strong> subscribers over {state.sendTime.within},{' '}
        {state.sampled ? `estimated from a sample of ${count(state.sampleSize)} of them` : 'every subscriber counted'}.
      </p>
      <div class="table-scroll" role="region" aria-label="Planned sends by hour" tabIndex={0}>
        <table class="plan-table" data-testid="plan-table">
          <caption>Planned sends by hour ({zone})</caption>
          <thead>
            <tr>
              <th scope="col">Sent at</th>
              <th scope="col" class="num">Subscribers</th>
              <th scope="col" class="num">Share</th>
              <th scope="col">
                <span class="sr-only">Share as a bar</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">{r.label}</th>
                <td class="num">{count(r.users)}</td>
                <td class="num">{percent(r.share)}</td>
                <td class="bar-cell" aria-hidden="true">
                  <span class="bar" style={{ width: `${(r.share / top) * 100}%` }} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
