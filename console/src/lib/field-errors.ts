// The API's validation messages, shown at the fields they are about. A refused create answers one
// `message` with every wrong field's text joined by ", " (the spec's rule); the texts are the
// campaign service's (services/campaign/src/base/texts.ts), and a webhook's the delivery
// service's (services/delivery/src/webhooks/endpoints.ts, sender.ts; docs/webhooks.md). Each
// known text is found in the message and put at its field; anything not recognised stays in the
// form's own alert, so no word of the API's answer is lost. The console never makes up a validation text of its own.

/** A form field's key: `title`, `segment.languages`, `abTest.variants.1.title`, … */
export type FieldKey = string;

export interface SplitMessage {
  byField: Record<FieldKey, string[]>;
  /** Parts of the message that name no known field. */
  rest: string[];
}

const BAD = 'must not contain NUL characters or unpaired surrogates';

/** Placeholders: a date example or a list of values, never containing ", " followed by a capital. */
const ANY = '(?:(?!, [A-Za-z]).)+?';

/** [field, message template]; `<…>` is a value the service fills in. */
const CREATE: [FieldKey, string][] = [
  ['title', 'Title is required'],
  ['title', 'Title must be between 3 and 100 characters'],
  ['title', `Title ${BAD}`],
  ['body', 'Body is required'],
  ['body', 'Body must be between 3 and 300 characters'],
  ['body', `Body ${BAD}`],
  ['link', 'Link is required'],
  ['link', 'Link must be a valid URL'],
  ['link', `Link ${BAD}`],
  ['audience', 'At least one topic or country must be specified'],
  ['audience', 'At most 100 topics and countries may be specified'],
  ['audience', `Topics ${BAD}`],
  ['audience', `Countries ${BAD}`],
  ['callToAction', 'Call to action must not exceed 20 characters'],
  ['callToAction', `Call to action ${BAD}`],
  ['icon', 'Icon must be a valid URL'],
  ['icon', `Icon ${BAD}`],
  ['image', 'Image must be a valid URL'],
  ['image', `Image ${BAD}`],
  ['status', 'Invalid campaign status'],
  ['scheduleMode', 'Invalid schedule mode'],
  ['scheduleDate', 'Schedule date is required for schedule mode'],
  ['scheduleDate', 'Invalid schedule date format. Use ISO format (e.g. <UTC date-time>)'],
  ['ttl', 'TTL must be between 0 and 28 days in seconds'],
  ['utmSource', 'utmSource must be a string of at most 200 characters'],
  ['utmSource', `utmSource ${BAD}`],
  ['utmMedium', 'utmMedium must be a string of at most 200 characters'],
  ['utmMedium', `utmMedium ${BAD}`],
  ['utmCampaign', 'utmCampaign must be a string of at most 200 characters'],
  ['utmCampaign', `utmCampaign ${BAD}`],
  ['body', 'Notification is too large to send (over 4096 bytes encrypted)'],
  ['segment', 'segment must be an object of conditions: languages, timeZones, utcOffset, browsers, subscribedAfter, subscribedBefore, engagedWithinDays, notEngagedForDays, tags'],
  ['segment.languages', 'segment.languages must be a non-empty array of at most 50 language tags (e.g. pt or pt-BR)'],
  ['segment.timeZones', 'segment.timeZones must be a non-empty array of at most 100 IANA time zone names (e.g. America/Sao_Paulo)'],
  ['segment.utcOffset', 'segment.utcOffset must be {"min", "max"}: whole minutes from -720 to 840, min not above max'],
  ['segment.browsers', 'segment.browsers must be a non-empty array of: chrome, edge, firefox, safari, other'],
  ['segment.subscribedAfter', 'segment.subscribedAfter must be a UTC date-time (e.g. <UTC date-time>)'],
  ['segment.subscribedBefore', 'segment.subscribedBefore must be a UTC date-time (e.g. <UTC date-time>)'],
  ['segment.subscribedBefore', 'segment.subscribedAfter must be earlier than segment.subscribedBefore'],
  ['segment.engagedWithinDays', 'segment.engagedWithinDays must be a whole number of days from 1 to 3650'],
  ['segment.notEngagedForDays', 'segment.notEngagedForDays must be a whole number of days from 1 to 3650'],
  ['segment.tags', 'segment.tags must be a non-empty array of at most 10 tag conditions ({"key", "operator", "value"})'],
  ['throttlePerMinute', 'throttlePerMinute must be a whole number from 0 (no limit) to 1000000'],
  ['ignoreFrequencyCap', 'ignoreFrequencyCap must be a boolean'],
  ['ignoreQuietHours', 'ignoreQuietHours must be a boolean'],
  ['localTime', 'localTime must be a time of day as HH:MM (00:00 to 23:59)'],
  ['localTime', 'localTime requires scheduleMode scheduled'],
  ['localTime', "localTime's date must be today or later (UTC)"],
  ['localTime', "localTime's date must be 9999-12-30 or earlier"],
  ['abTest', 'abTest must be an object with variants, testPercent, winnerMetric and windowMinutes'],
  ['abTest', 'abTest has an unknown field: <name>'],
  ['abTest.variants', 'abTest.variants must be a list of 2 to 5 variants'],
  ['abTest.testPercent', 'abTest.testPercent must be an integer from 1 to 100'],
  ['abTest.winnerMetric', 'abTest.winnerMetric must be ctr or impressions'],
  ['abTest.windowMinutes', 'abTest.windowMinutes must be an integer from 1 to 10080'],
  ['actions', 'actions must be an array of at most 2 buttons, each {"title", "link"}'],
  ['actions', 'actions may have only 1 button when callToAction is given (2 buttons in all)'],
  ['badge', 'Badge must be a valid URL'],
  ['badge', `Badge ${BAD}`],
  ['requireInteraction', 'requireInteraction must be a boolean'],
  ['renotify', 'renotify must be a boolean'],
  ['silent', 'silent must be a boolean'],
  ['vibrate', 'vibrate must be an array of at most 10 whole numbers of milliseconds from 0 to 10000'],
  ['vibrate', 'vibrate cannot be used with silent'],
  ['timestamp', 'timestamp must be a UTC date-time from 1970 on (e.g. <UTC date-time>)'],
  ['dir', 'dir must be auto, ltr or rtl'],
  ['lang', 'lang must be a BCP 47 language tag of at most 35 characters (e.g. pt-BR)'],
  ['urgency', 'urgency must be very-low, low, normal or high'],
  ['sendTime', 'sendTime must be an object: {"mode": "bestTime", "within", "holdout"}'],
  ['sendTime', 'sendTime has an unknown field: <name>'],
  ['sendTime.mode', 'sendTime.mode must be bestTime'],
  ['sendTime.within', 'sendTime.within must be a whole number of hours from 1h to 72h (e.g. 24h)'],
  ['sendTime.holdout', 'sendTime.holdout must be a whole percent from 0 to 50'],
  ['sendTime', 'sendTime bestTime cannot be combined with localTime'],
];

/** The site settings' texts (PATCH …/settings: docs/console.md, "Site settings"). */
const SETTINGS: [FieldKey, string][] = [
  ['defaultThrottlePerMinute', 'defaultThrottlePerMinute must be a whole number from 1 to 1000000, or null'],
  ['frequencyCap.campaigns', 'frequencyCap.campaigns must be a whole number from 1 to 1000'],
  ['frequencyCap.hours', 'frequencyCap.hours must be a whole number from 1 to 720 (30 days)'],
  ['frequencyCap', 'frequencyCap must be {"campaigns", "hours"} or null'],
  ['timeZone', 'timeZone must be an IANA time zone such as Europe/Lisbon, or null'],
  ['timeZone', 'timeZone must be a string'],
  ['timeZone', `timeZone ${BAD}`],
  ['quietHours.from', 'quietHours.from must be a time of day as HH:MM (00:00 to 23:59)'],
  ['quietHours.to', 'quietHours.to must be a time of day as HH:MM (00:00 to 23:59), not the same as quietHours.from'],
  ['quietHours.from', 'quietHours.from must be a string'],
  ['quietHours.to', 'quietHours.to must be a string'],
  ['quietHours', 'quietHours must be {"from", "to"} or null'],
];

/** A button's own messages: `actions[1].link must be a valid URL` belongs to `actions.1.link`. */
const ACTION_TEXTS: [string, string][] = [
  ['title', 'must be 1 to 20 characters'],
  ['title', BAD],
  ['link', 'must be a valid URL'],
  ['link', BAD],
];

/** The content fields a variant may change, and the field of a variant's message. */
const VARIANT_FIELDS = new Set(['title', 'body', 'link', 'icon', 'image', 'callToAction']);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(template: string): string {
  return template
    .split(/(<[^<>]+>)/)
    .map((part) => (/^<[^<>]+>$/.test(part) ? ANY : escape(part)))
    .join('');
}

interface Rule {
  re: RegExp;
  field: (m: RegExpExecArray) => FieldKey;
}

const RULES: Rule[] = [
  // A variant's field: `abTest.variants[1]: Title must be …`, before the create's own texts.
  ...CREATE.filter(([field]) => VARIANT_FIELDS.has(field)).map(
    ([field, template]): Rule => ({ re: new RegExp(`abTest\\.variants\\[(\\d+)\\]: ${compile(template)}`, 'y'), field: (m) => `abTest.variants.${m[1]}.${field}` }),
  ),
  { re: new RegExp(`abTest\\.variants\\[(\\d+)\\] has an unknown field: ${ANY}(?=, |$)`, 'y'), field: (m) => `abTest.variants.${m[1]}` },
  ...ACTION_TEXTS.map(([field, text]): Rule => ({ re: new RegExp(`actions\\[(\\d+)\\]\\.${field} ${escape(text)}`, 'y'), field: (m) => `actions.${m[1]}.${field}` })),
  ...CREATE.map(([field, template]): Rule => ({ re: new RegExp(`${compile(template)}${template.endsWith('>') ? '(?=, |$)' : ''}`, 'y'), field: () => field })),
];

const SETTINGS_RULES: Rule[] = SETTINGS.map(([field, template]): Rule => ({ re: new RegExp(compile(template), 'y'), field: () => field }));

/** Splits a refused settings change's message into the texts of each setting it names. */
export function splitSettingsMessage(message: string): SplitMessage {
  return splitMessage(message, SETTINGS_RULES);
}

/**
 * A webhook's texts (docs/webhooks.md, "Validation"). The events' list is written out: it holds
 * ", " followed by a letter, which a placeholder never spans.
 */
const WEBHOOK: [FieldKey, string][] = [
  ['url', 'url is required'],
  ['url', 'url must be an https URL of at most 2048 characters'],
  ['url', 'url must not contain credentials'],
  ['url', 'url must not point to a private, loopback, link-local or metadata address'],
  ['events', 'events is required'],
  [
    'events',
    'events must be a non-empty array of: campaign.dispatched, campaign.completed, campaign.failed, subscriber.created, subscriber.expired, notification.impressions, notification.clicks, audit.entry, notification.sent, person.deleted, person.exported',
  ],
  ['description', 'description must be a string of at most 200 characters, without NUL characters or unpaired surrogates'],
  ['enabled', 'enabled must be a boolean'],
  ['overlapHours', 'overlapHours must be an integer between 0 and 168'],
];

const WEBHOOK_RULES: Rule[] = WEBHOOK.map(([field, text]): Rule => ({ re: new RegExp(escape(text), 'y'), field: () => field }));

/** Splits a refused webhook create's or change's message into the texts of each field it names. */
export function splitWebhookMessage(message: string): SplitMessage {
  return splitMessage(message, WEBHOOK_RULES);
}

/**
 * An automation's texts (docs/api-decisions.md, "Automations"; services/campaign/src/base/texts.ts):
 * each starts with the field it is about — `name`, `trigger`, `steps[1].delaySeconds`, `exitOn`,
 * `throttlePerMinute` —
 * and runs to the next part that starts with one, so texts the campaign service adds for new
 * fields (a new kind of trigger, a step's new option) still land at their field.
 */
const AUTOMATION_FIELD = String.raw`(name|status|trigger|throttlePerMinute|exitOn(?:\.\w+)?|steps(?:\[(\d+)\](?:\.(\w+))?)?)`;
const AUTOMATION_RULES: Rule[] = [
  {
    re: new RegExp(String.raw`${AUTOMATION_FIELD} (?:must|is|has) .+?(?=, ${AUTOMATION_FIELD} (?:must|is|has) |$)`, 'y'),
    field: (m) => (m[2] === undefined ? m[1].replace(/\[\d+\]$/, '') : m[3] === undefined ? `steps.${m[2]}` : `steps.${m[2]}.${m[3]}`),
  },
];

/** Splits a refused automation create's message into the texts of each field it names (`steps.<i>.<field>` for a step's). */
export function splitAutomationMessage(message: string): SplitMessage {
  return splitMessage(message, AUTOMATION_RULES);
}

/** Splits an API message into the texts of each field it names, in the order given (a create's, unless other rules are given). */
export function splitMessage(message: string, rules: readonly Rule[] = RULES): SplitMessage {
  const byField: Record<FieldKey, string[]> = {};
  const rest: string[] = [];
  let unknown = '';
  let i = 0;
  const flush = () => {
    if (unknown.trim()) rest.push(unknown.trim().replace(/,$/, ''));
    unknown = '';
  };
  while (i < message.length) {
    let matched = false;
    // Known texts start a part: at the beginning or after ", ".
    if (i === 0 || message.startsWith(', ', i - 2)) {
      for (const rule of rules) {
        rule.re.lastIndex = i;
        const m = rule.re.exec(message);
        // A text is whole only when the message ends or another part starts right after it.
        if (m && (rule.re.lastIndex === message.length || message.startsWith(', ', rule.re.lastIndex))) {
          flush();
          const field = rule.field(m);
          (byField[field] ??= []).push(m[0]);
          i = rule.re.lastIndex;
          if (message.startsWith(', ', i)) i += 2;
          matched = true;
          break;
        }
      }
    }
    if (!matched) {
      unknown += message[i];
      i++;
    }
  }
  flush();
  return { byField, rest };
}
