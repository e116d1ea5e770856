// The campaign service's one catalogue of `message` texts: every text it answers (as gRPC status
// details, which the gateway answers as `message`) is written here and nowhere else. SPEC are the
// spec's texts word for word, in its tables' order, placeholders included (fill() puts the values
// in); OWN are the texts the spec does not state, recorded in docs/api-decisions.md.
import { SHARED_OWN, SHARED_SPEC } from '@webpush/shared/api-texts.js';
import { CONSOLE_OWN } from '@webpush/shared/console-texts.js';
import { BAD_CHARACTERS } from '@webpush/shared/text.js';
import { MAX_EXTERNAL_ID_CHARS } from '@webpush/contracts/external-id.js';

const SPEC = {
  // 400 messages on create
  titleRequired: 'Title is required',
  titleLength: 'Title must be between 3 and 100 characters',
  bodyRequired: 'Body is required',
  bodyLength: 'Body must be between 3 and 300 characters',
  linkRequired: 'Link is required',
  audienceRequired: 'At least one topic or country must be specified',
  callToActionLength: 'Call to action must not exceed 20 characters',
  iconUrl: 'Icon must be a valid URL',
  imageUrl: 'Image must be a valid URL',
  invalidStatus: 'Invalid campaign status',
  invalidScheduleMode: 'Invalid schedule mode',
  scheduleDateRequired: 'Schedule date is required for schedule mode',
  invalidScheduleDate: 'Invalid schedule date format. Use ISO format (e.g. <UTC date-time>)',
  ttlRange: 'TTL must be between 0 and 28 days in seconds',
  // 400 messages on list, get and delete
  limitPositive: 'limit must be a positive number',
  invalidStartDate: 'Invalid startDate format. Use ISO format (e.g. <UTC date-time>)',
  invalidEndDate: 'Invalid endDate format. Use ISO format (e.g. <UTC date-time>)',
  dateOrder: 'startDate must be less than or equal to endDate',
  dateField: 'dateField must be createdAt or scheduleDate',
  invalidStatusValues: 'Invalid status values: <values>. Allowed: draft, scheduled, sent, failed',
  cursorNotText: 'cursor must be a non-empty string',
  invalidCursor: 'Invalid pagination cursor',
  // Other errors (and those the gateway answers too)
  ...SHARED_SPEC,
} as const;

const OWN = {
  // create's segment (an addition: docs/api-decisions.md, "Segments")
  segmentObject: 'segment must be an object of conditions: languages, timeZones, utcOffset, browsers, subscribedAfter, subscribedBefore, engagedWithinDays, notEngagedForDays, tags',
  segmentLanguages: 'segment.languages must be a non-empty array of at most 50 language tags (e.g. pt or pt-BR)',
  segmentTimeZones: 'segment.timeZones must be a non-empty array of at most 100 IANA time zone names (e.g. America/Sao_Paulo)',
  segmentUtcOffset: 'segment.utcOffset must be {"min", "max"}: whole minutes from -720 to 840, min not above max',
  segmentBrowsers: 'segment.browsers must be a non-empty array of: chrome, edge, firefox, safari, other',
  segmentSubscribedAfter: 'segment.subscribedAfter must be a UTC date-time (e.g. <UTC date-time>)',
  segmentSubscribedBefore: 'segment.subscribedBefore must be a UTC date-time (e.g. <UTC date-time>)',
  segmentSubscribedOrder: 'segment.subscribedAfter must be earlier than segment.subscribedBefore',
  segmentEngagedWithin: 'segment.engagedWithinDays must be a whole number of days from 1 to 3650',
  segmentNotEngagedFor: 'segment.notEngagedForDays must be a whole number of days from 1 to 3650',
  // a segment's tag conditions (issue 37; docs/api-decisions.md, "Segments"): <i> is the condition's index
  segmentTags: 'segment.tags must be a non-empty array of at most 10 tag conditions ({"key", "operator", "value"})',
  segmentTagCondition: 'segment.tags[<i>] must be an object of key, operator and value (values for in, none for exists and notExists)',
  segmentTagKey: 'segment.tags[<i>].key must be 1 to 64 characters of a-z, 0-9 and _',
  segmentTagOperator: 'segment.tags[<i>].operator must be one of: equals, in, exists, notExists, gt, gte, lt, lte, before, after',
  segmentTagNoValue: 'segment.tags[<i>] takes no value for <operator>',
  segmentTagEquals: 'segment.tags[<i>].value must be a string of at most 256 characters, a finite number, true or false, or an ISO 8601 date, for equals',
  segmentTagIn: 'segment.tags[<i>].values must be a non-empty array of at most 100 strings (at most 256 characters each), finite numbers, booleans or ISO 8601 dates, for in',
  segmentTagNumber: 'segment.tags[<i>].value must be a finite number, for <operator>',
  segmentTagDate: 'segment.tags[<i>].value must be an ISO 8601 date (2026-12-07, or a date-time with its offset) or a duration from now of at most 3650 days (-P7D, PT12H), for <operator>',
  segmentTagCharacters: 'segment.tags[<i>] values must not contain NUL characters or unpaired surrogates',
  // create's throttlePerMinute (an addition: docs/api-decisions.md, "Throttling")
  throttlePerMinute: 'throttlePerMinute must be a whole number from 0 (no limit) to 1000000',
  // create's ignoreFrequencyCap (an addition: docs/api-decisions.md, "Frequency caps")
  ignoreFrequencyCap: 'ignoreFrequencyCap must be a boolean',
  // create's ignoreQuietHours (an addition: docs/api-decisions.md, "Quiet hours")
  ignoreQuietHours: 'ignoreQuietHours must be a boolean',
  // create's localTime (an addition: docs/api-decisions.md, "Local time")
  localTimeFormat: 'localTime must be a time of day as HH:MM (00:00 to 23:59)',
  localTimeScheduled: 'localTime requires scheduleMode scheduled',
  localTimeDatePassed: "localTime's date must be today or later (UTC)",
  localTimeDateTooLate: "localTime's date must be 9999-12-30 or earlier",
  // create's abTest (an addition: docs/api-decisions.md, "A/B tests")
  abTestObject: 'abTest must be an object with variants, testPercent, winnerMetric and windowMinutes',
  abTestUnknownField: 'abTest has an unknown field: <name>',
  abTestVariants: 'abTest.variants must be a list of 2 to 5 variants',
  abTestVariantUnknownField: 'abTest.variants[<index>] has an unknown field: <name>',
  abTestVariantMessage: 'abTest.variants[<index>]: <message>',
  abTestTestPercent: 'abTest.testPercent must be an integer from 1 to 100',
  abTestWinnerMetric: 'abTest.winnerMetric must be ctr or impressions',
  abTestWindowMinutes: 'abTest.windowMinutes must be an integer from 1 to 10080',
  // create's sendTime (an addition: docs/api-decisions.md, "Best time")
  sendTimeObject: 'sendTime must be an object: {"mode": "bestTime", "within", "holdout"}',
  sendTimeUnknownField: 'sendTime has an unknown field: <name>',
  sendTimeMode: 'sendTime.mode must be bestTime',
  sendTimeWithin: 'sendTime.within must be a whole number of hours from 1h to 72h (e.g. 24h)',
  sendTimeHoldout: 'sendTime.holdout must be a whole percent from 0 to 50',
  sendTimeLocalTime: 'sendTime bestTime cannot be combined with localTime',
  // a plan preview's (POST /v2/campaign/plan-preview): what it previews
  sendTimeRequired: 'sendTime is required: {"mode": "bestTime", "within", "holdout"}',
  // create's notification options and urgency (additions: docs/api-decisions.md, "Notification options")
  actionsList: 'actions must be an array of at most 2 buttons, each {"title", "link"}',
  actionTitle: 'actions[<index>].title must be 1 to 20 characters',
  actionTitleCharacters: `actions[<index>].title ${BAD_CHARACTERS}`,
  actionLink: 'actions[<index>].link must be a valid URL',
  actionLinkCharacters: `actions[<index>].link ${BAD_CHARACTERS}`,
  actionsWithCallToAction: 'actions may have only 1 button when callToAction is given (2 buttons in all)',
  badgeUrl: 'Badge must be a valid URL',
  badgeCharacters: `Badge ${BAD_CHARACTERS}`,
  requireInteraction: 'requireInteraction must be a boolean',
  renotify: 'renotify must be a boolean',
  silent: 'silent must be a boolean',
  vibrate: 'vibrate must be an array of at most 10 whole numbers of milliseconds from 0 to 10000',
  vibrateSilent: 'vibrate cannot be used with silent',
  timestamp: 'timestamp must be a UTC date-time from 1970 on (e.g. <UTC date-time>)',
  dir: 'dir must be auto, ltr or rtl',
  lang: 'lang must be a BCP 47 language tag of at most 35 characters (e.g. pt-BR)',
  urgency: 'urgency must be very-low, low, normal or high',
  // POST /v2/campaign/{campaignId}/winner (an addition: docs/api-decisions.md, "A/B tests")
  winnerVariant: 'variant must be an integer from 0 to <last>',
  noAbTest: 'The campaign has no A/B test',
  // POST /v2/campaign/{campaignId}/update and /recall (an addition: docs/api-decisions.md, "Update and recall")
  updateFields: 'An update takes only title, body, link, icon and image',
  updateNothing: 'At least one of title, body, link, icon or image must be given',
  revisionNotSent: 'Only a sent campaign can be updated or recalled',
  revisionStillSending: 'The campaign is still sending; it can be updated or recalled once it has finished',
  revisionRecalled: 'The campaign was recalled; it can no longer be updated',
  // /v2/feeds (an addition: docs/api-decisions.md, "Feeds"); a feed's url has the webhooks' messages (@webpush/push/outbound.ts)
  feedNotFound: 'Feed not found',
  feedFields: 'A feed takes only url, pollIntervalMinutes, paused and the campaign fields: topics, countries, segment, template, icon, callToAction, utmSource, utmMedium, utmCampaign, ttl, urgency, throttlePerMinute, ignoreFrequencyCap, ignoreQuietHours',
  feedNothing: 'An update must give at least one field',
  feedPollInterval: 'pollIntervalMinutes must be a whole number from 5 to 1440',
  feedPaused: 'paused must be true or false',
  feedTemplate: 'template must be an object with id (a template of this site) and optional variables',
  feedTooMany: 'A site may have at most 20 feeds',
  // POST and GET /v2/notifications (an addition: docs/api-decisions.md, "Notifications")
  notificationTargets: 'subscriptionIds must be a non-empty array of subscription ids',
  notificationTooManyTargets: 'subscriptionIds may name at most 10000 subscriptions',
  notificationTargetFormat: 'subscriptionIds must contain only subscription ids (UUIDs)',
  notificationDuplicateTargets: 'subscriptionIds must not name a subscription twice',
  notificationWhom: 'A notification names either subscriptionIds or externalIds (exactly one of them)',
  notificationPeople: 'externalIds must be a non-empty array of external ids',
  notificationTooManyPeople: 'externalIds may name at most 10000 people',
  notificationPersonFormat: `externalIds must contain only external ids: strings of 1 to ${MAX_EXTERNAL_ID_CHARS} characters without control characters`,
  notificationPersonCharacters: `externalIds ${BAD_CHARACTERS}`,
  notificationDuplicatePeople: 'externalIds must not name a person twice',
  notificationTransactional: 'transactional must be true or false',
  notificationSendTimeObject: 'sendTime must be an object: {"mode": "bestTime", "within"}',
  notificationSendTimeHoldout: 'sendTime.holdout must be 0 or absent for a notification: every target is sent at its best time (a holdout measures a campaign\'s lift)',
  notificationRespectQuietHours: 'respectQuietHours must be true or false',
  notificationNotFound: 'Notification not found',
  notificationLimit: 'limit must be a whole number from 1 to 1000',
  // /v2/templates and a create's `template` (an addition: docs/api-decisions.md, "Templates")
  templateNotFound: 'Template not found',
  templateFields: 'A template takes only name and the content fields: title, body, link, icon, image, callToAction, utmSource, utmMedium, utmCampaign, actions, badge, requireInteraction, renotify, silent, vibrate, timestamp, dir, lang',
  templateNothing: 'An update must give at least one field',
  templateName: 'name must be a string of 1 to 100 characters',
  templateNameCharacters: `name ${BAD_CHARACTERS}`,
  templateNameTaken: 'A template of this name already exists',
  templateText: '<field> must be a string of at most 2048 characters',
  templateCharacters: `<field> ${BAD_CHARACTERS}`,
  templateTag: '<field> has a malformed tag at character <at>: a tag is {{ name }} or {{ name | "default" }}, a name of a-z, 0-9 and _ (at most 64)',
  templateUrlVariables: '<field> may use variables only after its address\'s host and the /, ? or # that ends it',
  templateVariables: 'variables must be an object of at most 100 names (a-z, 0-9 and _, not starting with a digit, at most 64 characters) with their values',
  templateVariableValue: 'variables.<name> must be a string of at most 1000 characters or a finite number',
  templateVariableCharacters: `variables.<name> ${BAD_CHARACTERS}`,
  templateVariableMissing: 'Template variable <name> has no value and no default',
  templateReference: 'template must be an object with id (a template of this site) and optional variables',
  templateNotOfSite: 'template.id is not a template of this site',
  notificationTemplateWithContent: 'A notification takes either template or content fields (title, body, link, icon, image, callToAction, utm parameters, notification options), not both',
  templateWithContent: 'A campaign takes either template or content fields (title, body, link, icon, image, callToAction, utm parameters, notification options), not both',
  // /v2/automations and POST /v2/events (an addition: docs/api-decisions.md, "Automations")
  automationNotFound: 'Automation not found',
  automationFields: 'An automation takes only name, status, trigger, steps, exitOn and throttlePerMinute',
  automationUpdateFields: 'An update takes only name, status and throttlePerMinute, at least one of them',
  automationName: 'name must be a string of 1 to 100 characters',
  automationNameCharacters: `name ${BAD_CHARACTERS}`,
  automationStatus: 'status must be active or paused',
  automationTrigger: 'trigger must be {"type": "subscribed"}, {"type": "event", "name": <event name>} or {"type": "tag", "name": <tag key>, "value"?: <string of at most 256 characters, number or boolean>}',
  automationSteps: 'steps must be an array of 1 to 10 steps',
  automationStep: 'steps[<i>] must be an object with delaySeconds, templateId and optional variables, sendTime and respectQuietHours',
  automationStepDelay: 'steps[<i>].delaySeconds must be a whole number of seconds from 0 to 31536000 (365 days)',
  automationStepTemplate: 'steps[<i>].templateId is not a template of this site',
  automationStepSendTime: 'steps[<i>].sendTime must be {"mode": "bestTime", "within": "1h" to "72h"} or null',
  automationStepRespectQuietHours: 'steps[<i>].respectQuietHours must be true or false',
  automationStepVariables: 'steps[<i>].variables must be an object of at most 100 names (a-z, 0-9 and _, not starting with a digit, at most 64 characters) with string (at most 1000 characters) or number values',
  automationThrottle: 'throttlePerMinute must be a whole number from 1 to 1000000 or null',
  automationExitOn: 'exitOn must be an object with events (at most 20 event names, each once) and click (true or false)',
  eventFields: 'An event takes only externalId, name and properties',
  eventExternalId: 'externalId must be a string of 1 to 128 characters without control characters',
  eventExternalIdCharacters: `externalId ${BAD_CHARACTERS}`,
  eventName: 'name must be an event name: 1 to 64 characters of a-z, A-Z, 0-9, _, ., : and -',
  eventProperties: 'properties must be an object of at most 50 names (a-z, 0-9 and _, not starting with a digit, at most 64 characters) with string (at most 1000 characters) or number values',
  // create (docs/api-decisions.md, "Create")
  linkUrl: 'Link must be a valid URL',
  tooManyDestinations: 'At most 100 topics and countries may be specified',
  utmSourceLength: 'utmSource must be a string of at most 200 characters',
  utmMediumLength: 'utmMedium must be a string of at most 200 characters',
  utmCampaignLength: 'utmCampaign must be a string of at most 200 characters',
  notificationTooLarge: 'Notification is too large to send (over 4096 bytes encrypted)',
  // NUL and unpaired surrogates (docs/api-decisions.md, "Text"), one per create field
  titleCharacters: `Title ${BAD_CHARACTERS}`,
  bodyCharacters: `Body ${BAD_CHARACTERS}`,
  linkCharacters: `Link ${BAD_CHARACTERS}`,
  topicsCharacters: `Topics ${BAD_CHARACTERS}`,
  countriesCharacters: `Countries ${BAD_CHARACTERS}`,
  callToActionCharacters: `Call to action ${BAD_CHARACTERS}`,
  iconCharacters: `Icon ${BAD_CHARACTERS}`,
  imageCharacters: `Image ${BAD_CHARACTERS}`,
  utmSourceCharacters: `utmSource ${BAD_CHARACTERS}`,
  utmMediumCharacters: `utmMedium ${BAD_CHARACTERS}`,
  utmCampaignCharacters: `utmCampaign ${BAD_CHARACTERS}`,
  // POST /v2/campaigns/export (docs/api-decisions.md, "Exporting campaign results")
  exportFormat: 'format must be ndjson or csv',
  // Idempotency-Key (docs/api-decisions.md, "Idempotency-Key"), answered by the gateway too
  ...SHARED_OWN,
  // The console API (docs/console.md), answered by the gateway too
  ...CONSOLE_OWN,
} as const;

export const SPEC_MESSAGES: Readonly<typeof SPEC> = Object.freeze(SPEC);
export const OWN_MESSAGES: Readonly<typeof OWN> = Object.freeze(OWN);
/** Both, for the code: which is which is this file's business. */
export const MESSAGES: Readonly<typeof SPEC & typeof OWN> = Object.freeze({ ...SPEC, ...OWN });

/**
 * `template` with each `<name>` placeholder replaced by `values[name]`. The values go in as they
 * are (a function replacer: `$&` in a client's text is not a replacement pattern).
 */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/<([^<>]+)>/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}
