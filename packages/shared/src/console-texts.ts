// The console API's own `message` texts (docs/console.md), written once: the gateway answers some
// itself (its session, CSRF, role and input checks) and the campaign service the others (as gRPC
// status details); both catalogues take them in. None is the /v2 contract's: the console answers
// /v2's texts only where it runs /v2's rules (campaigns, plans).
import { BAD_CHARACTERS } from './text.js';

export const CONSOLE_OWN = {
  notLoggedIn: 'Not logged in',
  wrongLogin: 'Wrong email or password',
  tooManyLogins: 'Too many login attempts; try again later',
  /** 429 when the process's password checks are all taken (a flood of logins): nothing was counted. */
  loginsBusy: 'Too many logins at once; try again in a few seconds',
  invalidCsrf: 'Invalid CSRF token',
  jsonContentType: 'Content-Type must be application/json',
  siteNotFound: 'Site not found',
  keyNotFound: 'Key not found',
  ownersOnly: "Only the site's owners can do this",
  /** 403 for a viewer on a route that changes something (owners' routes answer ownersOnly). */
  viewersReadOnly: 'Viewers cannot change anything',
  /** 409 for a change of members that would leave the site without an owner. */
  lastOwner: 'A site must keep at least one owner',
  memberNotFound: 'Member not found',
  inviteNotFound: 'Invite not found',
  /** 409 for an invite of someone who is a member already (a role is changed, not invited). */
  alreadyMember: '<email> is already a member of the site; change their role instead',
  inviteEmail: 'email must be an email address of at most 254 characters',
  role: 'role must be owner, editor or viewer',
  linkInvalid: 'This link is invalid, used or expired',
  passwordLength: 'Password must be 10 to 200 characters',
  keyAlreadyRevoked: 'The key is already revoked',
  labelLength: 'Label must be 1 to 100 characters',
  labelCharacters: 'Label must not contain control characters',
  /** `<field>`: the body's field name as the API spells it. */
  fieldString: '<field> must be a string',
  fieldStringList: '<field> must be a list of strings',
  fieldCharacters: `<field> ${BAD_CHARACTERS}`,
  /** The delivery service's own text for the same rule (packages/contracts/protos/delivery/v1/console_data.proto). */
  daysRange: 'days must be an integer from 1 to 365',
  /** Topic maintenance on a plan without the `audience` permission (topic lists answer [] then, as /v2's). */
  planTopics: 'This plan does not have permission to maintain topics',
  /** 502 for a test notification the push service did not take, when the delivery service gave no reason. */
  testPushNotSent: 'The push service did not take the test notification',
  /** 409 for an edit of a campaign that is not a draft (the console's "Drafts"; the campaign service's). */
  onlyDrafts: 'Only a draft can be edited',
  /** 504 for a test notification the delivery service did not answer in time (it may have been sent). */
  testPushTimeout: 'The test notification was not confirmed in time; it may still arrive',
  // A site's settings (PATCH …/settings): the rules are the operators' CLI's, the words the API's.
  /** The campaign service's (the site's default throttle is its fact). */
  defaultThrottle: 'defaultThrottlePerMinute must be a whole number from 1 to 1000000, or null',
  /** The delivery service's (the frequency cap, the time zone and the quiet hours are its facts). */
  frequencyCapCampaigns: 'frequencyCap.campaigns must be a whole number from 1 to 1000',
  frequencyCapHours: 'frequencyCap.hours must be a whole number from 1 to 720 (30 days)',
  timeZone: 'timeZone must be an IANA time zone such as Europe/Lisbon, or null',
  quietHoursFrom: 'quietHours.from must be a time of day as HH:MM (00:00 to 23:59)',
  quietHoursTo: 'quietHours.to must be a time of day as HH:MM (00:00 to 23:59), not the same as quietHours.from',
  /** The gateway's: the body's shape. */
  frequencyCapObject: 'frequencyCap must be {"campaigns", "hours"} or null',
  quietHoursObject: 'quietHours must be {"from", "to"} or null',
  settingUnknown: 'Unknown setting: <field>',
  settingsEmpty: 'Nothing to change: give defaultThrottlePerMinute, frequencyCap, timeZone or quietHours',
  /** The audit log's page query (docs/console.md, "Audit log"); the delivery service's own texts for the same rules (audit_log.proto). */
  auditLimit: 'limit must be an integer from 1 to 100',
  auditBefore: 'before must be the id of an entry',
  auditRetention: 'retentionDays must be an integer from 7 to 3650',
} as const;

/** `template` with `<field>` replaced by `field`. */
export function withField(template: string, field: string): string {
  return template.replace('<field>', () => field);
}
