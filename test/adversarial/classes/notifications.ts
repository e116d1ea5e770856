// Class 23: notifications to chosen subscriptions or people (POST /v2/notifications, GET
// /v2/notifications[/{id}]; docs/api-decisions.md, "Notifications"), on a site of the class's
// own: every field hostile — the targets (wrong types, huge and duplicated lists, odd ids in any
// case, the bystander's subscriptions), the content, `transactional`, `externalIds` (hostile ids
// and lists, both kinds of target at once), `template` (hostile references and variables, beside
// content fields, the bystander's template), `sendTime` and `respectQuietHours` (hostile and
// near-valid windows, holdouts; an accepted one read back as asked) — → 202 or 4xx, bad text refused, nothing stored on a
// 4xx, the bystander's template never used; a person of the bystander's named by their id → never reached (no subscription); hostile Idempotency-Key headers; hostile
// `limit` and `cursor` queries; odd and the bystander's notification ids → 404; the bystander's
// subscriptions named are never reached (no subscription) and its data unchanged; reports naming a
// notification with forged tokens → 400, nothing counted (its impressions, clicks, ctr 0). Targets are
// random ids and the bystander's: nothing is ever pushed to the outside world.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import { request } from '../support/http.js';
import { hasBadText, hostileString, hostileValue, ODD_SEGMENTS, pathSegment, toJsonText } from '../support/hostile.js';
import { createTrackingTokens, deriveTrackingKey } from '../../../services/delivery/src/tracking/tracking-token.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, show, sleep, trackViolations, validSubscription, violation } from '../support/suite.js';

export const CLASS_NOTIFICATIONS = '23 notifications';
const cls = CLASS_NOTIFICATIONS;

const FIELDS = [
  'subscriptionIds', 'externalIds', 'transactional', 'title', 'body', 'link', 'icon', 'image', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign', 'ttl', 'urgency',
  'actions', 'badge', 'requireInteraction', 'renotify', 'silent', 'vibrate', 'timestamp', 'dir', 'lang', 'sendTime', 'respectQuietHours',
] as const;
/** The fields whose text is read (a NUL or lone surrogate there must be refused). */
const TEXT_FIELDS = ['title', 'body', 'link', 'icon', 'image', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign'];

function valid(subscriptionIds: string[]): Record<string, unknown> {
  return { subscriptionIds, title: 'Your order shipped', body: 'Parcel 1234 is on its way', link: 'https://shop.example/orders/1234' };
}

/** Target lists a caller might send, right and wrong. */
const targets = (theirs: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.array(fc.uuid(), { minLength: 1, maxLength: 5 }),
    fc.uuid().map((id) => [id, id.toUpperCase()]),
    fc.constant([theirs, theirs.toUpperCase()]),
    fc.constant([theirs]),
    fc.integer({ min: 9_990, max: 10_010 }).map((n) => Array.from({ length: n }, () => randomUUID())),
    fc.array(fc.oneof(fc.uuid(), hostileString), { minLength: 1, maxLength: 4 }),
    hostileValue,
  );

export function registerNotifications(): void {
  describe(CLASS_NOTIFICATIONS, function () {
    this.timeout(180_000);
    trackViolations(cls);
    let site: SiteInfo;
    let theirs: string;

    before(async () => {
      const c = getCtx();
      const plan = `adv_notify_${randomBytes(3).toString('hex')}`;
      await c.stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
      site = await c.stack.cli('sites', 'create', 'adversarial-notifications', '--plan', plan);
      // A subscription of the bystander, for the notifications to name.
      const subscribed = await request(c.gatewayPort, jsonRequest('POST', `/public/v1/sites/${c.sites.other.publicId}/subscriptions`, { subscription: validSubscription('class23'), topics: ['news'] }));
      theirs = JSON.parse(subscribed.responses[0]?.text ?? '{}').id;
      if (typeof theirs !== 'string') throw new Error(`the bystander's subscription was not made: ${subscribed.responses[0]?.status}`);
    });

    it('every field hostile in a create → 202 or 4xx, bad text refused, nothing stored on a 4xx', async () => {
      const mutation = fc.tuple(fc.constantFrom<string>(...FIELDS, 'unknownField', '__proto__'), fc.option(hostileValue, { nil: undefined, freq: 8 }));
      const arb = fc.tuple(targets(theirs), fc.array(mutation, { minLength: 0, maxLength: 3 }));
      await fuzz(arb, { numRuns: 300, timeMs: 20_000, seedOffset: 230 }, async ([ids, mutations]) => {
        const body: Record<string, unknown> = { ...valid([]), subscriptionIds: ids };
        for (const [field, value] of mutations) {
          if (value === undefined) delete body[field];
          else body[field] = value;
        }
        await probe(cls, { ...jsonRequest('POST', '/v2/notifications', undefined, site.apiKey), body: toJsonText(body) }, {
          siteId: site.id,
          allowed: [202, 400, 413, 429],
          mustReject: [...TEXT_FIELDS, 'externalIds'].some((f) => Object.hasOwn(body, f) && hasBadText(body[f])),
          what: show(body, 200),
        });
      });
      assertNoViolations(cls);
    });

    it('hostile externalIds (alone or beside subscriptionIds) → 202 or 4xx, bad text refused, nothing stored on a 4xx', async () => {
      const people = fc.oneof(
        fc.array(fc.string({ minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 5 }),
        fc.array(hostileString, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(['same', 'same'], ['x'.repeat(128)], ['x'.repeat(129)], [''], ['a\u0000b'], ['\ud800'], ['tab\tid'], [], ['__proto__'], ['ünïcødé 👤']),
        fc.integer({ min: 9_990, max: 10_010 }).map((n) => Array.from({ length: n }, (_, i) => `person-${i}`)),
        hostileValue,
      );
      await fuzz(fc.tuple(people, fc.boolean(), fc.boolean()), { numRuns: 150, timeMs: 15_000, seedOffset: 232 }, async ([externalIds, withSubscriptions, transactional]) => {
        const body: Record<string, unknown> = { ...valid([randomUUID()]), externalIds, transactional };
        if (!withSubscriptions) delete body.subscriptionIds;
        await probe(cls, { ...jsonRequest('POST', '/v2/notifications', undefined, site.apiKey), body: toJsonText(body) }, {
          siteId: site.id,
          // An empty list beside the other names nobody (a client that sends both lists).
          allowed: withSubscriptions && !(Array.isArray(externalIds) && externalIds.length === 0) ? [400, 413, 429] : [202, 400, 413, 429],
          mustReject: hasBadText(externalIds),
          what: show(body, 200),
        });
      });
      assertNoViolations(cls);
    });

    it("a person of the bystander's named by their id → never reached (no subscription)", async () => {
      const c = getCtx();
      const { secret } = await c.stack.cli('sites', 'identity-secret', c.sites.other.id);
      const subscription = validSubscription('class23p');
      const subscribed = await request(c.gatewayPort, jsonRequest('POST', `/public/v1/sites/${c.sites.other.publicId}/subscriptions`, { subscription, topics: ['news'] }));
      if (subscribed.responses[0]?.status !== 201) throw new Error(`the bystander's subscription was not made: ${subscribed.responses[0]?.status}`);
      const externalId = `adv-person-${randomBytes(3).toString('hex')}`;
      const signature = createHmac('sha256', secret).update(externalId).digest('hex');
      const identified = await request(c.gatewayPort, jsonRequest('POST', `/public/v1/sites/${c.sites.other.publicId}/identity`, { endpoint: subscription.endpoint, externalId, signature }));
      if (JSON.parse(identified.responses[0]?.text ?? '{}').identified !== true) throw new Error(`the bystander's person was not identified: ${identified.responses[0]?.status}`);
      const created = await probe(cls, jsonRequest('POST', '/v2/notifications', { ...valid([]), subscriptionIds: undefined, externalIds: [externalId] }, site.apiKey), { siteId: c.sites.other.id, allowed: [202], what: "(the bystander's person)" });
      const id = created.body?.id as string;
      let read: { status: number | undefined; body: any } = { status: undefined, body: undefined };
      for (let i = 0; i < 100 && read.body?.status !== 'completed'; i++) {
        await sleep(100);
        read = await probe(cls, { method: 'GET', path: `/v2/notifications/${id}`, headers: [['Authorization', site.apiKey]] }, { siteId: site.id, allowed: [200], what: '(its own notification)' });
      }
      const result = read.body?.results?.[0];
      if (read.body?.status !== 'completed' || result?.externalId !== externalId || result?.outcome !== 'noSubscription') violation(cls, `the bystander's person named: ${show(read.body, 300)}`);
      assertNoViolations(cls);
    });

    it("hostile templates and variables (alone, beside content fields, the bystander's template) → 202 or 4xx, bad text refused, nothing stored on a 4xx; the bystander's template never made a notification", async () => {
      const c = getCtx();
      const made = async (apiKey: string, siteId: string, name: string) => {
        const body = { name, title: 'Hi {{ first_name }}', body: 'Order {{ order | "soon" }} shipped', link: 'https://shop.example/o/{{ order }}' };
        const r = await probe(cls, jsonRequest('POST', '/v2/templates', body, apiKey), { siteId, allowed: [200], what: `(template ${name})` });
        if (typeof r.body?.id !== 'string') throw new Error(`the template was not made: ${r.status}`);
        return r.body.id as string;
      };
      const mine = await made(site.apiKey, site.id, `adv-notify-${randomBytes(3).toString('hex')}`);
      const bystanders = await made(c.sites.other.apiKey, c.sites.other.id, `adv-notify-theirs-${randomBytes(3).toString('hex')}`);
      const references = fc.oneof(
        fc.constant({ id: mine }),
        fc.constant({ id: bystanders }),
        fc.constant({ id: bystanders.toUpperCase() }),
        fc.tuple(fc.constantFrom(mine, bystanders, randomUUID(), '', 'not-an-id'), fc.dictionary(fc.oneof(fc.constantFrom('first_name', 'order', '__proto__', 'constructor'), hostileString), hostileValue, { maxKeys: 4 })).map(([id, variables]) => ({ id, variables })),
        fc.constant({ id: mine, variables: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, 'x'])) }),
        fc.constant({ id: mine, variables: { first_name: 'x'.repeat(1000), order: 'y'.repeat(1000) } }),
        hostileValue,
      );
      const kinds = fc.constantFrom('people', 'subscriptions', 'withContent');
      await fuzz(fc.tuple(references, kinds), { numRuns: 150, timeMs: 15_000, seedOffset: 233 }, async ([template, kind]) => {
        const body: Record<string, unknown> =
          kind === 'people' ? { externalIds: [`adv-t-${randomBytes(2).toString('hex')}`], template } : kind === 'subscriptions' ? { subscriptionIds: [randomUUID()], template } : { ...valid([randomUUID()]), template };
        const ref = template as { id?: unknown; variables?: unknown } | null;
        const theirs = typeof ref === 'object' && ref !== null && typeof ref.id === 'string' && ref.id.toLowerCase() === bystanders;
        const created = await probe(cls, { ...jsonRequest('POST', '/v2/notifications', undefined, site.apiKey), body: toJsonText(body) }, {
          siteId: site.id,
          allowed: theirs || kind === 'withContent' ? [400, 429] : [202, 400, 429],
          mustReject: typeof ref === 'object' && ref !== null && hasBadText(ref.variables),
          what: show(body, 200),
        });
        if (theirs && created.status === 202) violation(cls, `the bystander's template made a notification: ${show(body, 200)}`);
      });
      assertNoViolations(cls);
    });

    it('hostile sendTime and respectQuietHours → 202 or 400, nothing stored on a 400; an accepted one reads back as asked', async () => {
      const part = <T>(...near: T[]) => fc.option(fc.oneof(fc.constantFrom(...near), hostileValue), { nil: undefined, freq: 4 });
      const sendTime = fc.oneof(
        fc.record({ mode: part('bestTime', 'BestTime', 'now'), within: part('1h', '24h', '72h', '0h', '73h', '24', '1.5h', ' 2h'), holdout: part<unknown>(0, null, 10, -0, '0', 0.5) }, { requiredKeys: [] }),
        fc.constant({ mode: 'bestTime', within: '3h', extra: 1 }),
        hostileValue,
      );
      const respect = fc.option(fc.oneof(fc.constantFrom<unknown>(true, false, null, 'true', 0), hostileValue), { nil: undefined });
      await fuzz(fc.tuple(sendTime, respect), { numRuns: 150, timeMs: 15_000, seedOffset: 234 }, async ([asked, respectQuietHours]) => {
        const body: Record<string, unknown> = { ...valid([randomUUID()]), sendTime: asked, respectQuietHours };
        const created = await probe(cls, { ...jsonRequest('POST', '/v2/notifications', undefined, site.apiKey), body: toJsonText(body) }, {
          siteId: site.id,
          allowed: [202, 400, 429],
          what: show(body, 200),
        });
        if (created.status !== 202) return;
        const read = await probe(cls, { method: 'GET', path: `/v2/notifications/${created.body?.id}`, headers: [['Authorization', site.apiKey]] }, { siteId: site.id, allowed: [200], what: '(its own notification)' });
        const wanted = asked as { within?: string } | null;
        const best = wanted !== null && wanted !== undefined;
        const expected = { sendTime: best ? { mode: 'bestTime', within: wanted.within ?? '24h' } : undefined, respectQuietHours: (respectQuietHours ?? best) === true ? true : undefined };
        const shown = { sendTime: read.body?.sendTime, respectQuietHours: read.body?.respectQuietHours };
        if (JSON.stringify(shown) !== JSON.stringify(expected)) violation(cls, `sendTime ${show(body, 200)} read back as ${show(shown, 200)}`);
      });
      assertNoViolations(cls);
    });

    it("reports naming a notification with forged tokens (another deployment's key; this one's altered or cut) → 400, nothing recorded; its reads show impressions, clicks and ctr as 0", async () => {
      const c = getCtx();
      const created = await probe(cls, jsonRequest('POST', '/v2/notifications', valid([randomUUID()]), site.apiKey), { siteId: site.id, allowed: [202], what: '(a notification to report on)' });
      const id = created.body?.id as string;
      const foreign = createTrackingTokens(deriveTrackingKey(randomBytes(32)));
      const ours = createTrackingTokens(deriveTrackingKey(Buffer.from(c.stack.vapidEncryptionKey, 'base64')));
      // `at` < 53: the 54th character carries only 2 of the token's bits, so some changes there
      // spell the same 40 bytes (the same token, which is not a forgery).
      const forged = fc.tuple(fc.bigInt({ min: 1n, max: 2n ** 40n }), fc.constantFrom('impression', 'click'), fc.constantFrom('foreign', 'altered', 'cut', 'longer'), fc.nat(52));
      await fuzz(forged, { numRuns: 80, timeMs: 8_000, seedOffset: 235 }, async ([subscriber, type, how, at]) => {
        const target = { campaignId: id, subscriberId: String(subscriber) };
        const real = ours.sign(target);
        const token =
          how === 'foreign' ? foreign.sign(target) : how === 'altered' ? real.slice(0, at) + (real[at] === 'A' ? 'B' : 'A') + real.slice(at + 1) : how === 'cut' ? real.slice(0, at) : `${real}A`;
        await probe(cls, jsonRequest('POST', '/public/v1/events', { type, token }), { siteId: site.id, allowed: [400, 429], what: `(${how} ${type} token)` });
      });
      const { rows } = await c.db.query(`SELECT count(*)::int AS n FROM delivery.tracking WHERE campaign_id = $1`, [id]);
      if (rows[0].n !== 0) violation(cls, `forged reports were recorded for the notification: ${rows[0].n}`);
      const one = await probe(cls, { method: 'GET', path: `/v2/notifications/${id}`, headers: [['Authorization', site.apiKey]] }, { siteId: site.id, allowed: [200], what: '(its own notification)' });
      const listed = await probe(cls, { method: 'GET', path: '/v2/notifications?limit=1000', headers: [['Authorization', site.apiKey]] }, { siteId: site.id, allowed: [200], what: '(its notifications)' });
      for (const n of [one.body, (listed.body?.items ?? []).find((i: { id: string }) => i.id === id)]) {
        if (n?.impressions !== 0 || n?.clicks !== 0 || n?.ctr !== 0) violation(cls, `the notification's counters after forged reports: ${show(n, 300)}`);
      }
      assertNoViolations(cls);
    });

    it('hostile Idempotency-Key headers → 202, 400 or 422; a key reused with another body stores nothing', async () => {
      const keys = ['', ' ', 'k'.repeat(256), 'ключ', 'a\tb', 'same-key', 'same-key'];
      for (const [i, key] of keys.entries()) {
        await probe(cls, jsonRequest('POST', '/v2/notifications', { ...valid([randomUUID()]), title: `Key probe ${i}` }, site.apiKey, [['Idempotency-Key', key]]), {
          siteId: site.id,
          allowed: [202, 400, 422],
          what: `(Idempotency-Key ${show(key, 40)})`,
        });
      }
    });

    it("the bystander's subscriptions named → never reached (no subscription); its notification ids, odd ids → 404; hostile queries → 200 or 400 (431 for a URL over the header limit)", async () => {
      const c = getCtx();
      const created = await probe(cls, jsonRequest('POST', '/v2/notifications', valid([theirs]), site.apiKey), { siteId: c.sites.other.id, allowed: [202], what: "(the bystander's subscription)" });
      const id = created.body?.id as string;
      let read: { status: number | undefined; body: any } = { status: undefined, body: undefined };
      for (let i = 0; i < 100 && read.body?.status !== 'completed'; i++) {
        await sleep(100);
        read = await probe(cls, { method: 'GET', path: `/v2/notifications/${id}`, headers: [['Authorization', site.apiKey]] }, { siteId: site.id, allowed: [200], what: '(its own notification)' });
      }
      const outcome = read.body?.results?.[0]?.outcome;
      if (read.body?.status !== 'completed' || outcome !== 'noSubscription') violation(cls, `the bystander's subscription named: ${show(read.body, 300)}`);
      // The bystander cannot read it, by any spelling.
      for (const spelled of [id, id.toUpperCase()]) {
        const r = await probe(cls, { method: 'GET', path: `/v2/notifications/${spelled}`, headers: [['Authorization', c.sites.other.apiKey]] }, { siteId: c.sites.other.id, allowed: [404], what: "(another site's notification)" });
        if (r.body?.message !== 'Notification not found') violation(cls, `another site's notification: ${r.status} ${show(r.body)}`);
      }
      for (const segment of ODD_SEGMENTS) {
        await probe(cls, { method: 'GET', path: `/v2/notifications/${pathSegment(segment)}`, headers: [['Authorization', site.apiKey]] }, { siteId: site.id, allowed: [400, 404, 405], what: `(notification id ${show(segment, 40)})` });
      }
      await fuzz(fc.tuple(fc.option(hostileString, { nil: undefined }), fc.option(hostileString, { nil: undefined }), fc.boolean()), { numRuns: 120, timeMs: 8_000, seedOffset: 231 }, async ([limit, cursor, one]) => {
        const query = [limit === undefined ? '' : `limit=${encodeURIComponent(limit.toWellFormed())}`, cursor === undefined ? '' : `cursor=${encodeURIComponent(cursor.toWellFormed())}`].filter(Boolean).join('&');
        const path = `/v2/notifications${one ? `/${id}` : ''}${query ? `?${query}` : ''}`;
        await probe(cls, { method: 'GET', path, headers: [['Authorization', site.apiKey]] }, { siteId: site.id, allowed: [200, 400, 414, 431], what: `(query ${show(query, 80)})` });
      });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
