// The sending settings' form (components/SiteSettingsCard.tsx) and the change it sends: values
// as typed, for the API to judge by the operators' rules and refuse in its own words.
import type { SiteSettings, SiteSettingsChange } from './types';

export interface SettingsForm {
  throttle: string;
  capCampaigns: string;
  capHours: string;
  /** '' for none set (UTC). */
  zone: string;
  /** Quiet hours' start and end, `HH:MM`; both '' for none. */
  quietFrom: string;
  quietTo: string;
}

export const formOf = (s: SiteSettings): SettingsForm => ({
  throttle: s.defaultThrottlePerMinute === null ? '' : String(s.defaultThrottlePerMinute),
  capCampaigns: s.frequencyCap ? String(s.frequencyCap.campaigns) : '',
  capHours: s.frequencyCap ? String(s.frequencyCap.hours) : '',
  zone: s.timeZone === 'UTC' ? '' : s.timeZone,
  quietFrom: s.quietHours?.from ?? '',
  quietTo: s.quietHours?.to ?? '',
});

/** A typed number as a JSON number when it reads as one; otherwise the text itself, for the API to refuse in its words. */
const typed = (text: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text);

/** The form as a change: an empty throttle, cap or quiet hours lifts it, no zone sets UTC back. */
export function settingsChange(f: SettingsForm): SiteSettingsChange {
  return {
    defaultThrottlePerMinute: f.throttle.trim() === '' ? null : typed(f.throttle),
    frequencyCap: f.capCampaigns.trim() === '' && f.capHours.trim() === '' ? null : { campaigns: typed(f.capCampaigns), hours: typed(f.capHours) },
    timeZone: f.zone === '' ? null : f.zone,
    quietHours: f.quietFrom.trim() === '' && f.quietTo.trim() === '' ? null : { from: f.quietFrom.trim(), to: f.quietTo.trim() },
  };
}
