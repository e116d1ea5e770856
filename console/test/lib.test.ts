// The console's pure modules: time-zone conversions (the schedule entered in the owner's zone,
// sent as UTC), the API's joined validation messages split onto their fields, the hash routes,
// and what the Webhooks and Automations pages say.
import { expect } from 'chai';
import fc from 'fast-check';
import { ApiError, messageOf } from '../src/lib/api';
import { WEBHOOK_EVENTS as SERVICE_EVENTS, WEBHOOK_MESSAGES } from '../../services/delivery/src/webhooks/endpoints.js';
import { outboundUrlProblem as webhookUrlProblem } from '@webpush/push/outbound.js';
import { splitAutomationMessage, splitMessage, splitWebhookMessage } from '../src/lib/field-errors';
import { validateAutomationInput } from '../../services/campaign/src/automations/automation-input.js';
import { ValidationError } from '../../services/campaign/src/base/errors.js';
import { MESSAGES as CAMPAIGN_MESSAGES } from '../../services/campaign/src/base/texts.js';
import { automationRequest, delayWords, newStep, stepTimingWords, throttleChange, throttleWords, triggerWords, type AutomationForm } from '../src/lib/automations';
import { actionText, campaignState, countryName, graphemes, isLive, outcomeText, sendingProgress } from '../src/lib/format';
import { sendTestNotification, SUBSCRIBE_TIMEOUT_MESSAGE } from '../src/lib/push';
import { parseHash } from '../src/lib/router';
import { apiDate, instantToWall, offsetMinutes, timeAxisLabels, wallToApiDate, wallToInstant } from '../src/lib/time';
import type { Campaign, SubscriptionJson } from '../src/lib/types';
import { changedFields, lastAnswer, latency, overlapValue, WEBHOOK_EVENTS, webhookState } from '../src/lib/webhooks';

describe('console: time zones', () => {
  it('when a wall time is entered in São Paulo, then scheduleDate is that instant in UTC', () => {
    expect(wallToApiDate('2026-11-27T14:30', 'America/Sao_Paulo')).to.equal('2026-11-27T17:30:00Z');
    expect(wallToApiDate('2026-07-01T09:00', 'Europe/Lisbon')).to.equal('2026-07-01T08:00:00Z');
    expect(wallToApiDate('2026-01-01T09:00', 'Europe/Lisbon')).to.equal('2026-01-01T09:00:00Z');
    expect(wallToApiDate('2026-03-01T00:15', 'Asia/Kolkata')).to.equal('2026-02-28T18:45:00Z');
    expect(wallToApiDate('2026-11-27T14:30', 'UTC')).to.equal('2026-11-27T14:30:00Z');
  });

  it('when the wall time is not a date, then null', () => {
    for (const bad of ['', '2026-02-30T10:00', '2026-13-01T10:00', '2026-11-27 14:30', '2026-11-27T24:00', 'tomorrow']) expect(wallToApiDate(bad, 'UTC'), bad).to.equal(null);
  });

  it('when clocks go forward, then a skipped time is not exact and moves by the jump; when they go back, the first of the twice-shown time', () => {
    // New York, 2026-03-08 02:30 does not exist (02:00 → 03:00 EDT).
    const skipped = wallToInstant('2026-03-08T02:30', 'America/New_York')!;
    expect(skipped.exact).to.equal(false);
    expect(apiDate(skipped.ms)).to.equal('2026-03-08T07:30:00Z');
    // New York, 2026-11-01 01:30 happens twice (EDT, then EST): the first, EDT.
    const twice = wallToInstant('2026-11-01T01:30', 'America/New_York')!;
    expect(twice.exact).to.equal(true);
    expect(apiDate(twice.ms)).to.equal('2026-11-01T05:30:00Z');
  });

  it("a chart's time axis is on the 24-hour clock in the zone, the date under the first tick and each new day's, as dates are shown", () => {
    const at = (iso: string) => Date.parse(iso) / 1000;
    // São Paulo is UTC−3: 21:00 UTC on 27 Nov is 18:00 there; 03:00 UTC on the 28th is 00:00 there.
    const ticks = ['2026-11-27T21:00:00Z', '2026-11-27T23:00:00Z', '2026-11-28T01:00:00Z', '2026-11-28T03:00:00Z', '2026-11-28T05:00:00Z'].map(at);
    expect(timeAxisLabels(ticks, 7200, 'America/Sao_Paulo')).to.deep.equal(['18:00\n27 Nov', '20:00', '22:00', '00:00\n28 Nov', '02:00']);
    expect(timeAxisLabels([at('2026-11-27T13:05:00Z'), at('2026-11-27T13:10:00Z')], 300, 'UTC')).to.deep.equal(['13:05\n27 Nov', '13:10']);
    // Never a 12-hour label, whatever the hour.
    const hours = Array.from({ length: 24 }, (_, h) => at(`2026-11-27T${String(h).padStart(2, '0')}:00:00Z`));
    expect(timeAxisLabels(hours, 3600, 'UTC').map((l) => l.split('\n')[0])).to.deep.equal(hours.map((_, h) => `${String(h).padStart(2, '0')}:00`));
    expect(timeAxisLabels([at('2026-11-27T00:00:00Z'), at('2026-11-28T00:00:00Z')], 86_400, 'UTC')).to.deep.equal(['27 Nov', '28 Nov']);
    expect(timeAxisLabels([at('2026-11-01T00:00:00Z'), at('2026-12-01T00:00:00Z')], 30 * 86_400, 'UTC')).to.deep.equal(['Nov 2026', 'Dec 2026']);
  });

  it('offsets are the zone’s at that instant', () => {
    expect(offsetMinutes('America/Sao_Paulo', Date.parse('2026-11-27T12:00:00Z'))).to.equal(-180);
    expect(offsetMinutes('Europe/Berlin', Date.parse('2026-07-01T12:00:00Z'))).to.equal(120);
    expect(offsetMinutes('Asia/Kathmandu', Date.parse('2026-07-01T12:00:00Z'))).to.equal(345);
  });

  it('any instant shown in a zone and entered again is the same instant (to the minute), in every zone the runtime knows', () => {
    const zones = Intl.supportedValuesOf('timeZone').filter((_, i) => i % 7 === 0);
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2000-01-01T00:00:00Z') / 60_000, max: Date.parse('2037-12-31T00:00:00Z') / 60_000 }), fc.constantFrom(...zones), (minute, zone) => {
        const ms = minute * 60_000;
        const back = wallToInstant(instantToWall(ms, zone), zone)!;
        // A wall time shown twice (clocks going back) comes back as its first instant.
        expect(back.exact).to.equal(true);
        expect(back.ms === ms || instantToWall(back.ms, zone) === instantToWall(ms, zone), `${zone} ${new Date(ms).toISOString()}`).to.equal(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("console: the API's validation messages at their fields", () => {
  it('when several fields are wrong, then each text goes to its field, in order', () => {
    const m = splitMessage('Title must be between 3 and 100 characters, Link is required, At least one topic or country must be specified, Invalid schedule date format. Use ISO format (e.g. 2026-11-20T10:00:00Z)');
    expect(m.byField).to.deep.equal({
      title: ['Title must be between 3 and 100 characters'],
      link: ['Link is required'],
      audience: ['At least one topic or country must be specified'],
      scheduleDate: ['Invalid schedule date format. Use ISO format (e.g. 2026-11-20T10:00:00Z)'],
    });
    expect(m.rest).to.deep.equal([]);
  });

  it('texts with commas of their own stay whole (segment, utcOffset)', () => {
    const seg = 'segment must be an object of conditions: languages, timeZones, utcOffset, browsers, subscribedAfter, subscribedBefore, engagedWithinDays, notEngagedForDays, tags';
    const off = 'segment.utcOffset must be {"min", "max"}: whole minutes from -720 to 840, min not above max';
    const browsers = 'segment.browsers must be a non-empty array of: chrome, edge, firefox, safari, other';
    const m = splitMessage(`Body is required, ${seg}, ${off}, ${browsers}`);
    expect(m.byField).to.deep.equal({ body: ['Body is required'], segment: [seg], 'segment.utcOffset': [off], 'segment.browsers': [browsers] });
    expect(m.rest).to.deep.equal([]);
  });

  it("an A/B variant's text goes to that variant's field", () => {
    const m = splitMessage('abTest.variants[1]: Title must be between 3 and 100 characters, abTest.variants[0]: Icon must be a valid URL, abTest.testPercent must be an integer from 1 to 100');
    expect(m.byField).to.deep.equal({
      'abTest.variants.1.title': ['abTest.variants[1]: Title must be between 3 and 100 characters'],
      'abTest.variants.0.icon': ['abTest.variants[0]: Icon must be a valid URL'],
      'abTest.testPercent': ['abTest.testPercent must be an integer from 1 to 100'],
    });
  });

  it("the notification options' texts go to their fields, a button's to that button's text or link", () => {
    const m = splitMessage(
      'actions[1].link must be a valid URL, actions[0].title must be 1 to 20 characters, Badge must be a valid URL, vibrate cannot be used with silent, timestamp must be a UTC date-time from 1970 on (e.g. 2025-01-01T12:00:00Z), urgency must be very-low, low, normal or high',
    );
    expect(m.byField).to.deep.equal({
      'actions.1.link': ['actions[1].link must be a valid URL'],
      'actions.0.title': ['actions[0].title must be 1 to 20 characters'],
      badge: ['Badge must be a valid URL'],
      vibrate: ['vibrate cannot be used with silent'],
      timestamp: ['timestamp must be a UTC date-time from 1970 on (e.g. 2025-01-01T12:00:00Z)'],
      urgency: ['urgency must be very-low, low, normal or high'],
    });
    expect(m.rest).to.deep.equal([]);
  });

  it('a text the console does not know is kept whole for the form’s alert', () => {
    expect(splitMessage('Something new went wrong')).to.deep.equal({ byField: {}, rest: ['Something new went wrong'] });
    const m = splitMessage('Title is required, Something new, with a comma, Link is required');
    expect(m.byField).to.deep.equal({ title: ['Title is required'], link: ['Link is required'] });
    expect(m.rest).to.deep.equal(['Something new, with a comma']);
  });

  it('no character of the message is lost: the parts joined are the message', () => {
    const known = ['Title is required', 'Body must be between 3 and 300 characters', 'Link is required', 'Invalid campaign status', 'ttl is odd', 'x, y'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...known), { minLength: 1, maxLength: 6 }), (parts) => {
        const message = parts.join(', ');
        const m = splitMessage(message);
        const total = [...Object.values(m.byField).flat(), ...m.rest].join(', ').length;
        expect(total).to.equal(message.length);
      }),
    );
  });
});

describe("console: a refusal's message", () => {
  it('when a 429 asks to wait, then the wait is shown in seconds under a minute, else in minutes', () => {
    expect(messageOf(new ApiError(429, 'Too many logins at once; try again in a few seconds', 2))).to.equal('Too many logins at once; try again in a few seconds (about 2 s)');
    expect(messageOf(new ApiError(429, 'Too many login attempts; try again later', 898))).to.equal('Too many login attempts; try again later (about 15 min)');
    expect(messageOf(new ApiError(401, 'Wrong email or password'))).to.equal('Wrong email or password');
  });
});

describe('console: hash routes', () => {
  it('names each page', () => {
    expect(parseHash('')).to.deep.equal({ page: 'sites' });
    expect(parseHash('#/login?next=%2Fsites%2Fa%2Faudience')).to.deep.equal({ page: 'login', next: '/sites/a/audience' });
    expect(parseHash('#/invite/abc_-123')).to.deep.equal({ page: 'invite', token: 'abc_-123' });
    expect(parseHash('#/sites/s1/campaigns/new?from=c9')).to.deep.equal({ page: 'composer', siteId: 's1', from: 'c9' });
    expect(parseHash('#/sites/s1/campaigns/c9')).to.deep.equal({ page: 'campaign', siteId: 's1', campaignId: 'c9' });
    expect(parseHash('#/sites/s1/campaigns/c9/edit')).to.deep.equal({ page: 'editDraft', siteId: 's1', campaignId: 'c9' });
    expect(parseHash('#/sites/s1/campaigns/c9/other').page).to.equal('notFound');
    expect(parseHash('#/sites/s1/settings')).to.deep.equal({ page: 'settings', siteId: 's1' });
    expect(parseHash('#/sites/s1/audit')).to.deep.equal({ page: 'audit', siteId: 's1' });
    expect(parseHash('#/sites/s1/webhooks')).to.deep.equal({ page: 'webhooks', siteId: 's1' });
    expect(parseHash('#/sites/s1/webhooks/w%2F1')).to.deep.equal({ page: 'webhook', siteId: 's1', webhookId: 'w/1' });
    expect(parseHash('#/sites/s1/webhooks/w1/deliveries').page).to.equal('notFound');
    expect(parseHash('#/sites/s1/templates')).to.deep.equal({ page: 'templates', siteId: 's1', templateId: undefined });
    expect(parseHash('#/sites/s1/templates/new')).to.deep.equal({ page: 'templates', siteId: 's1', templateId: 'new' });
    expect(parseHash('#/sites/s1/templates/t%2F1')).to.deep.equal({ page: 'templates', siteId: 's1', templateId: 't/1' });
    expect(parseHash('#/sites/s1/templates/t1/render').page).to.equal('notFound');
    expect(parseHash('#/sites/s1/automations')).to.deep.equal({ page: 'automations', siteId: 's1', automationId: undefined });
    expect(parseHash('#/sites/s1/automations/new')).to.deep.equal({ page: 'automations', siteId: 's1', automationId: 'new' });
    expect(parseHash('#/sites/s1/automations/a%2F1')).to.deep.equal({ page: 'automations', siteId: 's1', automationId: 'a/1' });
    expect(parseHash('#/sites/s1/automations/a1/steps').page).to.equal('notFound');
    expect(parseHash('#/sites/s1/people')).to.deep.equal({ page: 'people', siteId: 's1', externalId: undefined });
    expect(parseHash('#/sites/s1/people/Ana%20Mar%C3%ADa%2F1')).to.deep.equal({ page: 'people', siteId: 's1', externalId: 'Ana María/1' });
    expect(parseHash('#/sites/s1/people/ann/sends').page).to.equal('notFound');
    const list = parseHash('#/sites/s1/campaigns?status=sent,draft');
    expect(list.page).to.equal('campaigns');
    expect(list.page === 'campaigns' && list.query.get('status')).to.equal('sent,draft');
    expect(parseHash('#/nope').page).to.equal('notFound');
    expect(parseHash('#main').page).to.equal('notFound');
  });
});

describe('console: formats', () => {
  it('counts user-perceived characters as the API does', () => {
    expect(graphemes('abc')).to.equal(3);
    expect(graphemes('👍🏽 ok')).to.equal(4);
    expect(graphemes('e\u0301')).to.equal(1);
  });

  it('names countries', () => {
    expect(countryName('country__br')).to.equal('Brazil (BR)');
    expect(countryName('country__desconhecido')).to.equal('Unknown country');
  });

  it('tells a campaign’s state in the list filter’s words', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const c = (x: Partial<Campaign>) => ({ status: 'published', scheduleMode: 'now', scheduleDate: '2026-11-27T11:00:00Z', ...x }) as Campaign;
    expect(campaignState(c({ status: 'draft' }), now)).to.equal('draft');
    expect(campaignState(c({ status: 'failed' }), now)).to.equal('failed');
    expect(campaignState(c({}), now)).to.equal('sent');
    expect(campaignState(c({ delivery: { sent: 1, failed: 0, expired: 0, pending: 3, failedBy: {} } }), now)).to.equal('sending');
    expect(campaignState(c({ scheduleMode: 'scheduled', scheduleDate: '2026-11-28T00:00:00Z' }), now)).to.equal('scheduled');
  });
});

describe('console: a send in progress', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  const delivery = (sent: number, pending: number, capped = 0) => ({ sent, failed: 1, expired: 1, pending, failedBy: {}, ...(capped ? { capped } : {}) });
  const c = (x: Partial<Campaign>) => ({ status: 'published', scheduleMode: 'now', scheduleDate: '2026-11-27T11:00:00Z', ...x }) as Campaign;
  const ab = (winner: Campaign['abTest'] extends infer T ? (T extends { winner: infer W } ? W : never) : never, windowEndsAt: string | null) =>
    ({ variants: [{}, {}], testPercent: 20, winnerMetric: 'ctr', windowMinutes: 60, results: [], winner, windowEndsAt }) as unknown as Campaign['abTest'];
  const sends = (...at: string[]) => ({ date: '2026-11-27', time: '09:00', ifPassed: 'nextDay', firstSendAt: at[0], lastSendAt: at.at(-1)!, sends: at.map((sendAt) => ({ sendAt, zones: [], users: 1, nextDay: false })) }) as Campaign['localTime'];

  it('when a throttled campaign has planned pushes left an hour after it started, then it reads Sending n of N (outcomes of planned) and the page keeps refreshing', () => {
    const throttled = c({ delivery: delivery(0, 37, 1) });
    expect(campaignState(throttled, now)).to.equal('sending');
    expect(sendingProgress(throttled, 'UTC', now)).to.deep.equal(['Sending 3 of 40']);
    expect(isLive(throttled, now)).to.equal(true);
    // Over: nothing pending. Reports are still watched for a while, then no more.
    const over = c({ delivery: delivery(38, 0) });
    expect(sendingProgress(over, 'UTC', now)).to.deep.equal([]);
    expect(isLive(over, now)).to.equal(false);
    expect(isLive(c({ delivery: delivery(38, 0), scheduleDate: '2026-11-27T11:50:00Z' }), now)).to.equal(true);
  });

  it("when an A/B test's rest waits for its winner, then Testing: winner at hh:mm (in the owner's zone; with the date on another day)", () => {
    const testing = c({ delivery: delivery(8, 30), abTest: ab(null, '2026-11-27T13:05:00Z') });
    expect(sendingProgress(testing, 'UTC', now)).to.deep.equal(['Sending 10 of 40', 'Testing: winner at 13:05']);
    expect(sendingProgress(testing, 'America/Sao_Paulo', now)).to.deep.equal(['Sending 10 of 40', 'Testing: winner at 10:05']);
    expect(sendingProgress(c({ delivery: delivery(8, 30), abTest: ab(null, '2026-11-28T13:05:00Z') }), 'UTC', now)[1]).to.equal('Testing: winner at 28 Nov 2026, 13:05');
    // Before its first push there is no window yet; once chosen, no line.
    expect(sendingProgress(c({ delivery: delivery(0, 40), abTest: ab(null, null) }), 'UTC', now)).to.deep.equal(['Sending 2 of 42']);
    expect(sendingProgress(c({ delivery: delivery(8, 30), abTest: ab({ variant: 1, decidedAt: '2026-11-27T11:30:00Z', by: 'customer' }, '2026-11-27T13:05:00Z') }), 'UTC', now)).to.deep.equal(['Sending 10 of 40']);
  });

  it('when local-time groups are still to come, then Next group at hh:mm, the next one after now', () => {
    const local = c({ scheduleMode: 'scheduled', scheduleDate: '2026-11-27T03:00:00Z', delivery: delivery(10, 18), localTime: sends('2026-11-27T03:00:00Z', '2026-11-27T12:00:00Z', '2026-11-27T19:00:00Z', '2026-11-28T04:00:00Z') });
    expect(sendingProgress(local, 'UTC', now)).to.deep.equal(['Sending 12 of 30', 'Next group at 19:00']);
    expect(sendingProgress(local, 'Asia/Tokyo', now)).to.deep.equal(['Sending 12 of 30', 'Next group at 28 Nov 2026, 04:00']);
    expect(isLive(local, now)).to.equal(true);
  });
});

describe('console: the test notification', () => {
  const subscription: SubscriptionJson = { endpoint: 'https://push.example/x', keys: { p256dh: 'k', auth: 'a' } };
  const granted = async () => 'granted' as const;

  it("when the browser's push service never answers the subscription, then it gives up with a message that says so, and sends nothing", async () => {
    const sent: SubscriptionJson[] = [];
    const state = await sendTestNotification({ askPermission: granted, subscribe: () => new Promise<never>(() => {}), send: async (s) => void sent.push(s) }, 20);
    expect(state).to.deep.equal({ step: 'failed', message: SUBSCRIBE_TIMEOUT_MESSAGE });
    expect(SUBSCRIBE_TIMEOUT_MESSAGE).to.match(/^This browser's push service did not answer within 15 s/);
    expect(sent).to.deep.equal([]);
  });

  it('when subscribed in time, then the subscription is sent; refusals and failures say what happened', async () => {
    const sent: SubscriptionJson[] = [];
    expect(await sendTestNotification({ askPermission: granted, subscribe: async () => subscription, send: async (s) => void sent.push(s) })).to.deep.equal({ step: 'sent' });
    expect(sent).to.deep.equal([subscription]);
    const never = () => new Promise<never>(() => {});
    expect(await sendTestNotification({ askPermission: async () => 'denied', subscribe: never, send: never })).to.deep.equal({ step: 'denied' });
    expect(await sendTestNotification({ askPermission: async () => 'default', subscribe: never, send: never })).to.deep.equal({ step: 'dismissed' });
    const failing = await sendTestNotification({ askPermission: granted, subscribe: async () => Promise.reject(new Error('AbortError: registration failed')), send: never });
    expect(failing).to.deep.equal({ step: 'failed', message: 'This browser could not subscribe: AbortError: registration failed' });
    const refused = await sendTestNotification({ askPermission: granted, subscribe: async () => subscription, send: async () => Promise.reject(new Error('The push service could not be reached: timeout')) });
    expect(refused).to.deep.equal({ step: 'failed', message: 'The push service could not be reached: timeout' });
  });
});

describe("console: the audit log's words", () => {
  it('reads an operation name as words, and a status as its outcome', () => {
    expect(actionText('createCampaign')).to.equal('create campaign');
    expect(actionText('rotateWebhookSecret')).to.equal('rotate webhook secret');
    expect(actionText('login')).to.equal('login');
    expect([200, 302, 400, 403, 404, 500, 503].map(outcomeText)).to.deep.equal([
      'Done (200)',
      'Done (302)',
      'Refused (400)',
      'Refused (403)',
      'Refused (404)',
      'Failed (500)',
      'Failed (503)',
    ]);
  });
});

describe('console: the Webhooks pages', () => {
  it("offers the delivery service's event types, in its order", () => {
    expect(WEBHOOK_EVENTS.map((e) => e.type)).to.deep.equal([...SERVICE_EVENTS]);
  });

  it("puts the delivery service's refusals at their fields: the URL's, the events' (commas of its own) and the description's; the rest for the alert", () => {
    const url = ['', 'http://x.example/', 'https://u:p@x.example/', 'https://10.0.0.1/'].map((u) => webhookUrlProblem(u, [])!);
    expect(new Set(url).size).to.equal(4);
    for (const text of url) expect(splitWebhookMessage(text)).to.deep.equal({ byField: { url: [text] }, rest: [] });
    const m = splitWebhookMessage([url[3], WEBHOOK_MESSAGES.events, WEBHOOK_MESSAGES.description, WEBHOOK_MESSAGES.tooMany].join(', '));
    expect(m).to.deep.equal({ byField: { url: [url[3]], events: [WEBHOOK_MESSAGES.events], description: [WEBHOOK_MESSAGES.description] }, rest: [WEBHOOK_MESSAGES.tooMany] });
    expect(splitWebhookMessage(`${WEBHOOK_MESSAGES.eventsRequired}, ${WEBHOOK_MESSAGES.enabled}`).byField).to.deep.equal({ events: [WEBHOOK_MESSAGES.eventsRequired], enabled: [WEBHOOK_MESSAGES.enabled] });
    expect(splitWebhookMessage(WEBHOOK_MESSAGES.overlapHours).byField).to.deep.equal({ overlapHours: [WEBHOOK_MESSAGES.overlapHours] });
  });

  it("says an endpoint's state, an attempt's answer and its latency", () => {
    expect([webhookState({ enabled: true, failingSince: null }), webhookState({ enabled: true, failingSince: '2026-12-05T10:00:00.000Z' }), webhookState({ enabled: false, failingSince: null })]).to.deep.equal(['enabled', 'failing', 'disabled']);
    expect([lastAnswer({ attempts: 0, lastStatus: null }), lastAnswer({ attempts: 2, lastStatus: null }), lastAnswer({ attempts: 1, lastStatus: 500 })]).to.deep.equal(['—', 'No answer', 'HTTP 500']);
    expect([latency(null), latency(0), latency(84), latency(10_002)]).to.deep.equal(['—', '0 ms', '84 ms', '10.0 s']);
  });

  it('an edit sends only what changed (events as a set), nothing when nothing did', () => {
    const before = { url: 'https://a.example/h', events: ['campaign.completed', 'subscriber.expired'], description: 'CRM' };
    expect(changedFields(before, { ...before, events: ['subscriber.expired', 'campaign.completed'] })).to.equal(null);
    expect(changedFields(before, { ...before, description: 'CRM 2' })).to.deep.equal({ description: 'CRM 2' });
    expect(changedFields(before, { url: 'https://b.example/h', events: ['campaign.completed'], description: 'CRM' })).to.deep.equal({ url: 'https://b.example/h', events: ['campaign.completed'] });
  });

  it("sends a rotation's overlap as a number when it is a whole one, else as typed for the API to refuse", () => {
    expect([overlapValue('24'), overlapValue(' 0 '), overlapValue('168')]).to.deep.equal([24, 0, 168]);
    expect([overlapValue(''), overlapValue('1.5'), overlapValue('-1'), overlapValue('two')]).to.deep.equal(['', '1.5', '-1', 'two']);
  });
});

describe('console: the Automations pages', () => {
  /** The campaign service's refusal of a body, as the API answers it (its texts joined by ", "). */
  const refusal = (body: Record<string, unknown>) => {
    try {
      validateAutomationInput(body);
    } catch (err) {
      if (err instanceof ValidationError) return { joined: err.message, texts: err.messages };
    }
    throw new Error('the body was accepted');
  };

  it("puts the campaign service's refusals at their fields — a step's at the step's — and nothing in the rest", () => {
    const { joined, texts } = refusal({
      name: '',
      status: 'gone',
      trigger: { type: 'event', name: 'a b' },
      steps: [{ delaySeconds: 60, templateId: 'not-an-id' }, { delaySeconds: -1, templateId: '00000000-0000-4000-8000-000000000000', variables: { 'Not a name': 1 } }, 'x'],
      exitOn: { events: ['x', 'x'] },
    });
    expect(texts).to.have.length(8);
    expect(splitAutomationMessage(joined)).to.deep.equal({
      byField: {
        name: [CAMPAIGN_MESSAGES.automationName],
        status: [CAMPAIGN_MESSAGES.automationStatus],
        trigger: [CAMPAIGN_MESSAGES.automationTrigger],
        'steps.0.templateId': ['steps[0].templateId is not a template of this site'],
        'steps.1.delaySeconds': ['steps[1].delaySeconds must be a whole number of seconds from 0 to 31536000 (365 days)'],
        'steps.1.variables': [texts[5]],
        'steps.2': ['steps[2] must be an object with delaySeconds, templateId and optional variables, sendTime and respectQuietHours'],
        exitOn: [CAMPAIGN_MESSAGES.automationExitOn],
      },
      rest: [],
    });
    const steps = refusal({ name: 'n', trigger: { type: 'subscribed' }, steps: [] });
    expect(splitAutomationMessage(steps.joined)).to.deep.equal({ byField: { steps: [CAMPAIGN_MESSAGES.automationSteps] }, rest: [] });
    // A text naming no field of the form stays whole, for the alert.
    const unknown = refusal({ name: 'n', trigger: { type: 'subscribed' }, steps: [], extra: 1 });
    expect(splitAutomationMessage(unknown.joined)).to.deep.equal({ byField: {}, rest: [CAMPAIGN_MESSAGES.automationFields] });
    // A field added later (a step's new option) still lands at its field.
    expect(splitAutomationMessage(`steps[3].sendTime must be an object, ${CAMPAIGN_MESSAGES.automationName}`).byField).to.deep.equal({ 'steps.3.sendTime': ['steps[3].sendTime must be an object'], name: [CAMPAIGN_MESSAGES.automationName] });
  });

  it("puts a tag trigger's, a step's best time and quiet hours' and the throttle's refusals at their fields", () => {
    const { joined, texts } = refusal({
      name: 'n',
      trigger: { type: 'tag', name: 'Plan', value: null },
      steps: [{ delaySeconds: 0, templateId: '00000000-0000-4000-8000-000000000000', sendTime: { mode: 'bestTime', within: '100h' }, respectQuietHours: 'yes' }],
    });
    expect(splitAutomationMessage(joined)).to.deep.equal({
      byField: { trigger: [CAMPAIGN_MESSAGES.automationTrigger], 'steps.0.sendTime': [texts[1]], 'steps.0.respectQuietHours': [texts[2]] },
      rest: [],
    });
    // The throttle's text (docs/api-decisions.md, "Automations"), beside another field's, on a create or a change.
    const throttle = 'throttlePerMinute must be a whole number from 1 to 1000000 or null';
    expect(splitAutomationMessage(`${CAMPAIGN_MESSAGES.automationName}, ${throttle}`)).to.deep.equal({ byField: { name: [CAMPAIGN_MESSAGES.automationName], throttlePerMinute: [throttle] }, rest: [] });
    expect(splitAutomationMessage(throttle)).to.deep.equal({ byField: { throttlePerMinute: [throttle] }, rest: [] });
  });

  it("says a step's wait and a trigger in words, a kind of trigger it does not know by its fields", () => {
    expect([0, 60, 90 * 60, 3600, 7200, 86_400, 3 * 86_400, 45].map(delayWords)).to.deep.equal(['at once', 'after 1 minute', 'after 90 minutes', 'after 1 hour', 'after 2 hours', 'after 1 day', 'after 3 days', 'after 45 seconds']);
    expect(stepTimingWords({ delaySeconds: 86_400, sendTime: { mode: 'bestTime', within: '24h' }, respectQuietHours: true })).to.equal("after 1 day, then at each subscription's best hour within 24 hours, outside quiet hours");
    expect(stepTimingWords({ delaySeconds: 3600, sendTime: { mode: 'bestTime', within: '1h' } })).to.equal("after 1 hour, then at each subscription's best hour within 1 hour");
    expect(stepTimingWords({ delaySeconds: 0, respectQuietHours: true })).to.equal('at once, outside quiet hours');
    expect(stepTimingWords({ delaySeconds: 0, sendTime: null, respectQuietHours: null })).to.equal('at once');
    expect(stepTimingWords({ delaySeconds: 0, sendTime: { mode: 'bestTime', within: 'P1D' }, respectQuietHours: false })).to.equal("at once, then at each subscription's best hour within P1D");
    expect(triggerWords({ type: 'subscribed' })).to.equal('Welcome: when a person subscribes');
    expect(triggerWords({ type: 'event', name: 'cart_abandoned' })).to.equal('Event cart_abandoned');
    expect(triggerWords({ type: 'tag', name: 'vip' })).to.equal('Tag vip, any value');
    expect(triggerWords({ type: 'tag', name: 'plan', value: 'gold' })).to.equal('Tag plan = gold');
    expect(triggerWords({ type: 'tag', name: 'score', value: 5 })).to.equal('Tag score = 5');
    expect(triggerWords({ type: 'tag', name: 'code', value: '5' })).to.equal('Tag code = "5"');
    expect(triggerWords({ type: 'tag', name: 'vip', value: true })).to.equal('Tag vip = true');
    expect(triggerWords({ type: 'tag', name: 'note', value: 'false' })).to.equal('Tag note = "false"');
    expect([throttleWords(null), throttleWords(undefined), throttleWords(1), throttleWords(25_000)]).to.deep.equal(['No limit', 'No limit', 'At most 1 person a minute', 'At most 25,000 people a minute']);
    expect([throttleChange(''), throttleChange(' 120 '), throttleChange('1.5'), throttleChange('lots')]).to.deep.equal([null, 120, 1.5, 'lots']);
    expect(triggerWords({ type: 'visit', page: '/cart', times: 2 })).to.equal('visit page /cart times 2');
  });

  /** The form as it opens, with the fields a test gives. */
  const form = (fields: Partial<AutomationForm>): AutomationForm => ({
    name: '',
    trigger: 'subscribed',
    eventName: '',
    tagName: '',
    tagValueKind: 'any',
    tagValue: '',
    steps: [],
    exitEvents: '',
    throttle: '',
    ...fields,
  });

  it('sends the form as a create body: waits in seconds (what is not a number as typed), variables from their rows, exit events from the comma list', () => {
    const steps = [
      { ...newStep('t1', '0'), variables: [{ key: 1, name: 'item', value: 'boots' }, { key: 2, name: '', value: '' }] },
      newStep('t2', '1', 'days'),
      newStep('t1', '1.5', 'hours'),
      newStep('t1', 'soon', 'minutes'),
      newStep('t1', '', 'minutes'),
    ];
    expect(automationRequest(form({ name: 'Cart', trigger: 'event', eventName: 'cart_abandoned', tagName: 'ignored', steps, exitEvents: ' checkout_completed, ,order_cancelled ' }))).to.deep.equal({
      name: 'Cart',
      trigger: { type: 'event', name: 'cart_abandoned' },
      steps: [
        { delaySeconds: 0, templateId: 't1', variables: { item: 'boots' } },
        { delaySeconds: 86_400, templateId: 't2' },
        { delaySeconds: 5400, templateId: 't1' },
        { delaySeconds: 'soon', templateId: 't1' },
        { delaySeconds: '', templateId: 't1' },
      ],
      exitOn: { events: ['checkout_completed', 'order_cancelled'] },
    });
    expect(automationRequest(form({ name: 'Welcome', trigger: 'subscribed', eventName: 'ignored', steps: [newStep('t1')], exitEvents: '' }))).to.deep.equal({
      name: 'Welcome',
      trigger: { type: 'subscribed' },
      steps: [{ delaySeconds: 0, templateId: 't1' }],
      exitOn: { events: [] },
    });
  });

  it("sends a tag trigger with its value typed as chosen (none for any; a number that is not one as null, for the API's refusal)", () => {
    const trigger = (fields: Partial<AutomationForm>) => automationRequest(form({ trigger: 'tag', tagName: 'plan', steps: [newStep('t1')], ...fields })).trigger;
    expect(trigger({ tagValueKind: 'any', tagValue: 'ignored' })).to.deep.equal({ type: 'tag', name: 'plan' });
    expect(trigger({ tagValueKind: 'text', tagValue: 'gold' })).to.deep.equal({ type: 'tag', name: 'plan', value: 'gold' });
    expect(trigger({ tagValueKind: 'text', tagValue: '5' })).to.deep.equal({ type: 'tag', name: 'plan', value: '5' });
    expect(trigger({ tagValueKind: 'text', tagValue: '' })).to.deep.equal({ type: 'tag', name: 'plan', value: '' });
    expect(trigger({ tagValueKind: 'number', tagValue: ' 2.5 ' })).to.deep.equal({ type: 'tag', name: 'plan', value: 2.5 });
    expect(trigger({ tagValueKind: 'number', tagValue: '-3' })).to.deep.equal({ type: 'tag', name: 'plan', value: -3 });
    expect(trigger({ tagValueKind: 'number', tagValue: 'five' })).to.deep.equal({ type: 'tag', name: 'plan', value: null });
    expect(trigger({ tagValueKind: 'number', tagValue: '' })).to.deep.equal({ type: 'tag', name: 'plan', value: null });
    expect(trigger({ tagValueKind: 'true', tagValue: 'ignored' })).to.deep.equal({ type: 'tag', name: 'plan', value: true });
    expect(trigger({ tagValueKind: 'false' })).to.deep.equal({ type: 'tag', name: 'plan', value: false });
    // The tag name goes as typed, for the API's own refusal.
    expect(trigger({ tagName: ' Plan ' })).to.deep.equal({ type: 'tag', name: ' Plan ' });
    // Each value the form sends for a tag trigger is one the campaign service takes.
    for (const kind of ['any', 'text', 'number', 'true', 'false'] as const) {
      expect(() => validateAutomationInput({ ...automationRequest(form({ name: 'n', trigger: 'tag', tagName: 'plan', tagValueKind: kind, tagValue: '7', steps: [newStep('00000000-0000-4000-8000-000000000000')] })) })).not.to.throw();
    }
  });

  it("sends a step's best time as sendTime, its quiet hours as the box says (stated whenever best time is on), and a throttle only when typed", () => {
    const steps = [
      { ...newStep('t1'), bestTime: true, within: '24' },
      { ...newStep('t1'), bestTime: true, within: ' 72 ', quietHours: true },
      { ...newStep('t1'), quietHours: true },
      { ...newStep('t1'), within: '12' },
      { ...newStep('t1'), bestTime: true, within: 'soon' },
    ];
    const body = automationRequest(form({ name: 'Tagged', trigger: 'tag', tagName: 'plan', tagValueKind: 'text', tagValue: 'gold', steps, throttle: ' 500 ' }));
    expect(body.steps.map(({ sendTime, respectQuietHours }) => ({ sendTime, respectQuietHours }))).to.deep.equal([
      { sendTime: { mode: 'bestTime', within: '24h' }, respectQuietHours: false },
      { sendTime: { mode: 'bestTime', within: '72h' }, respectQuietHours: true },
      { sendTime: undefined, respectQuietHours: true },
      { sendTime: undefined, respectQuietHours: undefined },
      { sendTime: { mode: 'bestTime', within: 'soonh' }, respectQuietHours: false },
    ]);
    expect(Object.keys(body.steps[3])).to.deep.equal(['delaySeconds', 'templateId']);
    expect(body.throttlePerMinute).to.equal(500);
    expect(automationRequest(form({ steps: [newStep('t1')], throttle: 'lots' })).throttlePerMinute).to.equal('lots');
    expect(automationRequest(form({ steps: [newStep('t1')], throttle: '  ' }))).not.to.have.property('throttlePerMinute');
    // The steps the campaign service takes as they are: the box unchecked with best time is stored as no quiet hours.
    const stored = automationRequest(form({ name: 'n', steps: steps.slice(0, 4).map((s) => ({ ...s, templateId: '00000000-0000-4000-8000-000000000000' })) }));
    expect(validateAutomationInput({ ...stored }).steps.map((s) => [s.sendTime ?? null, s.respectQuietHours ?? null])).to.deep.equal([
      [{ withinHours: 24 }, null],
      [{ withinHours: 72 }, true],
      [null, true],
      [null, null],
    ]);
  });
});
